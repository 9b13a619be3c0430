// Large bodies stored from the writer thread (capture/large-writer.ts), seen from outside: a 50 MB
// tool result is recorded byte for byte, keeps its place in capture order, reaches a live
// dashboard only once it is committed to the file, and the tap answers other clients meanwhile.
import { createHash } from 'node:crypto';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ExchangeWindowPage, ServerEvent } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { openSqlite } from '../src/capture/sqlite.js';
import { CaptureStore } from '../src/capture/capture-store.js';
import { CapturePipeline, TICK_LIMIT } from '../src/capture/capture-pipeline.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { apiFetch } from './support/api.js';
import { sharedUpstream } from './support/proxy-fixture.js';
import { startFaultyUpstream } from './reliability/fixtures/faulty-upstream.js';
import { MCP_HEADERS, eventually, exchangeDetail, exchanges, framesAfter, post, rpcId, tempDb, toolCall } from './reliability/harness.js';
import { MAX_CAPTURED_BODY_BYTES } from '../src/tap/http/capped-text.js';

const shared = sharedUpstream(startFaultyUpstream);
let app: Mcpscope | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A live dashboard that, on every `frames/add`, checks each frame is already in the file. */
function watchDashboard(mcpscope: Mcpscope, file: string) {
  const reader = openSqlite(file, { readonly: true });
  // A large frame's text is stored in pieces (migration 8): all of them count.
  const stored = reader.prepare('SELECT length(raw) + (SELECT COALESCE(SUM(length(raw)), 0) FROM frame_parts p WHERE p.seq = f.seq) AS chars FROM frames f WHERE seq = ?');
  const seen: { seq: number; size: number; committedChars: number | undefined }[] = [];
  const ws = new WebSocket(`${mcpscope.dashboardUrl.replace('http', 'ws')}/ws?after=0`, ['mcpscope', `mcpscope.token.${mcpscope.token}`]);
  ws.on('message', (data) => {
    const event = JSON.parse(String(data)) as ServerEvent;
    if (event.type !== 'frames/add') return;
    // Read at once, in the same turn the event arrived: a frame shown must be committed now.
    for (const f of event.frames) seen.push({ seq: f.seq, size: f.size, committedChars: (stored.get(f.seq) as { chars: number } | undefined)?.chars });
  });
  const open = new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return {
    seen,
    open,
    close() {
      ws.close();
      reader.close();
    },
  };
}

async function callEcho(url: string, text: string): Promise<unknown> {
  const id = rpcId();
  const body = (await (await post(url, toolCall(id, 'echo', { text }))).json()) as { id: number; result: { content: { text: string }[] } };
  return body.id === id ? body.result.content[0]!.text : body;
}

/** A client frame at `ts` in session s1. */
const frame = (ts: number, raw: string) => ({ ts, sessionKey: 's1', direction: 'c2s' as const, transport: 'http-json' as const, kind: 'data' as const, raw });

/** Records a 2 MB answer through the writer thread as frame 1 and returns its text. */
function recordLargeAnswer(pipeline: CapturePipeline): string {
  const text = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'w'.repeat(2 * 1024 * 1024) }] } });
  const body = pipeline.largeBody()!;
  body.push(Buffer.from(text));
  pipeline.record({ ...frame(1, ''), direction: 's2c' }, body);
  return text;
}

describe('large frames from the writer thread', () => {
  it('records a 50 MB result byte for byte, in order, shown live only once committed, while other clients are answered', async () => {
    const db = tempDb();
    app = await startTestMcpscope({ target: shared.upstream.url, db });
    const dashboard = watchDashboard(app, db);
    await dashboard.open;
    const url = app.mcpUrl;
    try {
      expect(await callEcho(url, 'before')).toBe('before');
      const id = rpcId();
      let done = false;
      const big = (async () => {
        const res = await post(url, toolCall(id, 'big', { mb: 50 }));
        const body = Buffer.from(await res.arrayBuffer());
        done = true;
        return body;
      })();
      // Ten other clients keep calling while the result streams and is stored.
      const answers: unknown[] = [];
      const others = Array.from({ length: 10 }, async (_, client) => {
        for (let n = 0; !done || n < 3; n++) answers.push(await callEcho(url, `client ${client} call ${n}`));
      });
      const received = await big;
      await Promise.all(others);
      expect(answers.every((a) => typeof a === 'string' && a.startsWith('client '))).toBe(true);
      expect(await callEcho(url, 'after')).toBe('after');

      const ex = await eventually(async () => (await exchanges(app!)).find((e) => e.rpcId === id && e.status === 'ok'), 'the large exchange to be complete');
      const frames = await framesAfter(app);
      const largeSeq = ex.frameSeqs[1]!;
      const large = frames.find((f) => f.seq === largeSeq)!;
      expect(large.size).toBe(received.length);
      expect(large.truncated).toBe(true);
      expect(large.raw).toBe(received.subarray(0, large.raw.length).toString());
      // The whole text, as downloaded from the API, is the bytes the client received.
      const raw = Buffer.from(await (await apiFetch(app, `/api/frames/${largeSeq}/raw`)).arrayBuffer());
      expect(raw.equals(received)).toBe(true);
      // Capture order: the request, then its answer, then what came after the answer was recorded.
      const afterFrame = frames.find((f) => f.raw.includes('"text":"after"'))!;
      expect(ex.frameSeqs[0]).toBeLessThan(largeSeq);
      expect(afterFrame.seq).toBeGreaterThan(largeSeq);
      expect(frames.map((f) => f.seq)).toEqual([...frames.map((f) => f.seq)].sort((a, b) => a - b));

      // The dashboard got every frame once, in order, each already committed when it arrived.
      const last = frames[frames.length - 1]!.seq;
      await eventually(async () => (dashboard.seen.some((s) => s.seq === last) ? true : undefined), 'the dashboard to see the last frame');
      expect(dashboard.seen.map((s) => s.seq)).toEqual(frames.map((f) => f.seq));
      expect(dashboard.seen.filter((s) => s.committedChars === undefined)).toEqual([]);
      expect(dashboard.seen.find((s) => s.seq === largeSeq)).toEqual({ seq: largeSeq, size: received.length, committedChars: received.length });
    } finally {
      dashboard.close();
    }
  }, 120_000);

  it('forwards a large request body as it arrives, and records it whole from the writer thread, derived', async () => {
    const db = tempDb();
    app = await startTestMcpscope({ target: shared.upstream.url, db });
    const id = rpcId();
    // A 20 MB tool argument, sent in two halves: the second only once the upstream has most of the first.
    const body = Buffer.from(toolCall(id, 'digest', { document: 'é'.repeat(10 * 1024 * 1024) }));
    const half = Math.floor(body.length / 2);
    const before = shared.upstream.seen.bodyBytes;
    const request = http.request(app.mcpUrl, { method: 'POST', headers: { ...MCP_HEADERS, 'content-length': String(body.length) } });
    const answered = new Promise<Buffer>((resolve, reject) => {
      request.once('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c)).once('end', () => resolve(Buffer.concat(chunks)));
      });
      request.once('error', reject);
    });
    request.write(body.subarray(0, half));
    await eventually(async () => (shared.upstream.seen.bodyBytes - before >= half - 1024 * 1024 ? true : undefined), 'the upstream to receive the first half before the client sends the rest');
    request.end(body.subarray(half));
    const answer = JSON.parse((await answered).toString()) as { result: { content: { text: string }[] } };
    expect(answer.result.content[0]!.text).toBe(`${body.length} ${createHash('sha256').update(body).digest('hex')}`);

    const ex = await eventually(async () => (await exchanges(app!)).find((e) => e.rpcId === id && e.status === 'ok'), 'the exchange to be complete');
    expect([ex.method, ex.target]).toEqual(['tools/call', 'digest']);
    const raw = Buffer.from(await (await apiFetch(app, `/api/frames/${ex.frameSeqs[0]}/raw`)).arrayBuffer());
    expect(raw.equals(body)).toBe(true);
    const request0 = (await framesAfter(app)).find((f) => f.seq === ex.frameSeqs[0])!;
    expect([request0.size, request0.truncated]).toEqual([body.toString('utf8').length, true]);
  }, 60_000);

  it('records a large body that names a secret field on the tap thread, byte for byte, and keeps it after a restart', async () => {
    const db = tempDb();
    app = await startTestMcpscope({ target: shared.upstream.url, db });
    // 2 MB of text that mentions `access_token` (escaped inside the tool's text: not a field, so kept).
    const text = `{"access_token":"not-a-field"} ${'y'.repeat(2 * 1024 * 1024)}`;
    const id = rpcId();
    const received = Buffer.from(await (await post(app.mcpUrl, toolCall(id, 'echo', { text }))).arrayBuffer());
    const ex = await eventually(async () => (await exchanges(app!)).find((e) => e.rpcId === id && e.status === 'ok'), 'the exchange to be complete');
    await app.close();
    app = await startTestMcpscope({ target: shared.upstream.url, db });
    const raw = Buffer.from(await (await apiFetch(app, `/api/frames/${ex.frameSeqs[1]}/raw`)).arrayBuffer());
    expect(raw.equals(received)).toBe(true);
  }, 60_000);

  it('a shutdown right after a large answer waits for its write, then stores what came after it, in order', () => {
    const file = tempDb();
    let store = new CaptureStore(file);
    let pipeline = new CapturePipeline(store);
    const at = (ts: number, direction: 'c2s' | 's2c', raw: string) => ({ ts, sessionKey: 's1', direction, transport: 'http-json' as const, kind: 'data' as const, raw });
    const text = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'é'.repeat(3 * 1024 * 1024) }] } });
    pipeline.record(at(1, 'c2s', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'big', arguments: {} } })));
    const body = pipeline.largeBody()!;
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += 65_536) body.push(bytes.subarray(i, i + 65_536));
    const largeSeq = pipeline.record(at(2, 's2c', ''), body);
    const nextSeq = pipeline.record(at(3, 'c2s', JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })));
    pipeline.close();
    store.close();

    store = new CaptureStore(file);
    pipeline = new CapturePipeline(store);
    try {
      expect(store.frameRaw(largeSeq)).toEqual({ raw: text, bytes: bytes.length });
      expect(nextSeq).toBe(largeSeq + 1);
      expect(store.frameRaw(nextSeq)?.raw).toContain('tools/list');
      const call = store.frames([1, largeSeq]);
      expect(call.map((f) => f.seq)).toEqual([1, largeSeq]);
    } finally {
      pipeline.close();
      store.close();
    }
  });

  it('finds a large frame by text past its first stored piece, and exports it whole', async () => {
    app = await startTestMcpscope({ target: shared.upstream.url, db: tempDb() });
    // 3 MB: the text past the first million characters is in later pieces.
    const text = `${'z'.repeat(3 * 1024 * 1024)} needle-past-the-first-piece`;
    const id = rpcId();
    // The request spells the needle with a JSON escape, so only the answer holds it as text.
    const request = toolCall(id, 'echo', { text }).replace('needle', '\\u006eeedle');
    expect(request).not.toContain('needle-past');
    const received = await (await post(app.mcpUrl, request)).text();
    expect(received).toContain('needle-past-the-first-piece');
    const ex = await eventually(async () => (await exchanges(app!)).find((e) => e.rpcId === id && e.status === 'ok'), 'the exchange to be complete');
    const found = await (await apiFetch(app, `/api/exchanges?filter=${encodeURIComponent('"needle-past-the-first-piece"')}`)).json() as { exchanges: { id: string }[] };
    expect(found.exchanges.map((e) => e.id)).toEqual([ex.id]);
    // The dashboard's list, collected by a scan over ranges of frames, finds it too.
    const listed = await eventually(async () => {
      const page = (await (await apiFetch(app!, `/api/exchanges/window?filter=${encodeURIComponent('"needle-past-the-first-piece"')}&offset=0&limit=10`)).json()) as ExchangeWindowPage;
      return page.complete ? page : undefined;
    }, 'the search to reach the end of the capture');
    expect(listed.exchanges.map((e) => e.id)).toEqual([ex.id]);
    const exported = await (await apiFetch(app, '/api/export?format=jsonl')).text();
    const frames = exported.trim().split('\n').map((line) => JSON.parse(line) as { raw?: string });
    expect(frames.some((f) => f.raw === received)).toBe(true);
  }, 60_000);

  it('releases the traffic held behind a large frame in order, a bounded batch per tick, each committed before it is published', async () => {
    const file = tempDb();
    const store = new CaptureStore(file);
    const pipeline = new CapturePipeline(store);
    const reader = openSqlite(file, { readonly: true });
    const committed = reader.prepare('SELECT COUNT(*) AS n FROM frames WHERE seq <= ?');
    const batches: { seqs: number[]; committed: number }[] = [];
    pipeline.onBatch((batch) => {
      const seqs = batch.frames.map((f) => f.seq);
      batches.push({ seqs, committed: (committed.get(seqs[seqs.length - 1] ?? 0) as { n: number }).n });
    });
    try {
      const text = recordLargeAnswer(pipeline);
      const held = 3 * TICK_LIMIT;
      for (let i = 0; i < held; i++) pipeline.record(frame(2 + i, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { i } })));
      await eventually(async () => (batches.flatMap((b) => b.seqs).length === held + 1 ? true : undefined), 'every frame to be published');
      expect(batches.flatMap((b) => b.seqs)).toEqual(Array.from({ length: held + 1 }, (_, i) => i + 1));
      expect(batches.every((b) => b.seqs.length <= TICK_LIMIT)).toBe(true);
      // Published only once committed: every frame up to a batch's last is in the file by then.
      expect(batches.every((b) => b.committed === b.seqs[b.seqs.length - 1])).toBe(true);
      expect(store.frameRaw(1)?.raw).toBe(text);
    } finally {
      reader.close();
      pipeline.close();
      store.close();
    }
  });

  it('forwards but does not store, and counts, what comes past the bound held behind a large write', async () => {
    const file = tempDb();
    const store = new CaptureStore(file);
    const pipeline = new CapturePipeline(store, {}, undefined, { frames: 50, chars: Number.MAX_SAFE_INTEGER });
    try {
      const text = recordLargeAnswer(pipeline);
      // The next tick hands the large frame to the writer; everything after waits behind it.
      pipeline.flush();
      const seqs = Array.from({ length: 80 }, (_, i) => pipeline.record(frame(2 + i, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { i } }))));
      // The queue holds the large frame and 49 behind it; the other 31 are not stored.
      expect(seqs.filter((s) => s > 0)).toHaveLength(49);
      expect(seqs.slice(49).every((s) => s === -1)).toBe(true);
      const status = pipeline.health.status();
      expect(status).toMatchObject({ state: 'recording', notRecorded: { frames: 31 }, fellBehind: { frames: 31 } });
      await eventually(async () => (store.head() === 50 ? true : undefined), 'the held frames to be written');
      expect(store.frameRaw(1)?.raw).toBe(text);
      // Once the write landed, frames are held (and stored) again.
      expect(pipeline.record(frame(100, '{"jsonrpc":"2.0","method":"notifications/message"}'))).toBe(51);
    } finally {
      pipeline.close();
      store.close();
    }
  });

  it('records a result past the 64 MiB capture limit as answered ok, too large to keep whole, with its true size', async () => {
    app = await startTestMcpscope({ target: shared.upstream.url, db: tempDb() });
    const id = rpcId();
    // Streamed by the upstream in 64 KiB chunks and counted here, never held whole.
    const res = await post(app.mcpUrl, toolCall(id, 'big', { mb: 66 }));
    let received = 0;
    for await (const chunk of res.body!) received += chunk.length;
    expect(received).toBeGreaterThan(MAX_CAPTURED_BODY_BYTES);

    const ex = await eventually(async () => (await exchanges(app!)).find((e) => e.rpcId === id && e.status !== 'pending'), 'the large exchange to settle');
    expect(ex.status).toBe('ok');
    const detail = await exchangeDetail(app, ex.id);
    const request = detail.frames.find((f) => f.seq === ex.requestSeq)!;
    expect(ex.size).toBe(request.bytes + received);
    const answer = detail.frames.find((f) => f.seq === ex.responseSeq)!;
    expect(answer.bytes).toBe(received);
    expect(detail.diagnostics.map((d) => d.code)).toEqual(['too-large-to-keep']);
    expect(detail.diagnostics[0]!.message).toContain(`${received} bytes, too large to keep whole`);
  }, 120_000);

  it('forgets the pieces of a large frame whose row never committed (a crash between the two), so its seq can come again', () => {
    const file = tempDb();
    let store = new CaptureStore(file);
    // What a crash leaves: the writer thread's pieces for seq 1, and no frame row for them.
    store.db.prepare('INSERT INTO frame_parts (seq, part, raw) VALUES (1, 1, ?)').run('left behind');
    store.close();
    store = new CaptureStore(file);
    const pipeline = new CapturePipeline(store);
    try {
      const text = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'v'.repeat(2 * 1024 * 1024) }] } });
      const body = pipeline.largeBody()!;
      body.push(Buffer.from(text));
      expect(pipeline.record({ ts: 1, sessionKey: 's1', direction: 's2c', transport: 'http-json', kind: 'data', raw: '' }, body)).toBe(1);
      pipeline.close();
      expect(store.frameRaw(1)?.raw).toBe(text);
    } finally {
      store.close();
    }
  });
});
