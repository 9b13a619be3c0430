/**
 * Fans captured batches out to dashboards over WebSocket.
 *
 * Protocol (per socket): `hello` with the store's head (and door `rev`), then, when the client
 * asked for `after=SEQ` (and `requestsRev=REV`), a catch-up from the store, then live deltas
 * batched every ~50 ms. Each flush sends, in this order: `capture/update` (when the capture's
 * state or marks changed: CaptureFeed), `retention` (if frames were removed),
 * `conversations/update`, `sessions/update`, `exchanges/update`, `requests/update` (door records,
 * with their `rev`), and `frames/add` LAST; all but `capture/update` carry the same `head`.
 *
 * Guarantee, for a client that resumes with `after` = the `head` of the last `frames/add` it
 * received (or of `hello`/the API page it started from):
 * - every frame after that cursor is delivered exactly once, in seq order, across any number of
 *   disconnects and reconnects (frames are immutable, so one copy is all there is);
 * - every exchange, session and conversation that changed after the cursor is delivered at least once, at a state
 *   no older than the frames delivered with it (updates are whole summaries, so re-applying one is
 *   idempotent). Because `frames/add` closes each flush, a cursor taken from it never skips an
 *   update sent before it.
 * - door records follow their own cursor, `rev` (a record changes without any frame: a 404, a
 *   preflight): every record written after the `requestsRev` a client resumes from is delivered at
 *   least once, at its latest state (whole records, idempotent by id).
 * A client that falls behind (socket buffer over the bound, or a catch-up too large) is sent
 * `resync` and closed: it reloads from the API and reconnects. A catch-up reads only what changed
 * after the client's cursors, so a reconnect costs the tap's thread what changed, never the
 * capture's size. Nothing is dropped silently, and a
 * slow client never slows the tap: sending never waits, and each flush is serialized once for all,
 * to UTF-8 bytes too, so a dashboard more costs the tap only the socket write.
 */
import type { WSContext } from 'hono/ws';
import type { CaptureMark, CaptureStatus, ConversationSummary, FrameView, ServerEvent, SessionSummary } from '@mcpscope/protocol';
import { toFrameView } from '@mcpscope/protocol';
import type { CaptureBatch, CapturePipeline } from '../capture/capture-pipeline.js';
import type { CaptureReader } from '../capture/capture-reader.js';
import { readRetentionState } from '../capture/retention.js';

export interface LiveHubOptions {
  flushIntervalMs?: number;
  /** A client whose unsent bytes exceed this is told to resync instead of being sent more. */
  maxBufferedBytes?: number;
  /**
   * A catch-up of more than this many items (frames, door records, and the exchanges, sessions and
   * conversations changed since the client's cursor) is not streamed: the client reloads from the API.
   */
  maxCatchUp?: number;
  /** The capture's state and marks, pushed when they change (none: `mcpscope open`, nothing changes). */
  capture?: CaptureFeed;
}

/** Where the hub reads the capture's state and marks, and hears that they changed. */
export interface CaptureFeed {
  status(): CaptureStatus;
  marks(): CaptureMark[];
  onStatusChange(listener: () => void): void;
  onMarksChange(listener: () => void): void;
}

/** Close code sent after `resync`: the client should reload from the API, then reconnect. */
export const RESYNC_CLOSE_CODE = 4000;

/** The `ws` socket under Hono's WSContext: sending it bytes skips a UTF-8 encoding per client. */
interface RawSocket {
  send(data: Uint8Array, options: { binary: boolean }): void;
  bufferedAmount?: number;
}

/** One serialized event: the text (for sockets without a raw `ws`) and its UTF-8 bytes. */
interface Outgoing {
  text: string;
  bytes: Uint8Array;
}

/**
 * TextEncoder rather than Buffer.from: a flush holding any non-Latin-1 character is a two-byte
 * string, which Buffer.from transcodes slowly (measured on a flush of 1,000 frames, one in ten
 * with a "≤": 3.7–4.5 µs per frame with Buffer.from, 2.7 with TextEncoder, serialization included).
 */
const utf8 = new TextEncoder();

interface Pending {
  frames: FrameView[];
  /** The latest state of each changed exchange, as the JSON text the store wrote (not serialized again). */
  exchanges: Map<string, string>;
  sessions: Map<string, SessionSummary>;
  conversations: Map<string, ConversationSummary>;
  /** Door records by id, as the JSON text the store wrote. */
  requests: Map<number, string>;
  removedFrames: number;
  oldestSeq: number;
  head: number;
  rev: number;
  /** The capture's state (and its marks) changed: read at the flush, sent once however often. */
  captureChanged: boolean;
  marksChanged: boolean;
}

const emptyPending = (head: number, rev: number): Pending => ({
  frames: [],
  exchanges: new Map(),
  sessions: new Map(),
  conversations: new Map(),
  requests: new Map(),
  removedFrames: 0,
  oldestSeq: 0,
  head,
  rev,
  captureChanged: false,
  marksChanged: false,
});

export class LiveHub {
  private readonly clients = new Set<WSContext>();
  private pending: Pending;
  private timer: NodeJS.Timeout | undefined;
  private readonly flushIntervalMs: number;
  private readonly maxBufferedBytes: number;
  private readonly maxCatchUp: number;
  private readonly capture: CaptureFeed | undefined;
  /**
   * The head of the last batch the pipeline told: where live deltas continue. The store's own head
   * can be ahead of it: the tick writer's thread commits a write before this thread hears of it,
   * and that write's frames then come as a batch, so a client that starts there would get them
   * twice.
   */
  private told: number;

  constructor(
    private readonly store: CaptureReader,
    /** Where batches come from (none ever comes from a file shown read-only). */
    pipeline: Pick<CapturePipeline, 'onBatch'>,
    options: LiveHubOptions = {},
  ) {
    this.flushIntervalMs = options.flushIntervalMs ?? 50;
    this.maxBufferedBytes = options.maxBufferedBytes ?? 8 * 1024 * 1024;
    this.maxCatchUp = options.maxCatchUp ?? 20_000;
    this.told = store.head();
    this.pending = emptyPending(this.told, store.door.heads().rev);
    pipeline.onBatch((batch) => this.enqueue(batch));
    this.capture = options.capture;
    this.capture?.onStatusChange(() => this.captureChanged(false));
    this.capture?.onMarksChange(() => this.captureChanged(true));
  }

  get clientCount(): number {
    return this.clients.size;
  }

  /**
   * Registers a socket; sends `hello`, then everything after `after` (frames) and after
   * `requestsRev` (door records), for each cursor given.
   */
  attach(ws: WSContext, after: number | undefined, requestsRev?: number): () => void {
    // Deliver what is queued to the clients already here, so the queue is empty and the store's
    // head is exactly where this client's live deltas will start: no gap, no overlap.
    this.flush();
    const head = this.told;
    const rev = this.store.door.heads().rev;
    this.sendTo(ws, outgoing({ type: 'hello', head, rev }));
    const behind = (after !== undefined && after < head ? head - after : 0) + (requestsRev !== undefined && requestsRev < rev ? rev - requestsRev : 0);
    if (behind > this.maxCatchUp) {
      this.resync(ws, head, `${behind} frames and requests behind; reload from the API`);
      return () => {};
    }
    if (behind > 0 && !this.catchUp(ws, after, requestsRev, head, rev, behind)) return () => {};
    this.clients.add(ws);
    return () => this.clients.delete(ws);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const ws of this.clients) ws.close(1001, 'mcpscope is shutting down');
    this.clients.clear();
  }

  /** Sends everything queued to every client now (also runs every flush interval). */
  flush(): void {
    const p = this.pending;
    const idle = p.frames.length === 0 && p.exchanges.size === 0 && p.sessions.size === 0 && p.conversations.size === 0 && p.requests.size === 0 && p.removedFrames === 0 && !p.captureChanged;
    if (idle) {
      if (this.timer) clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    this.pending = emptyPending(p.head, p.rev);
    if (this.clients.size === 0) return;
    const messages = deltaMessages(p);
    if (p.captureChanged && this.capture) {
      const capture: ServerEvent = { type: 'capture/update', status: this.capture.status(), ...(p.marksChanged ? { marks: this.capture.marks() } : {}) };
      messages.unshift(outgoing(capture));
    }
    for (const ws of [...this.clients]) {
      const buffered = (ws.raw as Partial<RawSocket> | undefined)?.bufferedAmount ?? 0;
      if (buffered > this.maxBufferedBytes) {
        this.clients.delete(ws);
        this.resync(ws, p.head, 'the dashboard fell behind; reload from the API');
        continue;
      }
      for (const m of messages) if (!this.sendTo(ws, m)) break;
    }
  }

  /**
   * Sends what changed after the client's cursors, or `resync` when that is more than
   * `maxCatchUp` items: `behind` frames and door records, and the rows changed since (exchanges and
   * conversations by the seq that last changed them, sessions through the frames after `after`).
   * Each read of rows stops one past what is left of the bound, and frames are read only once
   * the rows fit, so a catch-up costs what changed, never the capture's size. False when the
   * client was told to resync.
   */
  private catchUp(ws: WSContext, after: number | undefined, requestsRev: number | undefined, head: number, rev: number, behind: number): boolean {
    const p = emptyPending(head, rev);
    let left = this.maxCatchUp - behind;
    const fits = (rows: number) => (left -= rows) >= 0;
    if (after !== undefined && after < head) {
      for (const s of this.store.sessionsOfFramesIn(after, head, left + 1)) p.sessions.set(s.sessionKey, s);
      if (!fits(p.sessions.size)) return this.tooFar(ws, head);
      for (const conv of this.store.conversationsChangedAfter(after, left + 1)) p.conversations.set(conv.key, conv);
      if (!fits(p.conversations.size)) return this.tooFar(ws, head);
      for (const row of this.store.exchangesUpdatedAfter(after, left + 1)) p.exchanges.set(row.id, row.summary);
      if (!fits(p.exchanges.size)) return this.tooFar(ws, head);
      const retention = readRetentionState(this.store);
      // Frames the client never saw were removed by retention: say so before sending what is left.
      if (retention.oldestSeq > after + 1) {
        p.removedFrames = retention.removedFrames;
        p.oldestSeq = retention.oldestSeq;
      }
      // Not past `head`: later frames come live, with their batch.
      p.frames = this.store.framesAfter(after, this.maxCatchUp).filter((f) => f.seq <= head);
    }
    if (requestsRev !== undefined && requestsRev < rev) {
      this.store.door.updatedAfter(requestsRev, this.maxCatchUp).forEach((json, i) => p.requests.set(i, json));
    }
    for (const m of deltaMessages(p)) if (!this.sendTo(ws, m)) break;
    return true;
  }

  /** A catch-up past the bound: the client reloads from the API (always false, for `catchUp`). */
  private tooFar(ws: WSContext, head: number): false {
    this.resync(ws, head, `more than ${this.maxCatchUp} frames, requests and changed rows behind; reload from the API`);
    return false;
  }

  private enqueue(batch: CaptureBatch): void {
    this.told = batch.head;
    if (this.clients.size === 0) {
      // Nobody to tell: a client that attaches later catches up from the store.
      this.pending = emptyPending(batch.head, batch.requestsRev);
      return;
    }
    const p = this.pending;
    for (const f of batch.frames) p.frames.push(toFrameView(f));
    batch.exchangeIds.forEach((id, i) => p.exchanges.set(id, batch.exchangeJson[i]!));
    for (const s of batch.sessions) p.sessions.set(s.sessionKey, s);
    for (const conv of batch.conversations) p.conversations.set(conv.key, conv);
    for (const r of batch.requests) p.requests.set(r.id, r.json);
    p.rev = batch.requestsRev;
    if (batch.retention) {
      p.removedFrames += batch.retention.removedFrames;
      p.oldestSeq = batch.retention.oldestSeq;
    }
    p.head = batch.head;
    this.flushSoon();
  }

  /** The capture's state changed (a pause, a full disk, each frame not stored while paused): told at the next flush. */
  private captureChanged(marks: boolean): void {
    if (this.clients.size === 0) return;
    this.pending.captureChanged = true;
    if (marks) this.pending.marksChanged = true;
    this.flushSoon();
  }

  private flushSoon(): void {
    if (!this.timer) {
      this.timer = setInterval(() => this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  private resync(ws: WSContext, head: number, reason: string): void {
    this.sendTo(ws, outgoing({ type: 'resync', head, reason }));
    ws.close(RESYNC_CLOSE_CODE, 'resync');
  }

  /** Sends without waiting; a socket that throws is gone and is dropped. */
  private sendTo(ws: WSContext, message: Outgoing): boolean {
    try {
      const raw = ws.raw as Partial<RawSocket> | undefined;
      // The same bytes for every dashboard, as a text frame (browsers read JSON from text).
      if (typeof raw?.send === 'function') raw.send(message.bytes, { binary: false });
      else ws.send(message.text);
      return true;
    } catch {
      this.clients.delete(ws);
      return false;
    }
  }
}

function outgoing(event: ServerEvent): Outgoing {
  const text = JSON.stringify(event);
  return { text, bytes: utf8.encode(text) };
}

/** One flush as serialized messages, frames/add last (see the guarantee above). */
function deltaMessages(p: Pending): Outgoing[] {
  const out: Outgoing[] = [];
  const head = p.head;
  const event = (e: ServerEvent) => out.push(outgoing(e));
  if (p.removedFrames > 0) event({ type: 'retention', head, removedFrames: p.removedFrames, oldestSeq: p.oldestSeq });
  if (p.conversations.size > 0) event({ type: 'conversations/update', head, conversations: [...p.conversations.values()] });
  if (p.sessions.size > 0) event({ type: 'sessions/update', head, sessions: [...p.sessions.values()] });
  if (p.exchanges.size > 0) {
    // The ServerEvent `{ type: 'exchanges/update', head, exchanges }`, spliced from stored JSON.
    const text = `{"type":"exchanges/update","head":${JSON.stringify(head)},"exchanges":[${[...p.exchanges.values()].join(',')}]}`;
    out.push({ text, bytes: utf8.encode(text) });
  }
  if (p.requests.size > 0) {
    // The ServerEvent `{ type: 'requests/update', head, rev, requests }`, spliced from stored JSON.
    const text = `{"type":"requests/update","head":${JSON.stringify(head)},"rev":${JSON.stringify(p.rev)},"requests":[${[...p.requests.values()].join(',')}]}`;
    out.push({ text, bytes: utf8.encode(text) });
  }
  if (p.frames.length > 0) event({ type: 'frames/add', head, frames: p.frames });
  return out;
}
