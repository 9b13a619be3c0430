/**
 * A small mixed capture for filter tests, and the filter language's atoms over it: three sessions
 * of different clients and revisions, every outcome, junk, pending calls, two host conversations.
 * `expectedIds` is the oracle: every exchange in capture order kept by the matcher.
 */
import fc from 'fast-check';
import { matchesExchange, parseFilter, type ExchangeSummary, type FilterContext, type FrameInput } from '@mcpscope/protocol';
import type { CaptureStore } from '../../src/capture/capture-store.js';

/** A deterministic mixed capture: three sessions, every outcome, junk, pending calls. */
export function mixedTraffic(): FrameInput[] {
  const out: FrameInput[] = [];
  let ts = 1_000;
  const frame = (sessionKey: string, direction: 'c2s' | 's2c', body: unknown): void => {
    ts += 3 + (out.length % 7);
    out.push({ ts, sessionKey, direction, transport: 'http-json', kind: 'data', raw: typeof body === 'string' ? body : JSON.stringify(body), http: { method: 'POST', path: '/mcp', connectionId: `c${out.length}` } });
  };
  const sessions = [
    { key: 's-alpha', client: 'alpha-agent', rev: '2025-06-18' },
    { key: 's-beta', client: 'Beta Client', rev: '2025-11-25' },
    { key: 'client:ua', client: 'gamma', rev: '2025-03-26' },
  ];
  for (const s of sessions) {
    frame(s.key, 'c2s', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: s.rev, capabilities: {}, clientInfo: { name: s.client, version: '1' } } });
    frame(s.key, 's2c', { jsonrpc: '2.0', id: 0, result: { protocolVersion: s.rev, capabilities: {}, serverInfo: { name: 'srv', version: '1' } } });
    frame(s.key, 'c2s', { jsonrpc: '2.0', method: 'notifications/initialized' });
  }
  const tools = ['suggest_gifts', 'wrap_gift', 'wrapper', 'Tools'];
  for (let i = 1; i <= 60; i++) {
    const s = sessions[i % 3]!;
    const id = i % 5 === 0 ? String(i) : i;
    const tool = tools[i % tools.length]!;
    const method = i % 9 === 0 ? 'resources/read' : i % 11 === 0 ? 'tools/list' : 'tools/call';
    // ChatGPT's conversation id on the session-less client's calls: its exchanges join two conversations one by one.
    const meta = s.key === 'client:ua' ? { _meta: { 'openai/session': i % 2 ? 'conv-x' : 'conv-y' } } : {};
    frame(s.key, 'c2s', { jsonrpc: '2.0', id, method, params: method === 'resources/read' ? { uri: `gifts://${i}`, ...meta } : { name: tool, arguments: { note: i % 4 === 0 ? 'with a bow' : 'plain', pad: 'p'.repeat(i * 3) }, ...meta } });
    if (i % 13 === 0) continue; // left pending
    if (i % 6 === 0) frame(s.key, 's2c', { jsonrpc: '2.0', id, error: { code: i % 12 === 0 ? -32602 : -32601, message: 'nope' } });
    else if (i % 7 === 0) frame(s.key, 's2c', { jsonrpc: '2.0', id, result: { isError: true, content: [{ type: 'text', text: 'business failure' }] } });
    else frame(s.key, 's2c', { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `done ${i}` }] } });
    if (i % 10 === 0) frame(s.key, 'c2s', `junk ${i}`);
    if (i % 8 === 0) frame(s.key, 's2c', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hello' } });
  }
  // A tool with an outputSchema: one answer breaks it (a result hosts reject, so `status:err`), one keeps it.
  const typed = { name: 'typed_weather', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { temperature: { type: 'number' } }, required: ['temperature'] } };
  frame('s-beta', 'c2s', { jsonrpc: '2.0', id: 100, method: 'tools/list' });
  frame('s-beta', 's2c', { jsonrpc: '2.0', id: 100, result: { tools: [typed] } });
  for (const [id, temperature] of [[101, 'warm'], [102, 18]] as const) {
    frame('s-beta', 'c2s', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'typed_weather', arguments: {} } });
    frame('s-beta', 's2c', { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: String(temperature) }], structuredContent: { temperature } } });
  }
  return out;
}

export const ATOMS = [
  'method:tools/call', 'method:tools/*', 'method:*s/call', 'method:Tools/call', 'method:resources/read',
  'tool:suggest_gifts', 'tool:wrap*', 'tool:*er', 'status:ok', 'status:err', 'status:pending', 'status:protocol_error',
  'session:s-', 'session:s-beta', 'session:client:', 'session=s-', 'session=s-beta', 'session=client:ua', 'kind:notification', 'kind:invalid', 'kind:request',
  'code:-32602', 'code:-32601', 'latency>5', 'latency<6', 'latency>0.005s', 'has:diag', 'dir:c2s', 'dir:s2c',
  'id:6', 'id:"5"', 'id:0', 'client:alpha', 'client:beta', 'rev:2025-06-18', 'rev:2025-*', 'size>300', 'size<1kb',
  'bow', '"business failure"', 'diag:invalid-message', 'diag:*', 'conversation:c999',
];

/** Every conversation of the capture, known once it is stored (keys come from frame seqs). */
export const conversationAtoms: string[] = [];
const atom = fc.oneof(fc.constantFrom(...ATOMS), fc.nat().map((n) => conversationAtoms[n % conversationAtoms.length]!));
/** Fields about HTTP requests at the door: they select no exchange, alone or combined. */
export const DOOR_ATOMS = ['kind:http', 'kind:probe', 'http.method:POST', 'http.path:/mcp', 'http.path:/.well-known/*', 'http.status:404', 'http.status:4xx', 'http.status:none', 'http.status>299'];

/** Filters of the language over `atom`: atoms joined by `&` and `|`, negated, nested. */
export function filtersOf(atom: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.letrec<{ f: string }>((tie) => ({
    f: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      atom,
      fc.tuple(tie('f'), tie('f')).map(([a, b]) => `(${a} ${b})`),
      fc.tuple(tie('f'), tie('f')).map(([a, b]) => `(${a} | ${b})`),
      tie('f').map((a) => `!(${a})`),
    ),
  })).f;
}

export const filterText: fc.Arbitrary<string> = filtersOf(fc.oneof(atom, fc.constantFrom(...DOOR_ATOMS)));

/** Every exchange the matcher keeps for `text`, newest first (as CaptureStore.exchanges lists them). */
export function expectedIds(store: CaptureStore, text: string): string[] {
  const parsed = parseFilter(text);
  if (!parsed.ok) throw new Error(`test filter does not parse: ${text}`);
  const sessions = new Map(store.sessions().map((s) => [s.sessionKey, s]));
  const all = store.exchanges(100_000);
  return all
    .filter((ex: ExchangeSummary) => {
      const ctx: FilterContext = { bodyText: () => store.framesText(ex.frameSeqs), diagnosticCodes: store.diagnosticCodes(ex) };
      const session = sessions.get(ex.sessionKey);
      if (session) ctx.session = session;
      return matchesExchange(parsed.filter, ex, ctx);
    })
    .map((ex) => ex.id);
}

