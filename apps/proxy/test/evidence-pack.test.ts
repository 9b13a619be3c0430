// The evidence pack: a real failing call (an SDK server whose error leaks a bearer token and an
// api_key in a URL) through the tap, packed as Markdown and as HTML by GET /api/evidence, with a
// control replay against the same live server, and by `mcpscope evidence FILE` on the capture
// file (the CLI from source, as users run it). Each pack holds the verdict, every frame with the
// SHA-256 of the bytes it includes, the door records, and none of the planted secrets.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ExchangeDetail, ExchangesPage } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import type { EvidencePack } from '../src/evidence/evidence-document.js';
import { connectClient, settled } from './helpers.js';
import { spawnMcpscope, startTestMcpscope } from './support/mcpscope.js';
import { apiFetch, apiGet } from './support/api.js';
import { LEAKY_ERROR, PLANTED, startLeakyErrorServer, type LeakyErrorServer } from './support/leaky-error-server.js';
import { findSecrets } from './support/secret-scan.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpscope-evidence-'));
const db = join(dir, 'capture.db');
const CLIENT_TOKEN = 'sk-client-header-0a1b2c3d4e5f6789';
const planted = [PLANTED.bearer, PLANTED.apiKey, CLIENT_TOKEN];

let server: LeakyErrorServer;
let app: Mcpscope;
let client: Client;
let failedId: string;
let detail: ExchangeDetail;
let conversationKey: string;

beforeAll(async () => {
  server = await startLeakyErrorServer();
  app = await startTestMcpscope({ target: server.url, db });
  client = await connectClient(app.mcpUrl, { headers: { authorization: `Bearer ${CLIENT_TOKEN}` } });
  await client.callTool({ name: 'ping-report', arguments: {} });
  const failed = await client.callTool({ name: 'fetch-report', arguments: {} });
  expect(JSON.stringify(failed)).toContain(PLANTED.apiKey); // the server really leaks it
  await settled(app);
  const page = await apiGet<ExchangesPage>(app, `/api/exchanges?filter=${encodeURIComponent('tool:fetch-report')}`);
  failedId = page.exchanges[0]!.id;
  detail = await apiGet<ExchangeDetail>(app, `/api/exchanges/${failedId}`);
  conversationKey = app.store.session(detail.exchange.sessionKey)!.conversationKey!;
}, 60_000);

let closed = false;
async function closeApp(): Promise<void> {
  if (closed) return;
  closed = true;
  await client.close();
  await app.close();
}
afterAll(async () => {
  await closeApp();
  await server.close();
});

const sha256 = (text: string) => createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');

/** The JSON document a Markdown pack carries in its last fenced block. */
function jsonOfMarkdown(md: string): EvidencePack {
  const match = /## The pack as JSON\n\n(`{3,})json\n([\s\S]*)\n\1\n*$/.exec(md);
  expect(match, 'the Markdown pack ends with its JSON in a fenced block').not.toBeNull();
  return JSON.parse(match![2]!) as EvidencePack;
}

/** The JSON document an HTML pack carries in its last <pre>, unescaped. */
function jsonOfHtml(html: string): EvidencePack {
  const pres = [...html.matchAll(/<pre>([\s\S]*?)<\/pre>/g)];
  const text = pres[pres.length - 1]![1]!.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
  return JSON.parse(text) as EvidencePack;
}

async function download(path: string): Promise<{ text: string; res: Response }> {
  const res = await apiFetch(app, path);
  expect(res.status, await res.clone().text()).toBe(200);
  return { text: await res.text(), res };
}

/** What every pack of the failed call must hold: the verdict, every frame checksummed, the door records, no secret. */
function expectSoundPack(text: string, pack: EvidencePack): void {
  expect(findSecrets(text, planted)).toEqual([]);
  expect(detail.verdict).toBeDefined();
  const verdict = pack.verdicts.find((v) => v.exchangeId === failedId)?.verdict;
  expect(verdict).toMatchObject({ kind: detail.verdict!.kind, fault: detail.verdict!.fault, title: detail.verdict!.title });
  expect(verdict!.quote).toContain('[redacted]');
  expect(text).toContain(detail.verdict!.title);
  const seqs = pack.frames.filter((f) => f.role === 'original').map((f) => f.seq);
  expect(seqs).toEqual(expect.arrayContaining(detail.exchange.frameSeqs));
  for (const frame of pack.frames) {
    expect(frame.sha256).toBe(sha256(frame.raw));
    expect(frame.bytes).toBe(Buffer.byteLength(frame.raw, 'utf8'));
    expect(text).toContain(frame.sha256);
    const captured = app.store.frameRaw(frame.seq)!.raw;
    expect(frame.redacted).toBe(captured !== frame.raw);
  }
  // The error answer carried the secrets: its text in the pack is the redacted one, and says so.
  const answer = pack.frames.find((f) => f.seq === detail.exchange.responseSeq)!;
  expect(answer.redacted).toBe(true);
  expect(answer.raw).toContain('api_key=');
  expect(verdict!.evidence.doorRecordIds.length).toBeGreaterThan(0);
  expect(pack.doorRecords.map((r) => r.id)).toEqual(expect.arrayContaining(verdict!.evidence.doorRecordIds));
  const session = pack.sessions.find((s) => s.sessionKey === detail.exchange.sessionKey)!;
  expect(session.server.info).toMatchObject({ name: 'leaky-reports', version: '3.1.4' });
  expect(session.client.info).toBeDefined();
  expect(session.revision).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(pack.timeline.map((e) => e.id)).toContain(failedId);
  expect(pack.timings.find((t) => t.exchangeId === failedId)?.requests.length).toBeGreaterThan(0);
  expect(pack.redaction.enabled).toBe(true);
}

describe('GET /api/evidence', { timeout: 30_000 }, () => {
  it('Markdown (the default): verdict, frames with their SHA-256, door records, the JSON attached, no secret', async () => {
    const { text, res } = await download(`/api/evidence?exchange=${failedId}`);
    expect(res.headers.get('content-type')).toContain('text/markdown');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="mcpscope-evidence-exchange-${failedId}.md"`);
    expect(res.headers.get('x-mcpscope-redacted')).toBe('yes');
    const pack = jsonOfMarkdown(text);
    expectSoundPack(text, pack);
    expect(text).toContain('## Verdict');
    expect(text).toContain('changed by redaction');
  });

  it('HTML: one file that runs and loads nothing, every captured string escaped', async () => {
    const { text, res } = await download(`/api/evidence?exchange=${failedId}&format=html`);
    expect(res.headers.get('content-type')).toContain('text/html');
    expectSoundPack(text, jsonOfHtml(text));
    expect(text).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
    expect(text).not.toMatch(/<script/i);
    const tags = [...text.matchAll(/<[a-z][^>]*>/gi)].map((m) => m[0]);
    expect(tags.filter((t) => /\s(on[a-z]+|src|href|srcset|action|formaction)\s*=/i.test(t))).toEqual([]);
    expect(tags.filter((t) => /^<(link|img|iframe|object|embed|base|form|svg)\b/i.test(t))).toEqual([]);
  });

  it('unredacted on request: the secrets stay, and the pack says so', async () => {
    const { text } = await download(`/api/evidence?exchange=${failedId}&unredacted=1`);
    expect(text).toContain(PLANTED.apiKey);
    expect(text).toContain('UNREDACTED');
    expect(jsonOfMarkdown(text).redaction.enabled).toBe(false);
  });

  it('control replay: the failed call again in a fresh session against the same server, with the diff', async () => {
    const { text } = await download(`/api/evidence?exchange=${failedId}&format=html&replay=1`);
    const pack = jsonOfHtml(text);
    expect(pack.replay).toMatchObject({ status: 'done', replayOf: failedId, comparison: { verdict: 'same' } });
    expect(pack.replay!.exchange!.sessionKey).not.toBe(detail.exchange.sessionKey);
    expect(pack.frames.filter((f) => f.role === 'control-replay').map((f) => f.seq)).toEqual(expect.arrayContaining(pack.replay!.exchange!.frameSeqs));
    expect(findSecrets(text, planted)).toEqual([]);
    expect(text).toContain('Control replay');
  });

  it('a conversation: its timeline, its failed call\'s verdict, no secret', async () => {
    const { text } = await download(`/api/evidence?conversation=${conversationKey}`);
    const pack = jsonOfMarkdown(text);
    expect(pack.subject).toEqual({ kind: 'conversation', key: conversationKey });
    expect(pack.conversation?.key).toBe(conversationKey);
    expect(pack.verdicts.map((v) => v.exchangeId)).toContain(failedId);
    expect(pack.timeline.length).toBeGreaterThanOrEqual(3);
    expect(findSecrets(text, planted)).toEqual([]);
  });

  it('says what is wrong with a request, and is behind the token', async () => {
    expect((await apiFetch(app, '/api/evidence?exchange=99999')).status).toBe(404);
    expect((await apiFetch(app, '/api/evidence')).status).toBe(400);
    expect((await apiFetch(app, `/api/evidence?exchange=${failedId}&conversation=${conversationKey}`)).status).toBe(400);
    expect((await apiFetch(app, `/api/evidence?exchange=${failedId}&format=pdf`)).status).toBe(400);
    expect((await fetch(`${app.dashboardUrl}/api/evidence?exchange=${failedId}`)).status).toBe(401);
  });
});

describe('mcpscope evidence FILE', { timeout: 60_000 }, () => {
  beforeAll(closeApp);

  async function run(args: string[]) {
    const child = spawnMcpscope(['evidence', ...args]);
    const code = await child.exited;
    return { code, stdout: child.stdout(), stderr: child.stderr() };
  }

  it('writes the HTML pack of an exchange of a capture file, redacted', async () => {
    const out = join(dir, 'pack.html');
    const { code, stderr } = await run([db, '--exchange', failedId, '--format', 'html', '--out', out]);
    expect(code, stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(findSecrets(text, planted)).toEqual([]);
    const pack = jsonOfHtml(text);
    expect(pack.verdicts[0]?.verdict.title).toBe(detail.verdict!.title);
    for (const f of pack.frames) expect(f.sha256).toBe(sha256(f.raw));
    expect(pack.replay).toBeUndefined();
  });

  it('writes Markdown to stdout by default', async () => {
    const { code, stdout } = await run([db, '--exchange', failedId]);
    expect(code).toBe(0);
    expect(jsonOfMarkdown(stdout).subject).toEqual({ kind: 'exchange', id: failedId });
    expect(findSecrets(stdout, planted)).toEqual([]);
    expect(stdout).not.toContain(LEAKY_ERROR);
  });

  it('exit 2 with the reason: an unknown id, a file that is not a capture, no subject, --replay', async () => {
    const unknown = await run([db, '--exchange', '424242']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no exchange "424242"');
    const notCapture = join(dir, 'notes.txt');
    writeFileSync(notCapture, 'hello');
    const bad = await run([notCapture, '--exchange', failedId]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a capture database');
    const missing = await run([join(dir, 'nope.db'), '--exchange', failedId]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
    const neither = await run([db]);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('--exchange ID or one --conversation KEY');
    const replay = await run([db, '--exchange', failedId, '--replay']);
    expect(replay.code).toBe(2);
    expect(replay.stderr).toContain('needs the live server');
  });
});
