// Retention keeps a capture file within --max-frames / --max-bytes by removing the oldest frames,
// and never silently: the live stream and the API both say how many frames went.
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { FrameInput, FramesPage, ServerEvent } from '@mcpscope/protocol';
import { CaptureStore } from '../src/capture/capture-store.js';
import { CapturePipeline } from '../src/capture/capture-pipeline.js';
import { parseCli, UsageError } from '../src/commands/cli-args.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { tempDbFile } from './store-helpers.js';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

const call = (i: number, pad = 0): FrameInput => ({
  ts: i,
  sessionKey: 's',
  direction: 'c2s',
  transport: 'http-json',
  kind: 'data',
  raw: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 't', pad: 'x'.repeat(pad) } }),
});
const answer = (i: number): FrameInput => ({ ...call(i), direction: 's2c', raw: JSON.stringify({ jsonrpc: '2.0', id: i, result: { content: [] } }) });

function count(store: CaptureStore, table: string, where = '1'): number {
  return (store.db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`).get() as { n: number }).n;
}

describe('retention', () => {
  it('--max-frames keeps the newest N frames and what derives from them, and reports the removal', () => {
    const store = new CaptureStore(tempDbFile());
    open.push(store);
    const pipeline = new CapturePipeline(store, { maxFrames: 50 });
    const trims: number[] = [];
    pipeline.onBatch((b) => b.retention && trims.push(b.retention.removedFrames));
    for (let tick = 0; tick < 3; tick++) {
      for (let i = tick * 20 + 1; i <= tick * 20 + 20; i++) {
        pipeline.record(call(i));
        pipeline.record(answer(i));
      }
      pipeline.flush();
    }
    expect(count(store, 'frames')).toBe(50);
    expect(store.framesAfter(0, 1)[0]!.seq).toBe(71);
    expect(trims).toEqual([30, 40]);
    expect(store.meta('retention.removed_frames')).toBe(70);
    // Exchanges whose frames are all gone went with them; none refers to a removed frame.
    expect(count(store, 'exchanges')).toBe(25);
    expect(count(store, 'frame_exchanges', 'frame_seq < 71')).toBe(0);
  });

  it('--max-bytes keeps the newest frames within the budget, and always the newest frame', () => {
    const store = new CaptureStore(tempDbFile());
    open.push(store);
    const pipeline = new CapturePipeline(store, { maxBytes: 10_000 });
    for (let i = 1; i <= 40; i++) pipeline.record(call(i, 900));
    pipeline.flush();
    const bytes = (store.db.prepare('SELECT SUM(bytes) AS b FROM frames').get() as { b: number }).b;
    expect(bytes).toBeLessThanOrEqual(10_000);
    expect(bytes).toBeGreaterThan(10_000 - 1100);
    expect(store.head()).toBe(40);
    pipeline.record(call(41, 50_000));
    pipeline.flush();
    expect(store.framesAfter(0, 10).map((f) => f.seq)).toEqual([41]);
  });

  it('applies a lower limit when a file is opened again', () => {
    const file = tempDbFile();
    const first = new CaptureStore(file);
    const p = new CapturePipeline(first);
    for (let i = 1; i <= 30; i++) p.record(call(i));
    p.close();
    first.close();
    const store = new CaptureStore(file);
    open.push(store);
    new CapturePipeline(store, { maxFrames: 10 });
    expect(count(store, 'frames')).toBe(10);
    expect(store.meta('retention.removed_frames')).toBe(20);
  });

  /** One run of a writer on `file`: opens it with `limits`, records `calls`, closes; then what the file holds. */
  function runOn(file: string, limits: { maxFrames?: number; maxBytes?: number }, calls: FrameInput[]) {
    const store = new CaptureStore(file);
    const pipeline = new CapturePipeline(store, limits, undefined, undefined, { engine: 'in-process' });
    for (const c of calls) pipeline.record(c);
    pipeline.close();
    const held = {
      frames: count(store, 'frames'),
      oldest: store.framesAfter(0, 1)[0]?.seq,
      bytes: (store.db.prepare('SELECT COALESCE(SUM(bytes), 0) AS b FROM frames').get() as { b: number }).b,
      removed: store.meta('retention.removed_frames'),
    };
    store.close();
    return held;
  }
  const calls = (from: number, to: number, pad = 0) => Array.from({ length: to - from + 1 }, (_, i) => call(from + i, pad));

  it('holds --max-frames across restarts on the same file, counting frames a run without limits added', () => {
    const file = tempDbFile();
    expect(runOn(file, { maxFrames: 50 }, calls(1, 80))).toMatchObject({ frames: 50, oldest: 31, removed: 30 });
    // A run without limits keeps everything it adds.
    expect(runOn(file, {}, calls(81, 100))).toMatchObject({ frames: 70, oldest: 31, removed: 30 });
    // Opened again with the limit: trimmed to the newest 50 at once, and kept there while it records.
    expect(runOn(file, { maxFrames: 50 }, calls(101, 105))).toMatchObject({ frames: 50, oldest: 56, removed: 55 });
    expect(runOn(file, { maxFrames: 50 }, calls(106, 106))).toMatchObject({ frames: 50, oldest: 57, removed: 56 });
  });

  it('holds --max-bytes across restarts on the same file, also when the last run kept only --max-frames', () => {
    const file = tempDbFile();
    const first = runOn(file, { maxBytes: 10_000 }, calls(1, 40, 900));
    expect(first.bytes).toBeLessThanOrEqual(10_000);
    const second = runOn(file, { maxBytes: 10_000 }, calls(41, 50, 900));
    expect(second.bytes).toBeLessThanOrEqual(10_000);
    expect(second.bytes).toBeGreaterThan(10_000 - 1100);
    expect(second.oldest).toBeGreaterThan(first.oldest!);
    // A run with a frame limit only adds bytes it does not keep count of; the next byte limit still holds.
    expect(runOn(file, { maxFrames: 1000 }, calls(51, 70, 900)).bytes).toBeGreaterThan(10_000);
    const last = runOn(file, { maxBytes: 10_000 }, calls(71, 71, 900));
    expect(last.bytes).toBeLessThanOrEqual(10_000);
    expect(last.bytes).toBeGreaterThan(10_000 - 1100);
  });

  it('tells live dashboards and the API how many frames it removed', async () => {
    const app: Mcpscope = await startTestMcpscope({ db: tempDbFile(), maxFrames: 20, hub: { flushIntervalMs: 5 } });
    open.push(app);
    const events: ServerEvent[] = [];
    const ws = new WebSocket(`${app.dashboardUrl.replace('http', 'ws')}/ws?after=0`, { headers: { authorization: `Bearer ${app.token}` } });
    ws.on('message', (d) => events.push(JSON.parse(String(d)) as ServerEvent));
    await new Promise((r) => ws.once('open', r));
    for (let i = 1; i <= 30; i++) app.pipeline.record(call(i));
    app.pipeline.flush();
    for (let i = 0; i < 200 && !events.some((e) => e.type === 'retention'); i++) await new Promise((r) => setTimeout(r, 5));
    expect(events.find((e) => e.type === 'retention')).toEqual({ type: 'retention', head: 30, removedFrames: 10, oldestSeq: 11 });
    ws.close();

    const page = (await (await fetch(`${app.dashboardUrl}/api/frames?after=0`, { headers: { authorization: `Bearer ${app.token}` } })).json()) as FramesPage;
    expect(page.retention).toEqual({ removedFrames: 10, oldestSeq: 11 });
    expect(page.frames[0]!.seq).toBe(11);

    // A dashboard resuming from before the cut hears about it before it gets what is left.
    const late: ServerEvent[] = [];
    const again = new WebSocket(`${app.dashboardUrl.replace('http', 'ws')}/ws?after=3`, { headers: { authorization: `Bearer ${app.token}` } });
    again.on('message', (d) => late.push(JSON.parse(String(d)) as ServerEvent));
    for (let i = 0; i < 200 && !late.some((e) => e.type === 'frames/add'); i++) await new Promise((r) => setTimeout(r, 5));
    expect(late.map((e) => e.type)).toEqual(['hello', 'retention', 'conversations/update', 'sessions/update', 'exchanges/update', 'frames/add']);
    expect(late[1]).toMatchObject({ removedFrames: 10, oldestSeq: 11 });
    again.close();
  });

  it('reads --max-frames and --max-bytes (with size suffixes) and refuses nonsense', () => {
    expect(parseCli(['--max-frames', '100000', '--max-bytes', '500mb'])).toMatchObject({ maxFrames: 100_000, maxBytes: 500_000_000 });
    expect(parseCli(['--max-bytes', '2GB']).maxBytes).toBe(2_000_000_000);
    for (const bad of [['--max-frames', '0'], ['--max-frames', '10k'], ['--max-bytes', 'lots'], ['--max-bytes', '-5']]) {
      expect(() => parseCli(bad)).toThrow(UsageError);
    }
  });
});
