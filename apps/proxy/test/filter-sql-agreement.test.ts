// Every filter of the language is decided in SQL (filter-sql.ts), so the dashboard's window can
// count a filtered list of any size without a scan. Property: on random captures (clients with
// any-case and non-ASCII names, revisions, ids of both JSON types, tool names with GLOB's own
// `?` and `[`, every outcome, requests from the server, junk) and random filters built from what
// the capture holds, the SQL alone keeps exactly what the matcher the dashboard runs keeps, with
// the session the dashboard holds for each row (and bodies and diagnostics for the rest).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileFilter, parseFilter, type ExchangeSummary, type FilterContext, type FrameInput } from '@mcpscope/protocol';
import { CaptureStore } from '../src/capture/capture-store.js';
import { CapturePipeline } from '../src/capture/capture-pipeline.js';
import { filterToSql } from '../src/capture/filter-sql.js';
import { filtersOf } from './support/mixed-capture.js';

const CLIENTS = ['Claude Desktop', 'claude-code', 'ÉCLAIR agent', 'cursor', 'Beta [x]?', ''];
const REVISIONS = ['2025-06-18', '2025-11-25', '2024-11-05', 'draft?1'];
const TOOLS = ['get_weather', 'wrap[1]', 'wrap1', 'wrap?gift', 'wrapXgift', 'Tools', 'a*b'];
/** Session keys by plan index: `session:s-1` is a prefix of two; the last begins as a stored reference does (session-keys.ts). */
const SESSION_KEYS = ['s-0', 's-1', 's-10', '\u00012'];

interface SessionPlan {
  client: string;
  rev: string;
  /** Sessions that never said initialize have no client and no revision. */
  initialized: boolean;
  userAgent?: string;
  /** The revision also (or only) in the MCP-Protocol-Version header. */
  revHeader?: boolean;
}

interface CallPlan {
  session: number;
  id: number | string;
  method: string;
  tool: string;
  outcome: 'ok' | 'error' | 'isError' | 'pending';
  code: number;
  text: string;
}

const sessionPlan: fc.Arbitrary<SessionPlan> = fc.record(
  { client: fc.constantFrom(...CLIENTS), rev: fc.constantFrom(...REVISIONS), initialized: fc.boolean(), userAgent: fc.constantFrom('node', 'Mozilla/5.0 Cursor', 'openai-mcp/1.0', ''), revHeader: fc.boolean() },
  { requiredKeys: ['client', 'rev', 'initialized'] },
);
const callPlan: fc.Arbitrary<CallPlan> = fc.record({
  session: fc.nat(),
  id: fc.oneof(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 9 }).map(String)),
  method: fc.constantFrom('tools/call', 'tools/call', 'resources/read', 'prompts/get', 'sampling/createMessage', 'notifications/progress', 'junk'),
  tool: fc.constantFrom(...TOOLS),
  outcome: fc.constantFrom('ok', 'error', 'isError', 'pending'),
  code: fc.constantFrom(-32602, -32601, -32000),
  text: fc.constantFrom('plain', 'with a bow', 'Ribbon'),
});

/** Frames of one random capture, in capture order. */
function framesOf(sessions: SessionPlan[], calls: CallPlan[]): FrameInput[] {
  const out: FrameInput[] = [];
  let ts = 1_000;
  const push = (session: number, direction: 'c2s' | 's2c', body: unknown) => {
    ts += 1 + (out.length % 5);
    const plan = sessions[session]!;
    out.push({
      ts,
      sessionKey: SESSION_KEYS[session]!,
      direction,
      transport: 'http-json',
      kind: 'data',
      raw: typeof body === 'string' ? body : JSON.stringify(body),
      http: { method: 'POST', path: '/mcp', connectionId: `c${out.length}`, requestHeaders: { ...(plan.userAgent ? { 'user-agent': plan.userAgent } : {}), ...(plan.revHeader ? { 'mcp-protocol-version': plan.rev } : {}) } },
    });
  };
  sessions.forEach((s, i) => {
    if (!s.initialized) return;
    push(i, 'c2s', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: s.rev, capabilities: {}, clientInfo: { name: s.client, version: '1' } } });
    push(i, 's2c', { jsonrpc: '2.0', id: 0, result: { protocolVersion: s.rev, capabilities: {}, serverInfo: { name: 'srv', version: '1' } } });
  });
  for (const c of calls) {
    const at = c.session % sessions.length;
    if (c.method === 'junk') {
      push(at, c.id === 0 ? 's2c' : 'c2s', `junk ${c.text}`);
      continue;
    }
    if (c.method.startsWith('notifications/')) {
      push(at, typeof c.id === 'number' ? 'c2s' : 's2c', { jsonrpc: '2.0', method: c.method, params: { progressToken: 1, progress: 1, message: c.text } });
      continue;
    }
    // The server asks the client (sampling); everything else the client asks the server.
    const [ask, answer] = c.method === 'sampling/createMessage' ? (['s2c', 'c2s'] as const) : (['c2s', 's2c'] as const);
    const params = c.method === 'tools/call' ? { name: c.tool, arguments: { note: c.text } } : c.method === 'resources/read' ? { uri: `gifts://${c.text}` } : { name: c.tool };
    push(at, ask, { jsonrpc: '2.0', id: c.id, method: c.method, params });
    if (c.outcome === 'pending') continue;
    if (c.outcome === 'error') push(at, answer, { jsonrpc: '2.0', id: c.id, error: { code: c.code, message: c.text } });
    else push(at, answer, { jsonrpc: '2.0', id: c.id, result: { isError: c.outcome === 'isError', content: [{ type: 'text', text: c.text }] } });
  }
  return out;
}

const quoted = (v: string) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** A glob over `name`: itself, or with a run of it replaced by `*`. */
const globOf = (name: string) =>
  fc.tuple(fc.nat(), fc.nat(), fc.boolean()).map(([a, b, star]) => {
    if (!star) return name;
    const from = a % (name.length + 1);
    const to = from + (b % (name.length - from + 1));
    return name.slice(0, from) + '*' + name.slice(to);
  });

/** A part of `name` in another case: what `client:` looks for. */
const partOf = (name: string) =>
  fc.tuple(fc.nat(), fc.nat(), fc.boolean()).map(([a, b, upper]) => {
    const from = a % (name.length + 1);
    const part = name.slice(from, from + (b % (name.length - from + 1)));
    return upper ? part.toUpperCase() : part.toLowerCase();
  }).filter((part) => part !== '');

const atom: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...CLIENTS.filter((c) => c !== ''), 'node', 'Cursor', 'ChatGPT').chain(partOf).map((v) => `client:${quoted(v)}`),
  fc.constantFrom(...REVISIONS).chain(globOf).map((v) => `rev:${quoted(v)}`),
  fc.constantFrom(...TOOLS).chain(globOf).map((v) => `tool:${quoted(v)}`),
  fc.constantFrom('tools/call', 'resources/read', 'sampling/createMessage', 'notifications/progress').chain(globOf).map((v) => `method:${quoted(v)}`),
  fc.integer({ min: 0, max: 9 }).map((n) => `id:${n}`),
  fc.integer({ min: 0, max: 9 }).map((n) => `id:"${n}"`),
  fc.constantFrom('dir:c2s', 'dir:s2c', 'kind:request', 'kind:notification', 'kind:invalid', 'kind:http', 'has:diag', 'status:err', 'status:ok', 'status:pending'),
  fc.constantFrom('code:-32602', 'code:-32000', 'session:s-1', 'session=s-1', 'session:s', 'session=s-10', 'http.method:POST', 'http.path:/mcp', 'http.status:4xx'),
  fc.constantFrom('invalid-message', 'unknown-tool', 'orphan-response').chain(globOf).map((v) => `diag:${quoted(v)}`),
  fc.tuple(fc.constantFrom('>', '<'), fc.constantFrom('0', '90', '200', '1kb', '0.1k')).map(([op, v]) => `size${op}${v}`),
  fc.tuple(fc.constantFrom('>', '<'), fc.constantFrom('0', '3', '2ms', '0.004s')).map(([op, v]) => `latency${op}${v}`),
  fc.constantFrom('bow', 'RIBBON', 'gifts'),
);

/** Checked on every capture: GLOB's own characters, non-ASCII case, a name only one field holds. */
const TRICKY = ['tool:"w*p?gift"', 'tool:"wr*p[1]"', 'tool:"a*b"', 'rev:"draft*1"', 'method:"*s/call"', 'client:"éclair"', 'client:"CHATG"', 'client:"node"', '!client:"claude"', 'id:3 | id:"3"'];

const filterText = filtersOf(atom);

/**
 * The capture as a file upgraded to migration 13 may hold it: the summaries before `cut` (a seq)
 * written before it, as JSON, and the sessions `before` picks (a bit each) only written before it,
 * every row with the key itself and the key with no id (a key beginning with U+0001 is a
 * reference in any file of schema 13).
 */
function asWrittenBeforeMigration13(store: CaptureStore, cut: number, before: number): void {
  const set = store.db.prepare('UPDATE exchanges SET summary = ? WHERE id = ?');
  for (const r of store.db.prepare('SELECT id, summary FROM exchanges WHERE sort_key < ?').all(cut) as { id: string; summary: string }[]) set.run(store.summaryText(r.summary), r.id);
  SESSION_KEYS.forEach((key, i) => {
    if ((before & (1 << i)) === 0 || key.startsWith('\u0001')) return;
    for (const table of ['frames', 'exchanges']) store.db.prepare(`UPDATE ${table} SET session_key = ? WHERE session_key = (SELECT char(1) || id FROM session_keys WHERE key = ?)`).run(key, key);
    store.db.prepare('DELETE FROM session_keys WHERE key = ?').run(key);
  });
}

describe('the SQL of every filter', () => {
  it('keeps exactly what the dashboard\'s matcher keeps, on random captures', () => {
    fc.assert(
      fc.property(fc.array(sessionPlan, { minLength: 1, maxLength: 4 }), fc.array(callPlan, { maxLength: 40 }), fc.array(filterText, { minLength: 1, maxLength: 8 }), fc.nat(), fc.nat(), (sessions, calls, filters, cut, before) => {
        const store = new CaptureStore(':memory:');
        try {
          const pipeline = new CapturePipeline(store);
          const frames = framesOf(sessions, calls);
          for (const f of frames) pipeline.record(f);
          pipeline.flush();
          const read = () => JSON.stringify([store.exchanges(100_000), [...store.select()]]);
          const asWritten = read();
          asWrittenBeforeMigration13(store, cut % (frames.length + 2), before);
          // Either layout reads back as written.
          expect(read()).toBe(asWritten);
          const held = new Map(store.sessions().map((s) => [s.sessionKey, s]));
          const all = store.exchanges(100_000);
          for (const text of [...TRICKY, ...filters]) {
            const parsed = parseFilter(text);
            if (!parsed.ok) throw new Error(`test filter does not parse: ${text}`);
            const pushed = filterToSql(parsed.filter, store.frameColumns);
            expect(pushed?.exact, text).toBe(true);
            const inSql = new Set((store.stmt(`SELECT id FROM exchanges WHERE ${pushed!.sql}`).all(...pushed!.params) as { id: string }[]).map((r) => r.id));
            const match = compileFilter(parsed.filter);
            const kept = all.filter((ex: ExchangeSummary) => {
              const ctx: FilterContext = { bodyText: () => store.framesText(ex.frameSeqs), diagnosticCodes: store.diagnosticCodes(ex) };
              const session = held.get(ex.sessionKey);
              if (session) ctx.session = session;
              return match(ex, ctx);
            });
            expect([...inSql].sort(), text).toEqual(kept.map((ex) => ex.id).sort());
          }
        } finally {
          store.close();
        }
      }),
      { numRuns: 100 },
    );
  });
});
