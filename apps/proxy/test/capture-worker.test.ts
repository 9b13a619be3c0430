// Capture off the forwarding thread (issue 18): with a capture file, a worker thread records what
// the tap forwards, behind a bounded queue. When the queue is full the tap keeps forwarding and
// counts every frame it could not record (GET /api/capture), so the capture's holes are known.
import { afterEach, describe, expect, it } from 'vitest';
import type { CaptureStatus, FramesPage } from '@mcpscope/protocol';
import { startTestMcpscope } from './support/mcpscope.js';
import { apiGet } from './support/api.js';
import { tempDbFile } from './store-helpers.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';

const open: Mcpscope[] = [];
afterEach(async () => {
  for (const app of open.splice(0)) await app.close();
});

/** One POST through the tap; the demo server answers it (an error without a session): two frames. */
async function post(app: Mcpscope, id: number): Promise<number> {
  const res = await fetch(app.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' }) });
  await res.text();
  return res.status;
}

describe('capture on its worker thread', () => {
  it('records everything the tap forwards, and the API says where capture runs', async () => {
    const app = await startTestMcpscope({ db: tempDbFile() });
    open.push(app);
    for (let i = 1; i <= 5; i++) await post(app, i);
    await app.pipeline.stored();
    const status = await apiGet<CaptureStatus>(app, '/api/capture');
    expect(status).toMatchObject({ thread: 'worker', dropped: { frames: 0, chars: 0 }, queued: { frames: 0, chars: 0 } });
    const page = await apiGet<FramesPage>(app, '/api/frames?after=0&limit=100');
    expect(page.frames.map((f) => f.seq)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });

  it('keeps forwarding when the queue is full, and counts every frame it did not record', async () => {
    // A queue of one frame: a burst of concurrent calls cannot all be recorded.
    const app = await startTestMcpscope({ db: tempDbFile(), captureQueue: { frames: 1, chars: 1e9 } });
    open.push(app);
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => post(app, i + 1)));
    expect(statuses.every((s) => s === 400)).toBe(true); // the demo's "no session" answer, forwarded every time
    app.pipeline.flush();
    const status = await apiGet<CaptureStatus>(app, '/api/capture');
    const stored = (await apiGet<FramesPage>(app, '/api/frames?after=0&limit=100')).frames;
    expect(status.dropped.frames).toBeGreaterThan(0);
    // Every frame the tap saw (a request and its answer per call) is either stored or counted.
    expect(stored.length + status.dropped.frames).toBe(40);
    expect(status.dropped.chars).toBeGreaterThan(0);
    // The seqs of what was recorded have no holes: a frame is numbered only once it is queued.
    expect(stored.map((f) => f.seq)).toEqual(Array.from({ length: stored.length }, (_, i) => i + 1));
  });

  it('records on the tap thread for an in-memory store, which never drops', async () => {
    const app = await startTestMcpscope();
    open.push(app);
    await post(app, 1);
    expect(await apiGet<CaptureStatus>(app, '/api/capture')).toMatchObject({ thread: 'main', dropped: { frames: 0 } });
  });
});
