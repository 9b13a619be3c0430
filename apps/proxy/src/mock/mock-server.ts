/**
 * `mcpscope mock`: a capture served back as an MCP server over Streamable HTTP, at the paths the
 * captured client posted to. Both eras:
 * - legacy (≤2025-11-25): `initialize` opens a session, with a minted `Mcp-Session-Id` when the
 *   captured server minted one; later requests must carry it (404 once it is gone, 400 without
 *   one, as the SDK server answers); DELETE ends it; GET opens the session's standalone stream
 *   (one at a time: 409 for a second, as the SDK server answers).
 * - 2026-07-28 (a request whose `_meta` names the revision): stateless; every request stands
 *   alone, answered with the HTTP status and body the capture holds (404 + -32601 included).
 * - HTTP+SSE (a capture of the 2024-11-05 transport): GET on the captured stream path opens a
 *   session and names its post endpoint in an `endpoint` event; posts are accepted with 202 and
 *   every answer goes out on that stream.
 * Every request gets an answer: the captured one (matcher.ts's rules), `{}` for an uncaptured
 * `ping`, or a JSON-RPC error that names what was asked and the nearest captured calls. What the
 * server sent on its own goes on the session's stream after its trigger (mock-pushes.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CassetteMatcher,
  classifyText,
  describeCall,
  isJsonObject,
  type Cassette,
  type CassetteSession,
  type JsonObject,
  type MatchMode,
  type Message,
} from '@mcpscope/protocol';
import { MockSessions, type MockSession } from './mock-sessions.js';
import { playCall, responseChannel, sessionChannel, SSE_HEADERS, sseStream, type AnswerChannel } from './mock-playback.js';
import { PushIndex, PushPlayer, subscriptionUri } from './mock-pushes.js';

export interface MockOptions {
  cassette: Cassette;
  mode?: MatchMode;
  /** Timing: 1 as captured, N times faster, 0 at once. */
  speed?: number;
  replyTimeoutMs?: number;
  /** One line per request answered (or not): for the terminal. */
  log?(line: string): void;
}

export interface MockHandler {
  /** The paths clients start at: the captured HTTP+SSE stream paths, then the Streamable HTTP endpoint (`/mcp` when the capture names none). */
  paths: string[];
  handle(req: IncomingMessage, res: ServerResponse, cors: Record<string, string> | undefined): void;
  close(): void;
}

const MODERN_VERSION_META = 'io.modelcontextprotocol/protocolVersion';
const CLIENT_INFO_META = 'io.modelcontextprotocol/clientInfo';
const MAX_BODY = 64 * 1024 * 1024;

export function createMock(options: MockOptions): MockHandler {
  const { cassette } = options;
  const matcher = new CassetteMatcher(cassette, options.mode ?? 'strict');
  const sessions = new MockSessions(matcher);
  const captured = new Map<string, CassetteSession>(cassette.sessions.map((s) => [s.sessionKey, s]));
  const { streamPaths, postPaths } = cassette.legacySse;
  const streamable = cassette.paths.filter((p) => !postPaths.includes(p));
  const paths = [...streamPaths, ...(streamable.length > 0 || streamPaths.length === 0 ? (streamable.length > 0 ? streamable : ['/mcp']) : [])];
  const speed = options.speed ?? 1;
  const replyTimeoutMs = options.replyTimeoutMs ?? 60_000;
  const log = options.log ?? (() => {});
  const pushes = new PushIndex(cassette);
  const players = new WeakMap<MockSession, PushPlayer>();
  const playerOf = (session: MockSession) => {
    let player = players.get(session);
    if (!player) players.set(session, (player = new PushPlayer(pushes, session, { speed, replyTimeoutMs, log })));
    return player;
  };

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }).end(text);
  };
  const rpcError = (res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}) => json(res, status, { jsonrpc: '2.0', id: null, error: { code, message } }, headers);

  /** The session a request belongs to, or an HTTP answer saying why it has none. */
  function sessionFor(req: IncomingMessage, message: Extract<Message, { kind: 'request' }>, res: ServerResponse, cors: Record<string, string>): { session: MockSession; headers: Record<string, string> } | undefined {
    const meta = isJsonObject(message.params?._meta) ? message.params._meta : undefined;
    if (meta && typeof meta[MODERN_VERSION_META] === 'string') {
      const info = isJsonObject(meta[CLIENT_INFO_META]) ? JSON.stringify(meta[CLIENT_INFO_META]) : '';
      return { session: sessions.sessionless(`${req.headers['user-agent'] ?? ''} ${info}`), headers: cors };
    }
    const id = header(req, 'mcp-session-id');
    if (message.method === 'initialize') {
      const match = matcher.candidates('initialize', message.params)[0];
      const session = sessions.open(match ? (captured.get(match.sessionKey)?.statefulServer ?? false) : false);
      return { session, headers: session.id !== undefined ? { ...cors, 'mcp-session-id': session.id } : cors };
    }
    if (id !== undefined) {
      const session = sessions.get(id);
      if (session) return { session, headers: cors };
      rpcError(res, 404, -32001, 'Session not found', cors);
      return undefined;
    }
    const stateful = cassette.sessions.some((s) => s.statefulServer);
    if (stateful) {
      rpcError(res, 400, -32000, 'Bad Request: No valid session ID provided', cors);
      return undefined;
    }
    return { session: sessions.sessionless(req.headers['user-agent'] ?? ''), headers: cors };
  }

  async function request(req: IncomingMessage, res: ServerResponse, message: Extract<Message, { kind: 'request' }>, cors: Record<string, string>): Promise<void> {
    const found = sessionFor(req, message, res, cors);
    if (!found) return;
    await answer(found.session, message, responseChannel(res, found.session, found.headers));
  }

  /** Answers one live request on `channel`, firing what the captured server sent on its own after it. */
  async function answer(session: MockSession, message: Extract<Message, { kind: 'request' }>, channel: AnswerChannel): Promise<void> {
    const arrived = performance.now();
    const matched = session.cursor.match(message.method, message.params);
    if (!matched.ok) {
      if (message.method === 'ping') return channel.json(200, { jsonrpc: '2.0', id: message.id, result: {} });
      log(`✗ ${message.method}${matched.error.data.nearest.length ? `: no match; nearest exchange ${matched.error.data.nearest[0]!.exchangeId}` : ': never captured'}`);
      return channel.json(200, { jsonrpc: '2.0', id: message.id, error: matched.error as unknown as JsonObject });
    }
    log(`→ ${describeCall({ method: message.method, target: matched.call.target, id: message.id })} answered from exchange ${matched.call.exchangeId}`);
    const player = playerOf(session);
    player.called(matched.call.exchangeId, arrived);
    await playCall(matched.call, { id: message.id, ...(message.params ? { params: message.params } : {}) }, session, channel, { speed, replyTimeoutMs });
    const uri = subscriptionUri(message.params);
    if (uri !== undefined && message.method === 'resources/subscribe') player.subscribedTo(uri);
    if (uri !== undefined && message.method === 'resources/unsubscribe') player.unsubscribedFrom(uri);
  }

  function post(req: IncomingMessage, res: ServerResponse, text: string, cors: Record<string, string>): void {
    const message = classifyText(text);
    if (message.kind === 'invalid') return rpcError(res, 400, -32700, `Parse error: ${message.reason}`, cors);
    if (message.kind === 'batch') return void batch(req, res, message.items, cors);
    if (message.kind === 'request') return void request(req, res, message, cors).catch((err: unknown) => fail(res, err));
    const id = header(req, 'mcp-session-id');
    const owner = id !== undefined ? sessions.get(id) : undefined;
    if (owner) accepted(owner, message, JSON.parse(text) as JsonObject);
    else if ((message.kind === 'response' || message.kind === 'error') && message.id !== null) {
      const reply = JSON.parse(text) as JsonObject; // classifyText has parsed it as a response: an object
      if (![...sessions.all()].some((s) => s.reply(message.id!, reply))) log(`· a reply to server request ${JSON.stringify(message.id)} that nothing waits for`);
    }
    // Notifications and replies are accepted with no body, as the SDK server does.
    res.writeHead(202, cors).end();
  }

  /** A client notification (a trigger) or a reply to a server request, on a known session. */
  function accepted(session: MockSession, message: Message, value: JsonObject): void {
    if (message.kind === 'notification') return playerOf(session).notifiedOf(message.method, performance.now());
    if ((message.kind === 'response' || message.kind === 'error') && message.id !== null && !session.reply(message.id, value)) log(`· a reply to server request ${JSON.stringify(message.id)} that nothing waits for`);
  }

  /** GET on the Streamable HTTP endpoint: the session's standalone stream. */
  function standalone(req: IncomingMessage, res: ServerResponse, cors: Record<string, string>): void {
    const id = header(req, 'mcp-session-id');
    const session = id !== undefined ? sessions.get(id) : undefined;
    if (id === undefined) {
      // A server that mints no session has no stream to offer (405 is what such a server answers).
      if (!cassette.sessions.some((s) => s.statefulServer)) return void res.writeHead(405, { ...cors, allow: 'POST, DELETE' }).end();
      return rpcError(res, 400, -32000, 'Bad Request: No valid session ID provided', cors);
    }
    if (!session) return rpcError(res, 404, -32001, 'Session not found', cors);
    openStream(res, session, { ...cors, 'mcp-session-id': id }, () => rpcError(res, 409, -32000, 'Conflict: Only one SSE stream is allowed per session', cors));
  }

  /** Opens an SSE response as the session's own stream; `busy` answers when one is open already. */
  function openStream(res: ServerResponse, session: MockSession, headers: Record<string, string>, busy: () => void, first?: string): void {
    if (session.streamOpen) return busy();
    const stream = sseStream(res);
    const cut = { destroy: () => res.destroy() };
    res.writeHead(200, { ...headers, ...SSE_HEADERS });
    if (first !== undefined) res.write(first);
    res.flushHeaders();
    session.streams.add(cut);
    session.attach(stream);
    res.once('close', () => {
      session.streams.delete(cut);
      session.detach(stream);
      if (session.legacy && session.id !== undefined) sessions.end(session.id);
    });
  }

  /** HTTP+SSE: GET on the captured stream path opens a session and tells the client where to post. */
  function legacyStream(res: ServerResponse, cors: Record<string, string>): void {
    const session = sessions.openLegacy();
    openStream(res, session, cors, () => res.destroy(), `event: endpoint\ndata: ${postPaths[0] ?? '/message'}?sessionId=${session.id!}\n\n`);
  }

  /** HTTP+SSE: a post names its session in the query; it is accepted at once, answered on the stream. */
  function legacyPost(req: IncomingMessage, res: ServerResponse, text: string, cors: Record<string, string>): void {
    const id = new URL(req.url ?? '/', 'http://mock').searchParams.get('sessionId');
    const session = id !== null ? sessions.get(id) : undefined;
    if (!session?.legacy) return json(res, 404, { error: `mcpscope mock: no HTTP+SSE session ${JSON.stringify(id)} (open one with GET ${streamPaths[0]})` }, cors);
    const message = classifyText(text);
    if (message.kind === 'invalid') return rpcError(res, 400, -32700, `Parse error: ${message.reason}`, cors);
    res.writeHead(202, cors).end('Accepted');
    const parsed = JSON.parse(text) as JsonObject | JsonObject[]; // classifyText has parsed it: an object or an array of them
    const singles = message.kind === 'batch' ? message.items.map((item, i) => [item, (parsed as JsonObject[])[i]!] as const) : [[message, parsed as JsonObject] as const];
    for (const [item, value] of singles) {
      if (item.kind === 'request') void answer(session, item, sessionChannel(session, log)).catch((err: unknown) => log(`! ${(err as Error).message}`));
      else accepted(session, item, value);
    }
  }

  /** 2025-03-26 batches: every request of the array answered in one JSON array (no streaming). */
  async function batch(req: IncomingMessage, res: ServerResponse, items: Message[], cors: Record<string, string>): Promise<void> {
    const answers: unknown[] = [];
    for (const item of items) {
      if (item.kind !== 'request') continue;
      const found = sessionFor(req, item, res, cors);
      if (!found) return;
      const matched = found.session.cursor.match(item.method, item.params);
      if (matched.ok && matched.call.answer) answers.push({ ...matched.call.answer, id: item.id });
      else if (item.method === 'ping') answers.push({ jsonrpc: '2.0', id: item.id, result: {} });
      else answers.push({ jsonrpc: '2.0', id: item.id, error: matched.ok ? { code: -32000, message: 'mcpscope mock: the capture recorded a transport failure here' } : matched.error });
    }
    if (answers.length === 0) return void res.writeHead(202, cors).end();
    json(res, 200, answers, cors);
  }

  function fail(res: ServerResponse, err: unknown): void {
    log(`! ${(err as Error).message}`);
    if (!res.headersSent) rpcError(res, 500, -32603, `mcpscope mock failed: ${(err as Error).message}`);
    else res.destroy();
  }

  return {
    paths,
    close: () => sessions.closeAll(),
    handle(req, res, cors = {}) {
      const path = (req.url ?? '/').replace(/\?.*$/, '');
      if (req.method === 'GET' && streamPaths.includes(path)) return legacyStream(res, cors);
      if (req.method === 'POST' && postPaths.includes(path) && !streamable.includes(path)) return body(req, res, cors, (text) => legacyPost(req, res, text, cors));
      if (!paths.includes(path)) {
        return json(res, 404, { error: `mcpscope mock serves the captured MCP endpoint at ${paths.join(', ')}; ${req.method} ${path} was not captured` }, cors);
      }
      if (req.method === 'POST') return body(req, res, cors, (text) => post(req, res, text, cors));
      if (req.method === 'DELETE') {
        const id = header(req, 'mcp-session-id');
        if (id !== undefined && sessions.end(id)) return void res.writeHead(200, cors).end();
        return rpcError(res, 404, -32001, 'Session not found', cors);
      }
      if (req.method === 'GET') return standalone(req, res, cors);
      res.writeHead(405, { ...cors, allow: 'GET, POST, DELETE' }).end();
    },
  };

  /** Reads a POST body (bounded) and hands it on as text. */
  function body(req: IncomingMessage, res: ServerResponse, cors: Record<string, string>, then: (text: string) => void): void {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => (size > MAX_BODY ? rpcError(res, 413, -32600, 'Request body too large', cors) : then(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', () => {});
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
