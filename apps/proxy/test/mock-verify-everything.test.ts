// A capture becomes a test, against real parts: the official SDK client's full session with
// server-everything (Streamable HTTP) captured through the tap into a capture file; `mock` serves
// that file and the same SDK session against it gets the same answers; `verify` replays the file
// against server-everything (all equal, exit 0) and against a deliberately changed server
// (exactly the changed rows regress, exit 1, listed in the JUnit report).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runVerify } from '../src/commands/verify.js';
import { startMock } from '../src/compose/start-mock.js';
import { settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { startAlteredUpstream } from './support/altered-upstream.js';
import { startEverything } from './support/everything.js';
import { sharedUpstream } from './support/proxy-fixture.js';
import { exercise, newClient } from './support/scenario.js';

const everything = sharedUpstream(() => startEverything('streamableHttp'));
const dir = mkdtempSync(join(tmpdir(), 'mcpscope-mockverify-'));
const captureFile = join(dir, 'capture.db');
let expected: Awaited<ReturnType<typeof session>>;

/** The SDK client's session: server-everything's exercise plus a tool with structured content. */
async function session(url: string) {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = newClient();
  await client.connect(transport);
  const seen = await exercise(client);
  const structured = (await client.callTool({ name: 'get-structured-content', arguments: { location: 'New York' } })).structuredContent;
  await transport.terminateSession();
  await client.close();
  return { ...seen, structured };
}

function collect() {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

async function verify(args: string[]) {
  const out = collect();
  const err = collect();
  const code = await runVerify([captureFile, ...args], { stdout: out.stream, stderr: err.stream });
  return { code, stdout: out.text(), stderr: err.text() };
}

beforeAll(async () => {
  const app = await startTestMcpscope({ target: everything.upstream.url, db: captureFile });
  expected = await session(app.mcpUrl);
  await settled(app);
  await app.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('mcpscope mock', () => {
  it('serves the capture so that the same SDK session completes with the same answers', async () => {
    const started = await startMock({ file: captureFile, port: 0 });
    if (!started.ok) throw new Error(started.message);
    const mock = started.value;
    try {
      expect(mock.paths).toEqual(['/mcp']);
      expect(new URL(mock.mcpUrl).pathname).toBe('/mcp');
      const got = await session(mock.mcpUrl);
      expect(got).toEqual(expected);
      // The progress and the sampling round trip came from the capture, in order, on the call's stream.
      expect(got.progress).toEqual([1, 2, 3]);
      expect(got.sampling).toContain('sampled: Resource trigger-sampling-request context: a haiku');
    } finally {
      await mock.close();
    }
  });

  it('answers an uncaptured request with an error that names it and the nearest captured call', async () => {
    const started = await startMock({ file: captureFile, port: 0 });
    if (!started.ok) throw new Error(started.message);
    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(started.value.mcpUrl)));
    try {
      await expect(client.callTool({ name: 'echo', arguments: { message: 'never captured' } })).rejects.toThrow(/no captured tools\/call "echo" with these params.*differs at \$\.params\.arguments\.message/);
      await expect(client.listResourceTemplates()).rejects.toThrow(/the capture holds no resources\/templates\/list request/);
    } finally {
      await client.close();
      await started.value.close();
    }
  });

  it('with --match loose answers the same tool whatever its arguments', async () => {
    const started = await startMock({ file: captureFile, port: 0, mode: 'loose' });
    if (!started.ok) throw new Error(started.message);
    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(started.value.mcpUrl)));
    try {
      const result = await client.callTool({ name: 'echo', arguments: { message: 'never captured' } });
      expect(JSON.stringify(result.content)).toContain(expected.echo);
    } finally {
      await client.close();
      await started.value.close();
    }
  });

  it('with --record puts a tap in front: the mock traffic is captured too', async () => {
    const started = await startMock({ file: captureFile, port: 0, uiPort: 0, record: true });
    if (!started.ok) throw new Error(started.message);
    const mock = started.value;
    try {
      expect(mock.mcpUrl).not.toBe(mock.mockUrl);
      await session(mock.mcpUrl);
      await settled(mock.recorder!);
      const calls = mock.recorder!.store.exchanges(1000).filter((e) => e.method === 'tools/call');
      expect(calls.map((e) => e.target).sort()).toEqual(['echo', 'get-structured-content', 'get-sum', 'trigger-elicitation-request', 'trigger-long-running-operation', 'trigger-sampling-request']);
      expect(calls.every((e) => e.status === 'ok')).toBe(true);
    } finally {
      await mock.close();
    }
  });
});

describe('mcpscope verify', () => {
  it('against the same server: every row equal, exit 0', async () => {
    const report = join(dir, 'same.json');
    const run = await verify(['--target', everything.upstream.url, '--report', report]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const json = JSON.parse(readFileSync(report, 'utf8')) as { summary: Record<string, number>; rows: { method: string; verdict: string }[] };
    expect(json.summary).toMatchObject({ regressed: 0, failing: 0, error: 0 });
    expect(json.rows.length).toBeGreaterThan(12);
    expect(json.rows.every((r) => r.verdict === 'same')).toBe(true);
    expect(run.stdout).toMatch(/\d+ calls, \d+ same, 0 regressed/);
  });

  it('against a changed server: exactly the changed rows regress, exit 1, the JUnit file lists them', async () => {
    const altered = await startAlteredUpstream(everything.upstream.url, {
      'get-structured-content': {
        rewrite: (result) => {
          const { temperature, ...rest } = result.structuredContent as Record<string, unknown>;
          return { ...result, structuredContent: { ...rest, temp: temperature } };
        },
      },
      'get-sum': { error: { code: -32603, message: 'get-sum broke in this release' } },
    });
    try {
      const junit = join(dir, 'changed.xml');
      const run = await verify(['--target', altered.url, '--report', junit]);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/get-structured-content .*REGRESSED\s+shape \$\.result\.structuredContent\.temperature/);
      expect(run.stdout).toMatch(/tools\/call get-sum\s+ok\s+protocol error\s+REGRESSED/);
      expect(run.stdout).toMatch(/, 2 regressed/);
      const xml = readFileSync(junit, 'utf8');
      expect(xml.match(/<failure /g)).toHaveLength(2);
      expect(xml).toMatch(/<testcase name="#\d+ tools\/call get-structured-content"[^>]*>\s*<failure message="regressed: before: ok, after: ok; shape \$\.result\.structuredContent\.temperature/);
      expect(xml).toMatch(/<testcase name="#\d+ tools\/call get-sum"[^>]*>\s*<failure message="regressed: before: ok, after: protocol_error; error -32603: get-sum broke in this release"/);
      expect(xml).toMatch(/<testsuites [^>]*failures="2" errors="0"/);
    } finally {
      await altered.close();
    }
  });

  it('a field the server added is "changed (additive)": exit 0, JUnit passes it; --strict fails it', async () => {
    const added = await startAlteredUpstream(everything.upstream.url, {
      'get-structured-content': { rewrite: (result) => ({ ...result, structuredContent: { ...(result.structuredContent as Record<string, unknown>), airQuality: 'good' } }) },
    });
    try {
      const junit = join(dir, 'additive.xml');
      const run = await verify(['--target', added.url, '--only', 'tool:get-structured-content', '--report', junit]);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/get-structured-content .*CHANGED \(ADDITIVE\)\s+shape \$\.result\.structuredContent\.airQuality: \(missing\) → "good"/);
      expect(run.stdout).toMatch(/1 changed \(additive\), 0 regressed/);
      const xml = readFileSync(junit, 'utf8');
      expect(xml).not.toMatch(/<failure /);
      expect(xml).toMatch(/<system-out>changed \(additive\): before: ok, after: ok; shape \$\.result\.structuredContent\.airQuality/);
      const strict = await verify(['--target', added.url, '--only', 'tool:get-structured-content', '--strict']);
      expect(strict.code).toBe(1);
      expect(strict.stdout).toMatch(/get-structured-content .*REGRESSED\s+shape \$\.result\.structuredContent\.airQuality/);
    } finally {
      await added.close();
    }
  });

  it('--only picks the calls, --expect ok asks that they now succeed', async () => {
    const fixed = await verify(['--target', everything.upstream.url, '--only', 'tool:get-sum', '--expect', 'ok']);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toMatch(/^1 calls, 1 same, 0 regressed/m);
    const broken = await startAlteredUpstream(everything.upstream.url, { 'get-sum': { error: { code: -32603, message: 'still broken' } } });
    try {
      const failing = await verify(['--target', broken.url, '--only', 'tool:get-sum', '--expect', 'ok']);
      expect(failing.code).toBe(1);
      expect(failing.stdout).toMatch(/tools\/call get-sum\s+ok\s+protocol error\s+FAILING/);
    } finally {
      await broken.close();
    }
  });

  it('against the mock of the same capture: every row equal (server requests answered as captured, both ways)', async () => {
    const started = await startMock({ file: captureFile, port: 0, speed: 0 });
    if (!started.ok) throw new Error(started.message);
    try {
      const run = await verify(['--target', started.value.mcpUrl]);
      expect(run.stdout).toMatch(/tools\/call trigger-sampling-request\s+ok\s+ok\s+SAME/);
      expect(run.code).toBe(0);
    } finally {
      await started.value.close();
    }
  });

  it('says it could not run (exit 2) when the target is down or the filter selects nothing', async () => {
    const down = await verify(['--target', 'http://127.0.0.1:9/mcp']);
    expect(down.code).toBe(2);
    expect(down.stdout).toMatch(/could not run: http:\/\/127\.0\.0\.1:9\/mcp is unreachable \(unreachable: ECONNREFUSED/);
    const none = await verify(['--target', everything.upstream.url, '--only', 'tool:nothing-like-this']);
    expect(none.code).toBe(2);
    expect(none.stdout).toContain('could not run: the --only filter selects no call of the capture');
  });
});
