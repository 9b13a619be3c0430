// The live stream loses nothing. Property: under any schedule of traffic bursts and abrupt
// disconnects (at any message, mid-flush included), several real WebSocket dashboards that resume
// with `after=<head of the last frames/add>` (and reload from the API when told to resync) end up
// with every frame exactly once, in seq order, and every exchange at its final state.
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import WebSocket from 'ws';
import type { ExchangeSummary, ExchangesPage, FrameInput, FramesPage, ServerEvent } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { RESYNC_CLOSE_CODE } from '../src/hub/live-hub.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { tempDbFile } from './store-helpers.js';

let app: Mcpscope | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A dashboard as the web app behaves: cursor from frames/add, idempotent exchange map. */
class Dashboard {
  seqs: number[] = [];
  exchanges = new Map<string, ExchangeSummary>();
  cursor = 0;
  resyncs = 0;
  reconnects = 0;
  /** Messages that came as binary frames: a browser would get a Blob it cannot parse as JSON. */
  binaryMessages = 0;
  private ws: WebSocket | undefined;
  private dropAfter: number | undefined;
  private received = 0;
  private closed = false;

  constructor(private readonly mcpscope: Mcpscope) {}

  /** Connects from the cursor; the socket will die abruptly after `dropAfter` messages. */
  connect(dropAfter?: number): Promise<void> {
    this.dropAfter = dropAfter;
    this.received = 0;
    this.closed = false;
    const url = `${this.mcpscope.dashboardUrl.replace('http', 'ws')}/ws?after=${this.cursor}`;
    const ws = new WebSocket(url, ['mcpscope', `mcpscope.token.${this.mcpscope.token}`]);
    this.ws = ws;
    ws.on('message', (data, isBinary) => {
      if (isBinary) this.binaryMessages++;
      this.onMessage(ws, JSON.parse(String(data)) as ServerEvent);
    });
    ws.on('close', () => {
      if (this.ws === ws) this.closed = true;
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
  }

  get alive(): boolean {
    return this.ws !== undefined && !this.closed;
  }

  drop(): void {
    const ws = this.ws;
    this.ws = undefined;
    this.closed = true;
    ws?.terminate();
  }

  /** Reconnects if the socket is gone (after a drop or a resync close). */
  async heal(): Promise<void> {
    if (this.alive) return;
    this.reconnects++;
    await this.connect();
  }

  private onMessage(ws: WebSocket, event: ServerEvent): void {
    if (ws !== this.ws) return; // a terminated socket's leftovers never reach the app
    if (this.dropAfter !== undefined && ++this.received > this.dropAfter) {
      this.drop();
      return;
    }
    switch (event.type) {
      case 'frames/add':
        for (const f of event.frames) this.seqs.push(f.seq);
        this.cursor = event.head;
        break;
      case 'exchanges/update':
        for (const ex of event.exchanges) this.exchanges.set(ex.id, ex);
        break;
      case 'resync':
        this.resyncs++;
        this.ws = undefined;
        this.closed = true;
        break;
      default:
        break;
    }
  }

  /** What the web app does on `resync`: read the frames it lacks and the exchanges from the API. */
  async reload(): Promise<void> {
    const auth = { authorization: `Bearer ${this.mcpscope.token}` };
    for (let i = 0; i < 10_000; i++) {
      const page = (await (await fetch(`${this.mcpscope.dashboardUrl}/api/frames?after=${this.cursor}&limit=5000`, { headers: auth })).json()) as FramesPage;
      for (const f of page.frames) this.seqs.push(f.seq);
      if (page.frames.length > 0) this.cursor = page.frames[page.frames.length - 1]!.seq;
      if (page.nextAfter === undefined) break;
    }
    const ex = (await (await fetch(`${this.mcpscope.dashboardUrl}/api/exchanges?limit=200000`, { headers: auth })).json()) as ExchangesPage;
    for (const e of ex.exchanges) this.exchanges.set(e.id, e);
  }
}

/** Requests, their answers (sometimes a burst later) and notifications, as the tap would record. */
function* trafficSource(): Generator<FrameInput> {
  for (let i = 1; ; i++) {
    const base = { sessionKey: `s${i % 3}`, transport: 'http-json' as const, kind: 'data' as const, ts: i };
    yield { ...base, direction: 'c2s', raw: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: `t${i % 4}` } }) };
    if (i % 4 === 0) yield { ...base, direction: 's2c', raw: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: i } }) };
    if (i > 2) yield { ...base, direction: 's2c', raw: JSON.stringify({ jsonrpc: '2.0', id: i - 2, result: { content: [] } }) };
  }
}

type Step = { kind: 'burst'; frames: number } | { kind: 'drop'; client: number; afterMessages: number } | { kind: 'pause'; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('burst' as const), frames: fc.integer({ min: 1, max: 60 }) }),
  fc.record({ kind: fc.constant('drop' as const), client: fc.integer({ min: 0, max: 2 }), afterMessages: fc.integer({ min: 0, max: 4 }) }),
  fc.record({ kind: fc.constant('pause' as const), ms: fc.integer({ min: 0, max: 15 }) }),
);

describe('live hub resume', () => {
  // In memory every write is made on the tap's thread, at once; on a capture file the engine's
  // worker derives and writes, and frames go on arriving while a write is under way.
  it.each(['in memory', 'on a capture file'])('delivers every frame exactly once and in order, and every exchange at its final state, across any disconnects (%s)', async (where) => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        app = await startTestMcpscope({ hub: { flushIntervalMs: 5, maxCatchUp: 50 }, ...(where === 'in memory' ? {} : { db: tempDbFile() }) });
        const source = trafficSource();
        // Until the thread has taken deriving over (its first frames are part of the traffic).
        for (let i = 0; where !== 'in memory' && !app.pipeline.engineOnWorker && i < 300; i++) {
          app.pipeline.record(source.next().value as FrameInput);
          await app.pipeline.whenWritten();
          await sleep(10);
        }
        expect(where === 'in memory' || app.pipeline.engineOnWorker).toBe(true);
        const dashboards = [new Dashboard(app), new Dashboard(app), new Dashboard(app)];
        await Promise.all(dashboards.map((d) => d.connect()));
        for (const s of steps) {
          if (s.kind === 'burst') {
            for (let i = 0; i < s.frames; i++) app.pipeline.record(source.next().value as FrameInput);
            // Let the tick commit and, sometimes, a flush go out.
            await sleep(1);
          } else if (s.kind === 'drop') {
            const d = dashboards[s.client]!;
            // Dies after a few more messages: anywhere inside a flush, or at once.
            if (d.alive) await d.connect(s.afterMessages).catch(() => {});
          } else {
            await sleep(s.ms);
          }
          for (const d of dashboards) {
            if (!d.alive && d.resyncs > 0) await d.reload();
            await d.heal().catch(() => {});
          }
        }
        app.pipeline.flush();
        const head = app.store.head();
        const final = new Map(app.store.exchanges(1_000_000).map((e) => [e.id, e]));
        for (const d of dashboards) {
          for (let i = 0; i < 400 && d.cursor < head; i++) {
            if (!d.alive) {
              if (d.resyncs > 0) await d.reload();
              await d.heal().catch(() => {});
            }
            await sleep(5);
          }
          expect(d.seqs).toEqual(Array.from({ length: head }, (_, i) => i + 1));
          expect(d.exchanges).toEqual(final);
          expect(d.binaryMessages).toBe(0);
        }
        await app.close();
        app = undefined;
      }),
      // A capture file costs each run the thread's start (about a second from source).
      { numRuns: where === 'in memory' ? 25 : 15 },
    );
  }, 180_000);

  it('tells a dashboard that stops reading to resync, while the others and the capture carry on', async () => {
    app = await startTestMcpscope({ hub: { flushIntervalMs: 5, maxBufferedBytes: 64 * 1024 } });
    const slow = new WebSocket(`${app.dashboardUrl.replace('http', 'ws')}/ws?after=0`, { headers: { authorization: `Bearer ${app.token}` } });
    const events: ServerEvent[] = [];
    const closed = new Promise<number>((resolve) => slow.on('close', (code) => resolve(code)));
    slow.on('message', (data) => events.push(JSON.parse(String(data)) as ServerEvent));
    await new Promise((r) => slow.once('open', r));
    const fast = new Dashboard(app);
    await fast.connect();
    // Stop reading: the server's socket buffer fills as the kernel buffers do.
    (slow as unknown as { _socket: { pause(): void } })._socket.pause();
    const source = trafficSource();
    const bulky = (f: FrameInput): FrameInput => ({ ...f, raw: f.raw.replace('"params":{', `"params":{"pad":"${'x'.repeat(4000)}",`) });
    for (let burst = 0; burst < 200; burst++) {
      for (let i = 0; i < 20; i++) app.pipeline.record(bulky(source.next().value as FrameInput));
      await sleep(1);
    }
    app.pipeline.flush();
    const head = app.store.head();
    expect(head).toBe(200 * 20); // every frame was captured
    for (let i = 0; i < 400 && fast.cursor < head; i++) await sleep(5);
    expect(fast.seqs).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    (slow as unknown as { _socket: { resume(): void } })._socket.resume();
    expect(await closed).toBe(RESYNC_CLOSE_CODE);
    expect(events.at(-1)).toMatchObject({ type: 'resync', reason: expect.stringContaining('fell behind') });
  });
});
