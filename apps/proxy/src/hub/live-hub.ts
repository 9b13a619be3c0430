/**
 * Fans captured batches out to dashboards over WebSocket. Each client gets a catch-up from the
 * store after the seq it already has, then live deltas batched every ~50 ms. A slow client never
 * slows the tap: when its socket buffer passes a bound, it is told to resync from the API and its
 * queue is dropped; nothing is dropped without saying so.
 */
import type { WSContext } from 'hono/ws';
import type { ExchangeSummary, FrameView, ServerEvent, SessionSummary } from '@mcpscope/protocol';
import { toFrameView } from '@mcpscope/protocol';
import type { CaptureBatch, CapturePipeline } from '../capture/capture-pipeline.js';
import type { CaptureStore } from '../capture/capture-store.js';

const FLUSH_INTERVAL_MS = 50;
/** A client whose unsent bytes exceed this is told to resync instead of being queued further. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** Catch-up larger than this is not streamed: the client reloads from the API instead. */
const MAX_CATCH_UP = 20_000;

interface Client {
  ws: WSContext;
  frames: FrameView[];
  exchanges: Map<string, ExchangeSummary>;
  sessions: Map<string, SessionSummary>;
  head: number;
}

export class LiveHub {
  private readonly clients = new Set<Client>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly store: CaptureStore, pipeline: CapturePipeline) {
    pipeline.onBatch((batch) => this.enqueue(batch));
  }

  get clientCount(): number {
    return this.clients.size;
  }

  /** Registers a socket; sends `hello`, then everything after `after` (when given). */
  attach(ws: WSContext, after: number | undefined): () => void {
    const head = this.store.head();
    const client: Client = { ws, frames: [], exchanges: new Map(), sessions: new Map(), head };
    this.send(client, { type: 'hello', head });
    if (after !== undefined && after < head) {
      if (head - after > MAX_CATCH_UP) {
        this.send(client, { type: 'resync', head, reason: `${head - after} frames behind; reload from the API` });
      } else {
        // Store reads and this registration run in one synchronous block: no batch can slip between.
        const frames = this.store.framesAfter(after, MAX_CATCH_UP);
        const exchanges = this.store.exchangesUpdatedAfter(after, MAX_CATCH_UP);
        this.send(client, { type: 'sessions/update', head, sessions: this.store.sessions() });
        if (frames.length > 0) this.send(client, { type: 'frames/add', head, frames });
        if (exchanges.length > 0) this.send(client, { type: 'exchanges/update', head, exchanges });
      }
    }
    this.clients.add(client);
    return () => this.clients.delete(client);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    for (const client of this.clients) client.ws.close(1001, 'mcpscope is shutting down');
    this.clients.clear();
  }

  private enqueue(batch: CaptureBatch): void {
    if (this.clients.size === 0) return;
    const frames = batch.frames.map((f) => toFrameView(f));
    for (const client of this.clients) {
      for (const f of frames) client.frames.push(f);
      for (const ex of batch.exchanges) client.exchanges.set(ex.id, ex);
      for (const s of batch.sessions) client.sessions.set(s.sessionKey, s);
      client.head = batch.head;
    }
    this.timer ??= setInterval(() => this.flush(), FLUSH_INTERVAL_MS);
  }

  private flush(): void {
    let idle = true;
    for (const client of this.clients) {
      if (client.frames.length === 0 && client.exchanges.size === 0 && client.sessions.size === 0) continue;
      idle = false;
      const buffered = (client.ws.raw as { bufferedAmount?: number } | undefined)?.bufferedAmount ?? 0;
      if (buffered > MAX_BUFFERED_BYTES) {
        client.frames = [];
        client.exchanges.clear();
        client.sessions.clear();
        this.send(client, { type: 'resync', head: client.head, reason: 'the dashboard fell behind; reload from the API' });
        continue;
      }
      const head = client.head;
      // exchanges/update goes last: dashboards advance their resume cursor on it, so a drop
      // between two messages of one flush only ever repeats data, never skips it.
      if (client.sessions.size > 0) this.send(client, { type: 'sessions/update', head, sessions: [...client.sessions.values()] });
      if (client.frames.length > 0) this.send(client, { type: 'frames/add', head, frames: client.frames });
      if (client.exchanges.size > 0) this.send(client, { type: 'exchanges/update', head, exchanges: [...client.exchanges.values()] });
      client.frames = [];
      client.exchanges.clear();
      client.sessions.clear();
    }
    if (idle && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private send(client: Client, event: ServerEvent): void {
    try {
      client.ws.send(JSON.stringify(event));
    } catch {
      this.clients.delete(client);
    }
  }
}
