/**
 * A large capture file built through the real capture pipeline (derive + SQLite on the engine's
 * worker), shaped like a load test against a staging server: `tools/call` over 40 sessions, each
 * opened with initialize and tools/list; bodies of about 200–800 bytes; answers that are ok
 * (most), a -32602 error (1 in 10), `isError: true` (1 in 20) or never come (1 in 50); one door
 * record per POST. The frames' `http` and the door records carry the headers the tap recorded for
 * the official SDK client (`@modelcontextprotocol/sdk` 1.32 Streamable HTTP) against
 * server-everything (Express), read from a real capture: the same names and values, the session
 * id, the content length and the date varying per request.
 */
import type { DoorRecord, FrameInput } from '@mcpscope/protocol';

export const SESSIONS = 40;
const TOOLS = ['suggest_gifts', 'wrap_gift', 'search_docs', 'get_weather', 'create_issue', 'list_files', 'run_query', 'send_email'];
const WORDS = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore'.split(' ');

/** Where generated traffic goes: the pipeline's record port and door sink. */
export interface TrafficSink {
  record(frame: FrameInput): number;
  nextDoorId(): number;
  doorChanged(record: DoorRecord): void;
  flush(): void;
}

const sessionId = (s: number) => `${s.toString(16).padStart(8, '0')}-022c-450c-bcce-c28d3f513d93`;

function words(n: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[(seed * 7 + i * 13) % WORDS.length]!);
  return out.join(' ');
}

function requestHeaders(session: string, length: number): Record<string, string> {
  return {
    host: '127.0.0.1:34863',
    connection: 'keep-alive',
    'mcp-session-id': session,
    'mcp-protocol-version': '2025-11-25',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'accept-language': '*',
    'sec-fetch-mode': 'cors',
    'user-agent': 'node',
    'accept-encoding': 'gzip, deflate',
    'content-length': String(length),
  };
}

function responseHeaders(session: string, ts: number, length: number): Record<string, string> {
  return {
    'x-powered-by': 'Express',
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'mcp-session-id,last-event-id,mcp-protocol-version',
    'content-type': 'application/json',
    'mcp-session-id': session,
    date: new Date(ts).toUTCString(),
    'content-length': String(length),
  };
}

/**
 * One POST through the tap: its request frame, its answer frame and its door record. No answer:
 * a notification (202), or a call the client gave up on (`never`: no status, the client left).
 */
function post(sink: TrafficSink, state: { ts: number; connection: number }, session: string, request: unknown, answer: unknown | undefined, never = false): void {
  const ts = (state.ts += 3);
  const requestId = sink.nextDoorId();
  const connectionId = `h${++state.connection}`;
  const raw = JSON.stringify(request);
  const reqHeaders = requestHeaders(session, Buffer.byteLength(raw));
  const seqs = [sink.record({ ts, sessionKey: session, direction: 'c2s', transport: 'http-json', kind: 'data', raw, http: { method: 'POST', path: '/mcp', connectionId, requestId, requestHeaders: reqHeaders } })];
  const record: DoorRecord = {
    id: requestId,
    rev: 0,
    ts,
    method: 'POST',
    path: '/mcp',
    answer: 'upstream',
    end: never ? 'client-gone' : 'complete',
    requestHeaders: reqHeaders,
    responseHeaders: {},
    requestBytes: Buffer.byteLength(raw),
    responseBytes: 0,
    peer: { address: '127.0.0.1', connection: state.connection, port: 38000 + (state.connection % 20000) },
    host: '127.0.0.1:34863',
    userAgent: 'node',
    mcp: true,
    mcpSessionId: session,
    sessionKey: session,
    endMs: never ? 30_000 : 2.1,
  };
  if (!never) Object.assign(record, { status: answer === undefined ? 202 : 200, firstByteMs: 1.5 });
  if (answer !== undefined) {
    const text = JSON.stringify(answer);
    const resHeaders = responseHeaders(session, ts, Buffer.byteLength(text));
    record.responseHeaders = resHeaders;
    record.responseBytes = Buffer.byteLength(text);
    seqs.push(sink.record({ ts: ts + 2, sessionKey: session, direction: 's2c', transport: 'http-json', kind: 'data', raw: text, http: { method: 'POST', path: '/mcp', status: 200, responseHeaders: resHeaders, connectionId, requestId } }));
  }
  record.frameSeqs = seqs;
  record.frameCount = seqs.length;
  sink.doorChanged(record);
}

/** The session of the `c`-th conversation of its own (`recordTraffic`'s `conversations`). */
export const chatSessionId = (c: number) => `${c.toString(16).padStart(8, '0')}-0c0c-450c-bcce-c28d3f513d93`;

/**
 * `exchanges` tools/call exchanges (plus each session's opening), recorded and flushed. Returns
 * the tools/call count. `sessions` (SESSIONS unless given) spreads the calls over that many
 * sessions, each opened with three door records: tens of thousands make a host's churn.
 * `conversations` sessions come first, older than the others, each opened (one initialize, one
 * door record) by a client of its own (`chat-N`): a conversation each, as a host that starts a
 * conversation per chat makes them.
 */
export function recordTraffic(sink: TrafficSink, exchanges: number, sessions = SESSIONS, conversations = 0): number {
  const state = { ts: 1_750_000_000_000, connection: 0 };
  for (let c = 0; c < conversations; c++) {
    const clientInfo = { name: `chat-${c}`, version: '1.0.0' };
    post(sink, state, chatSessionId(c), { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo } }, {
      jsonrpc: '2.0',
      id: 0,
      result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'staging', version: '3.2.1' } },
    });
    if (c % 256 === 255) sink.flush();
  }
  for (let s = 0; s < sessions; s++) {
    const session = sessionId(s);
    post(sink, state, session, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'load-test', version: '1.0.0' } } }, {
      jsonrpc: '2.0',
      id: 0,
      result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'staging', version: '3.2.1' } },
    });
    post(sink, state, session, { jsonrpc: '2.0', method: 'notifications/initialized' }, undefined);
    post(sink, state, session, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, {
      jsonrpc: '2.0',
      id: 1,
      result: { tools: TOOLS.map((name) => ({ name, description: `The ${name} tool.`, inputSchema: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'number' } } } })) },
    });
    if (s % 256 === 255) sink.flush();
  }
  for (let i = 0; i < exchanges; i++) {
    const s = i % sessions;
    const id = 2 + Math.floor(i / sessions);
    const tool = TOOLS[i % TOOLS.length]!;
    // Arguments of 20–140 words: a request body of about 200–900 bytes.
    const request = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: { query: words(20 + (i % 7) * 20, i), limit: i % 50 } } };
    let answer: unknown;
    if (i % 50 === 49) answer = undefined;
    else if (i % 10 === 3) answer = { jsonrpc: '2.0', id, error: { code: -32602, message: `Invalid arguments for tool ${tool}: limit must be at most 40` } };
    else answer = { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: words(30 + (i % 5) * 25, i + 1) }], isError: i % 20 === 7 } };
    post(sink, state, sessionId(s), request, answer, answer === undefined);
    if (i % 256 === 255) sink.flush();
  }
  sink.flush();
  return exchanges;
}
