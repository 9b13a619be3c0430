/**
 * The mock's sessions. A legacy-era client that initializes gets a session (with a minted
 * `Mcp-Session-Id` when the captured server minted one), and each session walks the captured
 * answers with its own cursor, so a second client run gets the same answers as the first.
 * Stateless traffic (2026-07-28, or a captured server that minted no id) shares one cursor per
 * client identity. Server→client requests the mock sends wait here for the client's reply.
 *
 * A session's own stream carries what the server says outside any call's answer: the standalone
 * GET stream (Streamable HTTP) or the HTTP+SSE stream. At most one is attached at a time;
 * messages pushed while none is open wait (in order, bounded) for the next one, so a push that
 * follows `notifications/initialized` at once still reaches a client that opens its GET stream
 * right after sending it.
 */
import { randomUUID } from 'node:crypto';
import { idKey, type CassetteMatcher, type JsonObject, type JsonRpcId, type MatchCursor } from '@mcpscope/protocol';

/** Where a session's own messages go: an open SSE response. */
export interface SessionStream {
  send(message: JsonObject): void;
}

const MAX_WAITING_PUSHES = 1_000;

export class MockSession {
  readonly cursor: MatchCursor;
  /** Aborts when the session ends (DELETE, its HTTP+SSE stream closed, the mock stopped). */
  private readonly ending = new AbortController();
  private stream: SessionStream | undefined;
  private readonly unsent: JsonObject[] = [];
  /** Server requests sent on this session's streams, waiting for the client's reply. */
  private readonly waiting = new Map<string, (reply: JsonObject) => void>();
  private nextId = 0;
  /** Open answer streams, cut when the session ends. */
  readonly streams = new Set<{ destroy(): void }>();

  constructor(
    matcher: CassetteMatcher,
    /** The minted `Mcp-Session-Id` (the `sessionId` of an HTTP+SSE endpoint); undefined for a sessionless cursor. */
    readonly id: string | undefined,
    /** An HTTP+SSE session: every answer travels on its stream. */
    readonly legacy = false,
  ) {
    this.cursor = matcher.session();
  }

  /** An id for a server→client request, unique in this session (the captured one may be reused by now). */
  serverRequestId(): JsonRpcId {
    return ++this.nextId;
  }

  /** Resolves with the client's reply to server request `id` (a JSON-RPC response or error). */
  awaitReply(id: JsonRpcId, signal: AbortSignal): Promise<JsonObject | undefined> {
    return new Promise((resolve) => {
      const key = idKey(id);
      const done = (reply: JsonObject | undefined) => {
        this.waiting.delete(key);
        signal.removeEventListener('abort', onAbort);
        resolve(reply);
      };
      const onAbort = () => done(undefined);
      this.waiting.set(key, done);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** A client reply arrived; true when a server request was waiting for it. */
  reply(id: JsonRpcId, message: JsonObject): boolean {
    const waiter = this.waiting.get(idKey(id));
    if (!waiter) return false;
    waiter(message);
    return true;
  }

  get ended(): AbortSignal {
    return this.ending.signal;
  }

  get streamOpen(): boolean {
    return this.stream !== undefined;
  }

  /** Attaches the session's own stream; false when one is open already. */
  attach(stream: SessionStream): boolean {
    if (this.stream) return false;
    this.stream = stream;
    for (const message of this.unsent.splice(0)) stream.send(message);
    return true;
  }

  detach(stream: SessionStream): void {
    if (this.stream === stream) this.stream = undefined;
  }

  /** Sends on the session's own stream, or keeps it for the next one (the oldest dropped past the bound). */
  push(message: JsonObject): void {
    if (this.ending.signal.aborted) return;
    if (this.stream) return this.stream.send(message);
    this.unsent.push(message);
    if (this.unsent.length > MAX_WAITING_PUSHES) this.unsent.shift();
  }

  end(): void {
    this.ending.abort();
    for (const s of this.streams) s.destroy();
    this.streams.clear();
    this.stream = undefined;
    this.unsent.length = 0;
  }
}

export class MockSessions {
  private readonly byId = new Map<string, MockSession>();
  private readonly stateless = new Map<string, MockSession>();

  constructor(private readonly matcher: CassetteMatcher) {}

  /** A new session for an `initialize`; `minted` when the captured server gave out session ids. */
  open(minted: boolean): MockSession {
    const session = new MockSession(this.matcher, minted ? randomUUID() : undefined);
    if (session.id !== undefined) this.byId.set(session.id, session);
    return session;
  }

  /** A new HTTP+SSE session (its id goes into the endpoint the client posts to). */
  openLegacy(): MockSession {
    const session = new MockSession(this.matcher, randomUUID(), true);
    this.byId.set(session.id!, session);
    return session;
  }

  get(id: string): MockSession | undefined {
    return this.byId.get(id);
  }

  /** The shared cursor of a client that has no session (by its identity). */
  sessionless(client: string): MockSession {
    let s = this.stateless.get(client);
    if (!s) this.stateless.set(client, (s = new MockSession(this.matcher, undefined)));
    return s;
  }

  end(id: string): boolean {
    const s = this.byId.get(id);
    if (!s) return false;
    s.end();
    this.byId.delete(id);
    return true;
  }

  /** Every session that could be waiting for a reply with no session id to route it by. */
  *all(): Iterable<MockSession> {
    yield* this.byId.values();
    yield* this.stateless.values();
  }

  closeAll(): void {
    for (const s of this.all()) s.end();
    this.byId.clear();
    this.stateless.clear();
  }
}
