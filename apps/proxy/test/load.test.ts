// `mcpscope load`: a capture's client traffic as a load test, against real parts. The SDK
// client's session with server-everything captured through the tap, replayed by virtual clients:
// the counts add up (every row a whole number of passes, the rows and outcomes summing to the
// total). Against a small server of our own that errs by percentage, every outcome class
// appears, and the exit code follows --max-errors. Answers framed every way HTTP/1.1 allows
// (chunked, close-delimited, Connection: close, an SSE stream) are read whole. Bad input says why it could not run; an
// interrupt prints the table of what was measured; --record captures the load's own traffic.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runLoadCommand } from '../src/commands/load.js';
import { readCassette } from '../src/compose/capture-file.js';
import { settled } from './helpers.js';
import { apiFetch } from './support/api.js';
import { startEverything } from './support/everything.js';
import { freePort } from './support/free-port.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { sharedUpstream } from './support/proxy-fixture.js';
import { exercise, newClient } from './support/scenario.js';
import { startScriptedMcpServer, type ScriptedServer } from './support/scripted-mcp-server.js';

const everything = sharedUpstream(() => startEverything('streamableHttp'));
const dir = mkdtempSync(join(tmpdir(), 'mcpscope-load-'));
const everythingCapture = join(dir, 'everything.jsonl');
const flakyCapture = join(dir, 'flaky.jsonl');
/** Captured calls per row of the everything capture's one session. */
let capturedCounts: Record<string, number> = {};

/** Out of every ten tools/call answers: 6 ok, 2 protocol errors, 1 business error, 1 cut connection. */
let faulty = false;
let answered = 0;
let flaky: ScriptedServer;

interface Report {
  ended: string;
  errorRatePercent: number;
  total: { count: number; errors: number; outcomes: Record<string, number> };
  rows: { call: string; count: number; outcomes: Record<string, number>; latencyMs: { p50: number; max: number }; differences: unknown[] }[];
}

async function load(args: string[], signal?: AbortSignal) {
  let stdout = '';
  let stderr = '';
  const code = await runLoadCommand(args, { stdout: new Writable({ write: (c, _e, done) => ((stdout += String(c)), done()) }), stderr: new Writable({ write: (c, _e, done) => ((stderr += String(c)), done()) }) }, signal);
  return { code, stdout, stderr };
}

/** A session through the tap (in memory), kept as the JSONL export a user would load. */
async function captureThrough(target: string, file: string, session: (url: string) => Promise<void>): Promise<void> {
  const app = await startTestMcpscope({ target });
  try {
    await session(app.mcpUrl);
    await settled(app);
    writeFileSync(file, await (await apiFetch(app, '/api/export?format=jsonl')).text());
  } finally {
    await app.close();
  }
}

beforeAll(async () => {
  await captureThrough(everything.upstream.url, everythingCapture, async (url) => {
    const transport = new StreamableHTTPClientTransport(new URL(url));
    const client = newClient();
    await client.connect(transport);
    await exercise(client);
    await transport.terminateSession();
    await client.close();
  });
  const read = readCassette(everythingCapture);
  if (!read.ok) throw new Error(read.message);
  capturedCounts = {};
  for (const call of read.cassette.calls) {
    const key = call.method === 'tools/call' ? `tools/call ${call.target}` : call.method;
    capturedCounts[key] = (capturedCounts[key] ?? 0) + 1;
  }
  flaky = await startScriptedMcpServer((message, res) => {
    const slot = faulty ? answered++ % 10 : 0;
    if (slot === 9) return void res.destroy();
    const answer = slot >= 6 && slot <= 7 ? { error: { code: -32603, message: 'flaky: internal error' } } : { result: { content: [{ type: 'text', text: 'flaky answer' }], ...(slot === 8 ? { isError: true } : {}) } };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...answer }));
  });
  await captureThrough(flaky.url, flakyCapture, async (url) => {
    const client = new Client({ name: 'load-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    await client.callTool({ name: 'flaky', arguments: {} });
    await client.close();
  });
  faulty = true;
});

afterAll(async () => {
  await flaky?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('mcpscope load against server-everything', () => {
  it('the counts add up: whole passes per row at concurrency 1, the total at concurrency 4', async () => {
    const perPass = Object.values(capturedCounts).reduce((a, b) => a + b, 0);
    const reportFile = join(dir, 'passes.json');
    const run = await load([everythingCapture, '--target', everything.upstream.url, '--requests', String(3 * perPass), '--concurrency', '1', '--report', reportFile]);
    expect(run.stderr).not.toMatch(/could not run/);
    expect(run.code).toBe(0);
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
    expect(report.ended).toBe('requests');
    expect(Object.fromEntries(report.rows.map((r) => [r.call, r.count]))).toEqual(Object.fromEntries(Object.entries(capturedCounts).map(([k, v]) => [k, 3 * v])));
    expect(report.total.outcomes).toEqual({ ok: 3 * perPass, protocol_error: 0, business_error: 0, transport_error: 0 });
    expect(run.stdout).toMatch(/^tools\/call trigger-sampling-request\s+3\s/m);
    expect(run.stdout).toMatch(new RegExp(`^all\\s+${3 * perPass}\\s`, 'm'));

    const wide = join(dir, 'wide.json');
    expect((await load([everythingCapture, '--target', everything.upstream.url, '--requests', '40', '--concurrency', '4', '--report', wide])).code).toBe(0);
    const four = JSON.parse(readFileSync(wide, 'utf8')) as Report;
    expect(four.total.count).toBe(40);
    expect(four.rows.reduce((n, r) => n + r.count, 0)).toBe(40);
    for (const r of four.rows) expect(Object.values(r.outcomes).reduce((a, b) => a + b, 0)).toBe(r.count);
  });

  it('--record sends the load through a tap of its own: its calls are a capture', async () => {
    const db = join(dir, 'recorded.db');
    const run = await load([everythingCapture, '--target', everything.upstream.url, '--record', '--db', db, '--requests', '10', '--concurrency', '1']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`captured in ${db}`);
    const recorded = readCassette(db);
    if (!recorded.ok) throw new Error(recorded.message);
    expect(recorded.cassette.calls).toHaveLength(10);
  });
});

describe('mcpscope load against a server that errs by percentage', () => {
  it('every outcome class appears, the first differing answers are named, and --max-errors decides the exit code', async () => {
    const reportFile = join(dir, 'flaky.json');
    answered = 0;
    // One virtual client at a time: 100 whole sessions (initialize, then the call), so 100 calls.
    const run = await load([flakyCapture, '--target', flaky.url, '--requests', '200', '--concurrency', '1', '--report', reportFile]);
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
    const calls = report.rows.find((r) => r.call === 'tools/call flaky')!;
    expect(calls.count).toBe(100);
    expect(calls.outcomes).toEqual({ ok: 60, protocol_error: 20, business_error: 10, transport_error: 10 });
    expect(report.total.errors).toBe(40);
    expect(report.errorRatePercent).toBe(20);
    expect(calls.differences.length).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/^tools\/call flaky\s+100\s.*\s60\s+20\s+10\s+10$/m);
    expect(run.stdout).toMatch(/First answers that differ from the captured ones:\n\s+tools\/call flaky \(captured exchange \d+\): /);
    expect(run.code).toBe(1);
    expect((await load([flakyCapture, '--target', flaky.url, '--requests', '20', '--max-errors', '25'])).code).toBe(0);
  });

  it('an interrupt stops the run and prints the table of what was measured (exit 130)', async () => {
    const interrupt = new AbortController();
    const before = flaky.calls;
    const watch = setInterval(() => flaky.calls - before >= 20 && interrupt.abort(), 5);
    try {
      const run = await load([flakyCapture, '--target', flaky.url, '--duration', '60s', '--concurrency', '2', '--max-errors', '100'], interrupt.signal);
      expect(run.code).toBe(130);
      expect(run.stdout).toMatch(/^tools\/call flaky\s+\d+\s/m);
      expect(run.stdout).toContain('INTERRUPTED: the table holds what was measured until then');
    } finally {
      clearInterval(watch);
    }
  });
});

describe('mcpscope load reads answers however HTTP/1.1 frames them', () => {
  it('chunked, close-delimited, Content-Length with Connection: close, and an SSE stream: every call ok', async () => {
    let slot = 0;
    const framed = await startScriptedMcpServer((message, res) => {
      const text = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'flaky answer' }] } });
      const half = Math.floor(text.length / 2);
      switch (slot++ % 4) {
        case 0:
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write(text.slice(0, half));
          return void res.end(text.slice(half));
        case 1:
          res.useChunkedEncodingByDefault = false;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write(text.slice(0, half));
          return void res.end(text.slice(half));
        case 2:
          return void res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), connection: 'close' }).end(text);
        default:
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(`event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}\n\n`);
          return void res.end(`event: message\ndata: ${text}\n\n`);
      }
    });
    try {
      const reportFile = join(dir, 'framed.json');
      const run = await load([flakyCapture, '--target', framed.url, '--requests', '80', '--concurrency', '4', '--report', reportFile]);
      expect(run.code).toBe(0);
      const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
      expect(report.total.outcomes).toEqual({ ok: 80, protocol_error: 0, business_error: 0, transport_error: 0 });
      const calls = report.rows.find((r) => r.call === 'tools/call flaky')!;
      expect(calls.count).toBeGreaterThanOrEqual(36);
      expect(framed.calls).toBe(calls.count);
    } finally {
      await framed.close();
    }
  });
});

describe('mcpscope load refuses what it cannot run (exit 2)', () => {
  it('a capture without client traffic, a target that refuses connections, a target that redirects', async () => {
    const handshakeOnly = join(dir, 'handshake.jsonl');
    await captureThrough(flaky.url, handshakeOnly, async (url) => {
      const client = new Client({ name: 'idle', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      await client.close();
    });
    const idle = await load([handshakeOnly, '--target', flaky.url]);
    expect(idle.code).toBe(2);
    expect(idle.stderr).toMatch(/could not run: .*handshake\.jsonl: the capture holds no client traffic to replay/);

    const refused = await load([flakyCapture, '--target', `http://127.0.0.1:${await freePort()}/mcp`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/could not run: http:\/\/127\.0\.0\.1:\d+\/mcp refuses connections \(ECONNREFUSED/);

    const mover = createServer((_req, res) => res.writeHead(307, { location: 'https://elsewhere.example/mcp' }).end());
    await new Promise<void>((resolve) => mover.listen(0, '127.0.0.1', resolve));
    try {
      const moved = await load([flakyCapture, '--target', `http://127.0.0.1:${(mover.address() as AddressInfo).port}/mcp`]);
      expect(moved.code).toBe(2);
      expect(moved.stderr).toMatch(/answers with a redirect \(HTTP 307\) to https:\/\/elsewhere\.example\/mcp; load does not follow redirects/);
    } finally {
      mover.closeAllConnections();
      await new Promise((resolve) => mover.close(resolve));
    }
  });
});
