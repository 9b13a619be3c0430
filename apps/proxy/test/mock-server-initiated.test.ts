// What the server says on its own, through the mock: the official SDK client's full session
// against server-everything (full-session.ts: roots, sampling, elicitation, logging,
// subscriptions, progress, completion, prompts, resources, tools) captured through the tap, then
// the same session against `mcpscope mock` of that capture. It completes with the same answers
// and receives the same server-started messages: roots/list after notifications/initialized and
// again after roots/list_changed, log messages on the session's stream, the resource update after
// the subscribe. Streamable HTTP (the standalone GET stream) and legacy HTTP+SSE (the session
// stream). server-everything speaks up to 2025-11-25; the stateless 2026-07-28 era has no
// session stream (its server traffic rides on calls: mock-verify-modern.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerify } from '../src/commands/verify.js';
import { startMock } from '../src/compose/start-mock.js';
import { settled } from './helpers.js';
import { startEverything } from './support/everything.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { fullSession, SUBSCRIBED_URI, type FullSessionResult } from './support/full-session.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpscope-pushes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const captures = new Map<string, ReturnType<typeof capture>>();
/** One capture per transport for the whole file. */
function captured(mode: 'streamableHttp' | 'sse'): ReturnType<typeof capture> {
  let done = captures.get(mode);
  if (!done) captures.set(mode, (done = capture(mode)));
  return done;
}

async function capture(mode: 'streamableHttp' | 'sse'): Promise<{ file: string; expected: FullSessionResult }> {
  const everything = await startEverything(mode);
  const file = join(dir, `${mode}.db`);
  const app = await startTestMcpscope({ target: everything.url, db: file });
  try {
    const expected = await fullSession(app.mcpUrl, mode === 'sse' ? 'sse' : 'streamable');
    await settled(app);
    return { file, expected };
  } finally {
    await app.close();
    await everything.close();
  }
}

describe.each([
  ['Streamable HTTP', 'streamableHttp', 'streamable'],
  ['legacy HTTP+SSE', 'sse', 'sse'],
] as const)('mcpscope mock replays what the server sent on its own (%s)', (_name, mode, kind) => {
  let file = '';
  let expected: FullSessionResult;
  beforeAll(async () => {
    ({ file, expected } = await captured(mode));
  });

  it('the SDK session completes against the mock: same answers, same server-started messages', async () => {
    expect(expected.serverMessages.filter((m) => m.includes('"roots/list"'))).toHaveLength(2);
    expect(expected.serverMessages.some((m) => m.includes('notifications/resources/updated') && m.includes(SUBSCRIBED_URI))).toBe(true);
    const lines: string[] = [];
    const started = await startMock({ file, port: 0, speed: 0, log: (line) => lines.push(line) });
    if (!started.ok) throw new Error(started.message);
    try {
      const got = await fullSession(started.value.mcpUrl, kind);
      expect(got.completed).toEqual(expected.completed);
      if (kind === 'sse') {
        // Over HTTP+SSE the SDK client hands notifications on a tick after the answers of the same
        // chunk, so it counts only the progress that came well before the answer (captured run
        // included); the progress messages themselves are compared below, with every other one.
        delete got.answers.progress;
        delete expected.answers.progress;
      }
      expect(got.answers).toEqual(expected.answers);
      // Same messages; across streams the order of two pushes is not the wire's to keep.
      expect([...got.serverMessages].sort()).toEqual([...expected.serverMessages].sort());
      expect(lines.filter((l) => l.startsWith('✗') || l.startsWith('!'))).toEqual([]);
    } finally {
      await started.value.close();
    }
  });
});

describe('mcpscope verify of that capture', () => {
  it('answers the server-started roots/list on the session stream as the captured client did', async () => {
    const { file } = await captured('streamableHttp');
    const started = await startMock({ file, port: 0, uiPort: 0, speed: 0, record: true });
    if (!started.ok) throw new Error(started.message);
    try {
      const stdout = new Writable({ write: (_c, _e, done) => done() });
      expect(await runVerify([file, '--target', started.value.mcpUrl], { stdout, stderr: stdout })).toBe(0);
      await settled(started.value.recorder!);
      // The first roots/list follows notifications/initialized (the one after the session's last
      // step, roots/list_changed, may meet the session's end).
      const [first] = started.value.recorder!.store.exchanges(1000).filter((e) => e.method === 'roots/list').sort((a, b) => a.requestSeq! - b.requestSeq!);
      expect(first?.status).toBe('ok');
      const reply = JSON.parse(started.value.recorder!.store.frameRaw(first!.responseSeq!)!.raw) as { result: unknown };
      expect(reply.result).toEqual({ roots: [{ uri: 'file:///work/project', name: 'project' }] });
    } finally {
      await started.value.close();
    }
  });
});
