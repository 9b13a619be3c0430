// The 2026-07-28 stateless era through mock and verify, with the official SDK v2 on both ends:
// a pinned-2026-07-28 client session (per-request _meta, progress on the request's stream, a
// multi-round-trip elicitation and its retry) captured through the tap, served back by the mock
// to the same client with the same answers, and verified against the live server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runVerify } from '../src/commands/verify.js';
import { startMock } from '../src/compose/start-mock.js';
import { settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { modernSession, startModernServer } from './support/modern-server.js';
import { sharedUpstream } from './support/proxy-fixture.js';

const upstream = sharedUpstream(startModernServer);
const dir = mkdtempSync(join(tmpdir(), 'mcpscope-modern-'));
const captureFile = join(dir, 'modern.db');
let expected: Awaited<ReturnType<typeof modernSession>>;

beforeAll(async () => {
  const app = await startTestMcpscope({ target: upstream.upstream.url, db: captureFile });
  expected = await modernSession(app.mcpUrl);
  await settled(app);
  const sessions = app.store.sessions();
  expect(sessions.map((s) => [s.era, s.protocolVersion])).toEqual([['modern', '2026-07-28']]);
  await app.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the 2026-07-28 era', () => {
  it('mock: the SDK v2 client gets the same answers, stateless, with progress and the retried elicitation', async () => {
    expect(expected.deploy).toEqual([{ type: 'text', text: 'deployed to staging' }]);
    expect(expected.progress).toEqual([1, 2, 3]);
    const started = await startMock({ file: captureFile, port: 0 });
    if (!started.ok) throw new Error(started.message);
    try {
      const got = await modernSession(started.value.mcpUrl);
      expect(got).toEqual(expected);
      // Nothing opened a session: every request was answered on its own.
      const res = await fetch(started.value.mcpUrl, { method: 'GET', headers: { accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
    } finally {
      await started.value.close();
    }
  });

  it('verify: every row equal against the live server, the retry carrying the live requestState', async () => {
    let out = '';
    const stdout = new Writable({ write: (c, _e, done) => ((out += String(c)), done()) });
    const code = await runVerify([captureFile, '--target', upstream.upstream.url], { stdout, stderr: stdout });
    expect(out).toMatch(/tools\/call deploy\s+ok\s+ok\s+SAME/);
    expect(out).not.toMatch(/REGRESSED|ERROR/);
    expect(code).toBe(0);
  });
});
