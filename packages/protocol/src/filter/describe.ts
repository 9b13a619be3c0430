/**
 * Filter → a plain sentence ("Exchanges where the method is tools/call and it took longer than
 * 500 ms."), shown under the filter box as the user types. Clauses come from the field registry.
 */
import { fieldSpec } from './fields.js';
import type { Filter } from './types.js';
import { quote } from './values.js';

/** `rows` names what is filtered: exchanges (the timeline) or HTTP requests (the door). */
export function describeFilter(filter: Filter | null, rows: 'exchanges' | 'requests' = 'exchanges'): string {
  const noun = rows === 'exchanges' ? 'exchange' : 'HTTP request';
  if (filter === null) return `Every ${noun} (the filter is empty).`;
  return `${rows === 'exchanges' ? 'Exchanges' : 'HTTP requests'} where ${clause(filter, rows)}.`;
}

function clause(filter: Filter, rows: 'exchanges' | 'requests'): string {
  switch (filter.type) {
    case 'and':
      return filter.items.map((item) => (item.type === 'or' ? `(${clause(item, rows)})` : clause(item, rows))).join(' and ');
    case 'or':
      return filter.items.map((item) => (item.type === 'and' ? `(${clause(item, rows)})` : clause(item, rows))).join(' or ');
    case 'not':
      // Parentheses always: "not (the client sent it)" reads right whatever the clause says.
      return `not (${clause(filter.item, rows)})`;
    case 'field': {
      const spec = fieldSpec(filter.field);
      return spec ? spec.describe(filter.op, filter.value) : `${filter.field}${filter.op}${filter.value}`;
    }
    case 'text':
      return rows === 'exchanges'
        ? `the method, target or a body contains ${quote(filter.value)}`
        : `the method, path, status, user agent or a body contains ${quote(filter.value)}`;
  }
}
