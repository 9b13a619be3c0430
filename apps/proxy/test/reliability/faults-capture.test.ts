// Issue 22, item 3: a capture failure never stops forwarding. One input used to kill the whole
// process, tap and dashboard together: a message nested 10,000 deep (stack overflow serialising
// it), a body too long for a string, a full disk or a read-only capture file (an error thrown in
// the pipeline's tick, which nothing caught). Now the traffic flows, capture pauses or degrades,
// `GET /api/capture` says so, and capture resumes by itself.
import { rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CaptureStatus, FrameView } from '@mcpscope/protocol';
import { startMcpscopeProcess, startTestMcpscope } from '../support/mcpscope.js';
import { EVERYTHING_BIN } from '../support/everything.js';
import { apiFetch } from '../support/api.js';
import { startFaultyUpstream } from './fixtures/faulty-upstream.js';
import { proxiedUpstream, sharedUpstream } from '../support/proxy-fixture.js';
import { api, eventually, exchanges, framesAfter, post, rpcId, tempDb, toolCall } from './harness.js';
import { memoryOf } from './cli-process.js';
import { MAX_CAPTURED_BODY_BYTES } from '../../src/tap/http/capped-text.js';
import { reliabilityReport } from './report.js';

const report = reliabilityReport('25-faults-capture', 'Capture failures never stop forwarding');
const shared = sharedUpstream(startFaultyUpstream);
/** 256 KiB: what capture keeps of one body in the in-process tests, so "too large" is cheap to send. */
const SMALL_CAP = 256 * 1024;
const proxy = proxiedUpstream(startFaultyUpstream, { maxBodyBytes: SMALL_CAP });

const status = (app: Parameters<typeof api>[0]) => api<CaptureStatus>(app, '/api/capture');
const answerText = async (res: Response) => JSON.parse(await res.text()).result.content[0].text as string;

function deepInitialize(depth: number): string {
  const caps = '{"a":'.repeat(depth) + '{}' + '}'.repeat(depth);
  return `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":${caps},"clientInfo":{"name":"deep","version":"1"}}}`;
}

describe('frames the capture cannot read', () => {
  it('an initialize nested 10,000 deep is forwarded and stored as sent, flagged; the process lives on', async () => {
    const row = report.row('POST an initialize of 60 KB whose capabilities nest 10,000 deep (real process)', 'the server answers it through the tap; mcpscope keeps running; the frame is stored byte for byte as an invalid message that says it nests too deep');
    const app = await startMcpscopeProcess(['--target', shared.upstream.url, '--db', tempDb()]);
    try {
      const body = deepInitialize(10_000);
      const res = await post(app.mcpUrl, body);
      const answered = res.status;
      await res.text();
      const after = await post(app.mcpUrl, toolCall(rpcId(), 'echo', { text: 'still here' }));
      const next = await answerText(after);
      const stored = await eventually(async () => (await framesAfter(app)).find((f) => f.size === body.length), 'the deep frame to be stored');
      const raw = await (await apiFetch(app, `/api/frames/${stored.seq}/raw`)).text();
      const invalid = (await exchanges(app)).find((e) => e.frameSeqs.includes(stored.seq));
      row.observed(`tap answered ${answered}, the next call got "${next}", process ${app.child.exitCode === null ? 'alive' : `exited ${app.child.exitCode}`}; frame #${stored.seq} of ${raw.length} chars stored ${raw === body ? 'byte for byte' : 'ALTERED'} as ${invalid?.kind}: ${invalid?.errorMessage}`);
      expect(answered).toBe(200);
      expect(next).toBe('still here');
      expect(raw).toBe(body);
      expect(invalid?.kind).toBe('invalid');
      expect(invalid?.errorMessage).toMatch(/deeper than 512/);
    } finally {
      await app.stop();
    }
  }, 60_000);
});

describe('bodies larger than capture keeps', () => {
  it('are forwarded whole, in both directions, and stored cut with their full size', async () => {
    const row = report.row(`a 1 MiB tools/call (digest: the server answers with the SHA-256 of what it got), then a 1 MiB echo, with capture keeping ${SMALL_CAP / 1024} KiB of a body whole`, 'the server receives every byte (same SHA-256), the client every byte of the echo; the three big frames keep their first 256 KiB, say they were cut and give the whole size; the exchanges say why they are not read');
    const text = 'x'.repeat(1024 * 1024);
    const request = toolCall(rpcId(), 'digest', { text });
    const digest = await answerText(await post(proxy.app.mcpUrl, request));
    const expected = `${Buffer.byteLength(request)} ${createHash('sha256').update(request).digest('hex')}`;
    const echoId = rpcId();
    const echoed = await answerText(await post(proxy.app.mcpUrl, toolCall(echoId, 'echo', { text })));
    const cut = await eventually(async () => {
      const frames = await framesAfter(proxy.app);
      const both = frames.filter((f: FrameView) => f.http?.cut !== undefined);
      return both.length >= 3 ? both : undefined;
    }, 'the two requests and the echoed answer, cut');
    const sizes = cut.map((f) => `#${f.seq} ${f.direction} kept ${f.size} of ${f.http!.cut!.size}`);
    const reasons = (await exchanges(proxy.app)).filter((e) => e.kind === 'invalid' && /too large to keep whole/.test(e.errorMessage ?? '')).length;
    row.observed(`server got ${digest === expected ? 'the same bytes' : `DIFFERENT bytes (${digest})`}; client got ${echoed.length} chars back; ${sizes.join('; ')}; ${reasons} exchanges say "too large to keep whole"; capture ${(await status(proxy.app)).state}`);
    expect(digest).toBe(expected);
    expect(echoed).toBe(text);
    for (const f of cut) {
      expect(f.size).toBeLessThanOrEqual(SMALL_CAP);
      expect(f.http!.cut!.size).toBeGreaterThan(1024 * 1024);
    }
    expect(reasons).toBeGreaterThanOrEqual(2);
  });

  it('a 100 MB and a 200 MB request pass whole through the built CLI, and peak memory does not grow with them', async () => {
    const row = report.row('a 100 MB, then a 200 MB tools/call request through the tap (built CLI, file database; a fresh process each)', `the server receives every byte (same SHA-256); proxy peak RSS grows by about what capture holds before it knows a body is too large (${MAX_CAPTURED_BODY_BYTES / 2 ** 20} MiB), not with the payload (was +738 MB for 100 MB: the body held whole, then as a string, then parsed)`);
    const growth: number[] = [];
    const seen: string[] = [];
    for (const mb of [100, 200]) {
      const app = await startMcpscopeProcess(['--target', shared.upstream.url, '--db', tempDb()], { from: 'build' });
      try {
        await (await post(app.mcpUrl, toolCall(rpcId(), 'echo'))).text();
        const before = memoryOf(app.child.pid!);
        const request = Buffer.from(toolCall(rpcId(), 'digest', { text: 'y'.repeat(mb * 1024 * 1024) }));
        const digest = await answerText(await post(app.mcpUrl, request));
        const expected = `${request.length} ${createHash('sha256').update(request).digest('hex')}`;
        await eventually(async () => ((await framesAfter(app)).some((f) => f.http?.cut?.size === request.length) ? true : undefined), 'the cut request frame');
        growth.push(memoryOf(app.child.pid!).peak - before.rss);
        seen.push(`${mb} MB: server got ${digest === expected ? 'the same bytes' : 'DIFFERENT bytes'}, peak RSS +${(growth.at(-1)! / 2 ** 20).toFixed(0)} MB`);
        expect(digest).toBe(expected);
      } finally {
        await app.stop();
      }
    }
    row.observed(seen.join('; '));
    // Twice the payload, about the same peak: bounded by the cap, not by the body.
    expect(growth[1]!).toBeLessThan(growth[0]! * 1.5);
    expect(growth[0]!).toBeLessThan(4 * MAX_CAPTURED_BODY_BYTES);
  }, 180_000);
});

describe('a --stdio server and a body past the cap', () => {
  it('is refused with 413 and a JSON-RPC error (a stdio message is one line the child reads whole); the bridge keeps serving', async () => {
    const row = report.row(`POST of ${MAX_CAPTURED_BODY_BYTES / 2 ** 20} MiB + 1 KiB to a --stdio tap (server-everything)`, '413 with a JSON-RPC error naming the limit; the next call is answered; mcpscope stays up (a body past V8\'s longest string used to end the process)');
    const app = await startTestMcpscope({ stdio: `${process.execPath} ${EVERYTHING_BIN} stdio` });
    try {
      const big = await post(app.mcpUrl, Buffer.alloc(MAX_CAPTURED_BODY_BYTES + 1024, 0x20));
      const refusal = await big.text();
      const init = await post(app.mcpUrl, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'after', version: '1' } } }));
      const answered = await init.text();
      row.observed(`${big.status}: ${refusal.slice(0, 140)}; the next initialize: ${init.status} ${answered.includes('serverInfo') ? 'answered' : answered.slice(0, 60)}`);
      expect(big.status).toBe(413);
      expect(refusal).toContain('more than the stdio bridge passes');
      expect(answered).toContain('serverInfo');
    } finally {
      await app.close();
    }
  }, 60_000);
});

describe('a store that cannot take writes', () => {
  it.each([
    ['disk full', 'max_page_count', 'SQLITE_FULL (PRAGMA max_page_count at the current size)'],
    ['the capture file is read-only', 'query_only', 'SQLITE_READONLY (PRAGMA query_only)'],
  ])('%s: traffic flows, capture pauses and says so, then resumes by itself', async (reason, pragma, how) => {
    const row = report.row(`the capture store refuses writes: ${how}; 5 tool calls meanwhile`, `every call answered; GET /api/capture says paused, "${reason}", with what was not recorded; capture resumes once the store takes writes, and the next call is recorded`);
    const db = proxy.app.store.db;
    const pages = Number((db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count);
    db.pragma(pragma === 'max_page_count' ? `max_page_count = ${pages}` : 'query_only = 1');
    let paused: CaptureStatus;
    const answers: string[] = [];
    try {
      for (let i = 0; i < 5; i++) answers.push(await answerText(await post(proxy.app.mcpUrl, toolCall(rpcId(), 'echo', { text: `during ${i} ${'z'.repeat(20_000)}` }))));
      paused = await eventually(async () => {
        const s = await status(proxy.app);
        return s.state === 'paused' ? s : undefined;
      }, 'capture to pause');
    } finally {
      db.pragma(pragma === 'max_page_count' ? 'max_page_count = 1073741823' : 'query_only = 0');
    }
    const resumed = await eventually(async () => {
      const s = await status(proxy.app);
      return s.state === 'recording' ? s : undefined;
    }, 'capture to resume');
    const id = rpcId();
    await answerText(await post(proxy.app.mcpUrl, toolCall(id, 'echo', { text: 'after' })));
    const recorded = await eventually(async () => (await exchanges(proxy.app)).find((e) => e.rpcId === id && e.status === 'ok'), 'the call after resuming to be recorded');
    row.observed(`${answers.filter((a) => a.startsWith('during')).length}/5 answered; paused: "${paused.reason}", ${paused.notRecorded.frames} frames not recorded, last error "${paused.lastError?.message}"; then ${resumed.state}, the next call recorded as ${recorded.status}`);
    expect(answers.every((a) => a.startsWith('during'))).toBe(true);
    expect(paused.reason).toBe(reason);
    expect(paused.notRecorded.frames).toBeGreaterThan(0);
    expect(recorded.status).toBe('ok');
  }, 30_000);

  it('a real full disk (a 16 MB tmpfs in a private mount namespace): traffic flows, capture pauses, then resumes when space is freed', async () => {
    const row = report.row('mcpscope --db on a 16 MB tmpfs (unshare -rm), the file system then filled to the last byte; 5 tool calls; then the filler deleted', 'every call answered; GET /api/capture: paused, "disk full"; after space is freed capture resumes without a restart and records the next call; the process never exits');
    const dir = mkdtempSync(join(tmpdir(), 'mcpscope-full-'));
    const wrap = ['unshare', '-rm', 'sh', '-c', 'mount -t tmpfs -o size=16m tmpfs "$0" && exec "$@"', dir];
    const app = await startMcpscopeProcess(['--target', shared.upstream.url, '--db', join(dir, 'capture.db')], { from: 'build', wrap });
    // The child's view of its own mount, from outside its namespace.
    const filler = `/proc/${app.child.pid}/root${dir}/filler`;
    try {
      await answerText(await post(app.mcpUrl, toolCall(rpcId(), 'echo', { text: 'before' })));
      try {
        writeFileSync(filler, Buffer.alloc(16 * 1024 * 1024));
      } catch {
        // ENOSPC: the file system is now full, which is the point.
      }
      const answers: string[] = [];
      for (let i = 0; i < 5; i++) answers.push(await answerText(await post(app.mcpUrl, toolCall(rpcId(), 'echo', { text: `full ${i} ${'f'.repeat(100_000)}` }))));
      const paused = await eventually(async () => {
        const s = await status(app);
        return s.state === 'paused' ? s : undefined;
      }, 'capture to pause on the full disk');
      unlinkSync(filler);
      const resumed = await eventually(async () => ((await status(app)).state === 'recording' ? true : undefined), 'capture to resume');
      const id = rpcId();
      await answerText(await post(app.mcpUrl, toolCall(id, 'echo', { text: 'after' })));
      const recorded = await eventually(async () => (await exchanges(app)).find((e) => e.rpcId === id && e.status === 'ok'), 'the call after resuming to be recorded');
      row.observed(`${answers.filter((a) => a.startsWith('full')).length}/5 answered; paused: "${paused.reason}" (${paused.lastError?.message}), ${paused.notRecorded.frames} frames not recorded; filler deleted → ${resumed ? 'recording' : 'still paused'}, next call recorded as ${recorded.status}; process ${app.child.exitCode === null ? 'alive' : 'EXITED'}`);
      expect(answers.every((a) => a.startsWith('full'))).toBe(true);
      expect(paused.reason).toBe('disk full');
      expect(recorded.status).toBe('ok');
      expect(app.child.exitCode).toBeNull();
    } finally {
      await app.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});

// `unshare -rm` needs user namespaces; say so plainly if this machine has none.
try {
  execFileSync('unshare', ['-rm', 'true']);
} catch (err) {
  throw new Error('faults-capture needs unshare -rm (user and mount namespaces) for its real full-disk test', { cause: err });
}
