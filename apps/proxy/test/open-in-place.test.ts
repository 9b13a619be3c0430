// `mcpscope open FILE` reads a capture database where it is, read-only: a session in its dashboard
// API leaves the file's bytes, its modification time and its directory as they were; what would
// write or send is refused, saying so. An export is imported into a temporary capture file that
// is gone once mcpscope exits. A file that cannot be shown says what is wrong with it (an older
// one is refused, not upgraded); one another mcpscope is recording is read alongside it.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangesPage, SessionSummary } from '@mcpscope/protocol';
import { CaptureStore } from '../src/capture/capture-store.js';
import { CapturePipeline } from '../src/capture/capture-pipeline.js';
import { InterceptTables } from '../src/capture/intercept-tables.js';
import { MIGRATIONS, READS_FROM_SCHEMA, SCHEMA_VERSION } from '../src/capture/migrations.js';
import { openSqlite } from '../src/capture/sqlite.js';
import { openCapture } from '../src/compose/open-capture.js';
import type { OpenReadyLine } from '../src/commands/open.js';
import { api, apiFetch, apiGet } from './support/api.js';
import { spawnMcpscope, type McpscopeChild } from './support/mcpscope.js';
import { tempDbFile, traffic } from './store-helpers.js';

/** The pipeline a live capture writes `file` with (its engine in process: no thread to start). */
function recorder(file: string): { store: CaptureStore; pipeline: CapturePipeline } {
  const store = new CaptureStore(file);
  return { store, pipeline: new CapturePipeline(store, {}, undefined, undefined, { engine: 'in-process' }) };
}

/** A capture file as a live capture leaves it (closed), with `frames` of traffic(). */
function recorded(file: string, frames = traffic()): void {
  const { store, pipeline } = recorder(file);
  for (const f of frames) pipeline.record(f);
  // The rule set a live capture saves beside its frames.
  new InterceptTables(store.db).saveRule({ id: 'r1', text: 'tool:search => delay 5s', enabled: true, hits: 2 });
  pipeline.close();
  store.close();
}

/** What a look at the file would notice: its bytes, its modification time, and what lies beside it. */
function fingerprint(file: string): { sha256: string; mtimeMs: number; beside: string[] } {
  return { sha256: createHash('sha256').update(readFileSync(file)).digest('hex'), mtimeMs: statSync(file).mtimeMs, beside: readdirSync(dirname(file)).sort() };
}

async function openedChild(file: string): Promise<{ child: McpscopeChild; ready: OpenReadyLine }> {
  const child = spawnMcpscope(['open', file, '--ui-port', '0', '--no-open', '--ready-json']);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const line = child.stdout().split('\n').slice(0, -1).find((l) => l.startsWith('{"mcpscope":"ready"'));
    if (line) return { child, ready: JSON.parse(line) as OpenReadyLine };
    if (child.child.exitCode !== null || Date.now() > deadline) {
      await child.kill9();
      throw new Error(`mcpscope open did not say it was ready:\n${child.output()}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('mcpscope open FILE', () => {
  const file = tempDbFile();
  let jsonl = '';
  beforeAll(() => recorded(file));

  it('shows a capture database in place and leaves it exactly as it was', async () => {
    const before = fingerprint(file);
    const { child, ready } = await openedChild(file);
    const app = { dashboardUrl: ready.dashboardUrl, token: ready.token };
    try {
      expect(ready.importedInto).toBeUndefined();
      expect(child.stdout()).toMatch(/Capture file: +\d+ frames in 2 session\(s\)/);
      const page = await apiGet<ExchangesPage>(app, '/api/exchanges?limit=500');
      expect(page.exchanges.filter((e) => e.method === 'tools/call')).toHaveLength(38);
      // Read where it is: the sessions keep their own keys.
      expect((await apiGet<{ sessions: SessionSummary[] }>(app, '/api/sessions')).sessions.map((s) => s.sessionKey).sort()).toEqual(['s1', 's2']);
      expect(await apiGet(app, '/api/capture')).toMatchObject({ readOnly: { file: 'capture.db' } });
      // The rules the capture ran are shown, never run: adding one is refused.
      expect(await apiGet(app, '/api/intercept')).toMatchObject({ live: false, rules: [{ id: 'r1', text: 'tool:search => delay 5s', hits: 2, action: 'delay' }], held: [] });
      expect((await api(app, '/api/intercept/rules', { text: 'tool:x => drop' })).status).toBe(409);
      jsonl = await (await apiFetch(app, '/api/export?format=jsonl')).text();
      // What would write to the file or send from it is refused, saying why.
      for (const [path, body] of [['/api/marks', { label: 'here' }], ['/api/capture/pause', {}], ['/api/replay', { exchangeId: page.exchanges[0]!.id, mode: 'fresh', message: { jsonrpc: '2.0', id: 1, method: 'ping' } }]] as const) {
        const refused = await api<{ error: { code: string; message: string } }>(app, path, body);
        expect([path, refused.status, refused.body.error.code]).toEqual([path, 409, 'read_only']);
        expect(refused.body.error.message).toContain('read-only (mcpscope open)');
      }
      // The Drive panel's routes are there to say why nothing can be driven, never a 404.
      for (const [method, path] of [['POST', '/api/drive/own'], ['POST', '/api/drive/send'], ['GET', '/api/drive/lists?session=s1'], ['GET', '/api/drive/answers'], ['PUT', '/api/drive/answers']] as const) {
        const refused = await apiFetch(app, path, { method, ...(method === 'GET' ? {} : { body: '{}' }) });
        const body = (await refused.json()) as { error: { code: string; message: string } };
        expect([method, path, refused.status, body.error.code]).toEqual([method, path, 409, 'read_only']);
        expect(body.error.message).toBe('This capture is opened read-only (mcpscope open): there is no live server to drive. To call its tools, run mcpscope --target URL (the server) and use Drive in that dashboard.');
      }
      // Replay's reads answer from the file as a live dashboard's do (the composer's tool list, an
      // exchange's links), and no server request ever waits for an answer there.
      expect(await apiGet(app, '/api/replay/tools?session=s1')).toEqual({ tools: [{ name: 'suggest_gifts', inputSchema: { type: 'object', properties: { budget: { type: 'number' } }, required: ['budget'] } }] });
      expect(await apiGet(app, `/api/replay/links/${page.exchanges[0]!.id}`)).toEqual({ replays: [] });
      expect(await apiGet(app, '/api/replay/inputs')).toEqual({ inputs: [] });
      const imported = await apiFetch(app, '/api/import?name=more.jsonl', { method: 'POST', body: jsonl });
      expect(imported.status).toBe(409);
      expect(((await imported.json()) as { error: { message: string } }).error.message).toContain('an import would write to it');
    } finally {
      await child.stop();
    }
    expect(await child.exited).toBe(0);
    expect(fingerprint(file)).toEqual(before);
  });

  it('imports an export into a temporary capture file, gone once it exits', async () => {
    const exported = join(dirname(file), 'shared.jsonl');
    writeFileSync(exported, jsonl);
    const { child, ready } = await openedChild(exported);
    try {
      expect(ready.importedInto).toBeDefined();
      expect(existsSync(ready.importedInto!)).toBe(true);
      const page = await apiGet<ExchangesPage>({ dashboardUrl: ready.dashboardUrl, token: ready.token }, '/api/exchanges?limit=500');
      expect(page.exchanges.filter((e) => e.method === 'tools/call')).toHaveLength(38);
      expect(page.exchanges.every((e) => e.sessionKey.startsWith('import:shared.jsonl:'))).toBe(true);
    } finally {
      await child.stop();
    }
    expect(existsSync(dirname(ready.importedInto!))).toBe(false);
  });

  it('says what is wrong with a file it cannot show, and never upgrades an older one', async () => {
    const dir = dirname(file);
    const write = (name: string, content: string | Buffer) => {
      writeFileSync(join(dir, name), content);
      return join(dir, name);
    };
    const database = (name: string, sql: string, version: number) => {
      const db = openSqlite(join(dir, name));
      db.exec(sql);
      db.pragma(`user_version = ${version}`);
      db.close();
      return join(dir, name);
    };
    const older = database('older.db', MIGRATIONS.slice(0, READS_FROM_SCHEMA - 1).join(';\n'), READS_FROM_SCHEMA - 1);
    const olderBefore = fingerprint(older).sha256;
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    const cases: [string, string][] = [
      [join(dir, 'missing.db'), 'no such file'],
      [folder, 'is a directory, not a capture file'],
      [write('empty.db', ''), 'is empty'],
      [write('notes.txt', 'hello, these are my notes'), 'neither mcpscope JSONL'],
      [database('other.db', 'CREATE TABLE recipes (name TEXT)', 0), 'is an SQLite database but not an mcpscope capture'],
      [write('damaged.db', Buffer.concat([Buffer.from('SQLite format 3\u0000'), Buffer.alloc(8192, 0x5a)])), 'is damaged'],
      [older, `written by an older mcpscope (schema ${READS_FROM_SCHEMA - 1}`],
      [database('newer.db', MIGRATIONS.join(';\n'), SCHEMA_VERSION + 5), 'written by a newer mcpscope'],
    ];
    for (const [path, message] of cases) {
      const opened = await openCapture({ file: path });
      if (opened.ok) await opened.value.close();
      expect([path, opened.ok ? 'opened' : opened.message]).toEqual([path, expect.stringContaining(message)]);
    }
    expect((await openCapture({ file: older })) as { message: string }).toMatchObject({ message: expect.stringContaining(`mcpscope rebuild --db ${older}`) });
    expect(fingerprint(older).sha256).toBe(olderBefore);
  });
});

describe('mcpscope open on a file another mcpscope is recording', () => {
  const file = tempDbFile();
  let writer: { store: CaptureStore; pipeline: CapturePipeline } | undefined;
  beforeAll(() => {
    writer = recorder(file);
  });
  afterAll(() => {
    writer?.pipeline.close();
    writer?.store.close();
  });

  it('reads it alongside, seeing what the recorder commits, and never stops it', async () => {
    const frames = traffic();
    const { pipeline } = writer!;
    for (const f of frames.slice(0, 20)) pipeline.record(f);
    await pipeline.whenWritten();
    const opened = await openCapture({ file });
    if (!opened.ok) throw new Error(opened.message);
    try {
      expect(opened.value.recordedElsewhere).toBe(true);
      const count = async () => (await apiGet<ExchangesPage>(opened.value, '/api/exchanges?limit=500')).exchanges.length;
      const first = await count();
      for (const f of frames.slice(20)) pipeline.record(f);
      await pipeline.whenWritten();
      expect(await count()).toBeGreaterThan(first);
    } finally {
      await opened.value.close();
    }
    // The recorder's WAL and shared memory are its own: still there, and it goes on writing.
    expect(existsSync(`${file}-wal`)).toBe(true);
    pipeline.record({ ...frames[0]!, sessionKey: 's3' });
    await pipeline.whenWritten();
    expect(writer!.store.session('s3')).toBeDefined();
  });
});
