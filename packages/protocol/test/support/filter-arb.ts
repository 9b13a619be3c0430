/** Random filters of the whole language (every field, free text, !, & and |) for property tests. */
import fc from 'fast-check';
import type { Filter, FilterField } from '../../src/index.js';

const valueByField: Record<FilterField, fc.Arbitrary<string>> = {
  method: fc.oneof(fc.constantFrom('tools/call', 'tools/*', 'initialize', 'notifications/progress'), fc.string({ minLength: 1 })),
  tool: fc.string({ minLength: 1 }),
  id: fc.oneof(fc.integer().map(String), fc.string().map((s) => JSON.stringify(s))),
  dir: fc.constantFrom('c2s', 's2c'),
  kind: fc.constantFrom('request', 'notification', 'invalid', 'http', 'probe'),
  status: fc.constantFrom('ok', 'pending', 'err', 'protocol_error', 'orphan'),
  session: fc.string({ minLength: 1 }),
  conversation: fc.oneof(fc.nat().map((n) => `c${n}`), fc.string({ minLength: 1 })),
  client: fc.string({ minLength: 1 }),
  code: fc.integer({ min: -40000, max: 40000 }).map(String),
  rev: fc.constantFrom('2025-03-26', '2025-06-18', '2026-07-28', '2025-*'),
  latency: fc.constantFrom('500', '1.5s', '10ms', '0'),
  size: fc.constantFrom('10000', '10kb', '1mb', '2.5m'),
  has: fc.constant('diag'),
  diag: fc.string({ minLength: 1 }),
  'http.method': fc.constantFrom('GET', 'POST', 'OPTIONS', 'PROPFIND'),
  'http.path': fc.oneof(fc.constantFrom('/mcp', '/.well-known/*', '/token'), fc.string({ minLength: 1 })),
  'http.status': fc.constantFrom('200', '404', '4xx', 'none'),
};

const fieldArb: fc.Arbitrary<Filter> = fc
  .constantFrom(...(Object.keys(valueByField) as FilterField[]))
  .chain((field) =>
    fc
      .tuple(valueByField[field], fc.boolean())
      .map(([value, whole]): Filter => ({ type: 'field', field, op: field === 'latency' || field === 'size' ? '>' : field === 'session' && whole ? '=' : ':', value })),
  );

export const { filter: filterArb } = fc.letrec<{ filter: Filter }>((tie) => ({
  filter: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fieldArb,
    fc.string().map((value): Filter => ({ type: 'text', value })),
    tie('filter').map((item): Filter => ({ type: 'not', item })),
    fc.array(tie('filter'), { minLength: 2, maxLength: 4 }).map((items): Filter => ({ type: 'and', items })),
    fc.array(tie('filter'), { minLength: 2, maxLength: 4 }).map((items): Filter => ({ type: 'or', items })),
  ),
}));
