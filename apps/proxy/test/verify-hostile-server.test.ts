// verify against a server that means harm gets no more than its limits: an endless answer is read
// to --max-answer-mb and no further (peak memory stays near a plain run's), a flood of server
// requests during a call is answered up to the per-call cap and told, and a server that never
// answers cannot hold the run past --max-time: the call in flight is aborted, the rest reported
// as not run, exit 2.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerResponse } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { writeToolCallCapture } from './support/capture-jsonl.js';
import { spawnMcpscope } from './support/mcpscope.js';
import { startScriptedMcpServer } from './support/scripted-mcp-server.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpscope-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PEAK_HOOK = fileURLToPath(new URL('./support/report-peak-rss.mjs', import.meta.url));
const MB = 1024 * 1024;

/** Runs verify as a child; resolves with its exit code, output and peak resident memory in MB. */
async function verify(file: string, url: string, extra: string[] = []) {
  const run = spawnMcpscope(['verify', file, '--target', url, ...extra], { env: { NODE_OPTIONS: `--import ${PEAK_HOOK}` } });
  const code = await run.exited;
  const peak = Number(/peak-rss-kb: (\d+)/.exec(run.stderr())?.[1]) / 1024;
  return { code, out: run.output(), peak };
}

/** Writes `total` bytes of one JSON string, made lazily from one reused chunk, honouring backpressure; stops when the client goes. */
function streamHugeJson(res: ServerResponse, total: number): void {
  const chunk = Buffer.alloc(MB, 'a');
  let sent = 0;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"');
  const pump = () => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end('"}]}}');
  };
  res.on('close', () => (sent = total));
  pump();
}

describe('verify against a hostile server', () => {
  it('reads an endless answer only to --max-answer-mb, and its peak memory stays near a plain run\'s', async () => {
    const plain = await startScriptedMcpServer((m, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'fine' }] } })));
    const huge = await startScriptedMcpServer((_m, res) => streamHugeJson(res, 512 * MB));
    try {
      const file = writeToolCallCapture(join(dir, 'huge.jsonl'), [{ tool: 'big', text: 'fine' }]);
      const baseline = await verify(file, plain.url);
      expect(baseline.code, baseline.out).toBe(0);
      const hostile = await verify(file, huge.url, ['--max-answer-mb', '8']);
      expect(hostile.code, hostile.out).toBe(1);
      expect(hostile.out).toContain('answer larger than 8 MB, not read whole (--max-answer-mb raises the limit)');
      // 512 MB were on offer; reading 8 of them costs tens of MB at most, never the answer's size.
      expect(hostile.peak).toBeGreaterThan(0);
      expect(hostile.peak - baseline.peak, `peak ${hostile.peak} MB against a plain run's ${baseline.peak} MB`).toBeLessThan(96);
    } finally {
      await plain.close();
      await huge.close();
    }
  });

  it('answers at most 100 server requests per call and says how many it left unanswered', async () => {
    const FLOOD = 1000;
    const server = await startScriptedMcpServer((m, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let events = '';
      for (let i = 0; i < FLOOD; i++) events += `data: ${JSON.stringify({ jsonrpc: '2.0', id: `flood-${String(m.id)}-${i}`, method: 'ping' })}\n\n`;
      res.write(events);
      res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'fine' }] } })}\n\n`);
    });
    try {
      const file = writeToolCallCapture(join(dir, 'flood.jsonl'), [1, 2, 3].map((i) => ({ tool: `t${i}`, text: 'fine' })));
      const run = await verify(file, server.url);
      expect(run.code, run.out).toBe(0);
      expect(server.calls).toBe(3);
      expect(server.replies).toBe(300);
      expect(run.out.match(/the server sent 900 more requests during the call than verify answers in one call \(100\); they were left unanswered/g)).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('ends a run against a server that never answers at --max-time: exit 2, the call in flight aborted, the rest not run', async () => {
    const open: ServerResponse[] = [];
    const server = await startScriptedMcpServer((_m, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': still thinking\n\n');
      open.push(res);
    });
    try {
      const file = writeToolCallCapture(join(dir, 'silent.jsonl'), [1, 2, 3].map((i) => ({ tool: `t${i}`, text: 'fine' })));
      // --timeout is far beyond any test's patience: only --max-time can end this run.
      const run = await verify(file, server.url, ['--timeout', '3600', '--max-time', '2']);
      expect(run.code, run.out).toBe(2);
      expect(server.calls).toBe(1);
      expect(run.out).toContain('not finished: the run reached --max-time');
      expect(run.out).toMatch(/not run: the run reached --max-time/);
      expect(run.out).toContain('not finished: the run reached --max-time 2 s: 3 call(s) did not finish');
    } finally {
      await server.close();
    }
  });
});
