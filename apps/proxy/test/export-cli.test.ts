// The command line: `mcpscope export` reads a capture file and writes what the API would; a curl
// export re-sends its request through the tap for real; `mcpscope open` serves the dashboard over
// an exported file with no proxy.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { runExport } from '../src/commands/export.js';
import { openCapture } from '../src/compose/open-capture.js';
import { CaptureReader } from '../src/capture/capture-reader.js';
import { connectClient, settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { jsonlFrameLines } from './support/jsonl.js';
import { api } from './export-support.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpscope-export-'));
const db = join(dir, 'capture.db');
let app: Mcpscope;
let client: Client;

beforeAll(async () => {
  app = await startTestMcpscope({ db });
  client = await connectClient(app.mcpUrl, { headers: { authorization: 'Bearer sk-cli-secret-0123456789' } });
  await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'wedding', budget: 120, api_key: 'ak-cli-secret-abcdef' } });
  await settled(app);
});
let stopped = false;
afterAll(async () => {
  if (stopped) return;
  await client.close();
  await app.close();
});

describe('while the proxy runs', () => {
  it('curl export: run by the shell, it sends the request through the tap again', async () => {
    const call = app.store.exchanges(100).find((e) => e.method === 'tools/call')!;
    const res = await api(app, `/api/export?format=curl&exchange=${call.id}`);
    const command = await res.text();
    expect(command).toContain(`'authorization: Bearer '"\${MCP_AUTHORIZATION}"`);
    expect(command).not.toContain('sk-cli-secret');
    const { stdout } = await promisify(execFile)('sh', ['-c', command], { env: { PATH: process.env.PATH, MCP_AUTHORIZATION: 'sk-cli-secret-0123456789' } });
    expect(stdout).toContain('Gift ideas');
    await settled(app);
    expect(app.store.exchanges(100).filter((e) => e.method === 'tools/call' && e.status === 'ok')).toHaveLength(2);
  });

  it('the CLI reads the live capture file while the proxy keeps writing it', async () => {
    const { code, out } = await run(['--db', db]);
    expect(code).toBe(0);
    const calls = jsonlFrameLines(out).map((l) => l.raw).filter((raw) => raw.includes('"tools/call"'));
    expect(calls).toHaveLength(2);
  });

  it('and once the proxy has stopped', async () => {
    await client.close();
    await app.close();
    stopped = true;
    expect((await run(['--db', db])).code).toBe(0);
  });
});

const exchangesOf = (file: string) => {
  const source = CaptureReader.openFile(file);
  try {
    return [...source.exchangesInCaptureOrder()];
  } finally {
    source.close();
  }
};
const framesOf = (file: string) => {
  const source = CaptureReader.openFile(file);
  try {
    return [...source.select()].length;
  } finally {
    source.close();
  }
};

async function run(argv: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await runExport(argv, { stdout, stderr });
  return { code, out, err };
}

describe('mcpscope export', () => {
  it('exports a capture file as JSONL, redacted, and says what it redacted', async () => {
    const outFile = join(dir, 'out.jsonl');
    const { code, err } = await run(['--db', db, '--format', 'jsonl', '--out', outFile]);
    expect(code).toBe(0);
    const text = readFileSync(outFile, 'utf8');
    expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({ format: 'mcpscope-jsonl', version: 1 });
    expect(text).toContain('wedding');
    expect(text).not.toContain('ak-cli-secret-abcdef');
    expect(err).toMatch(/redacted .*key api_key/);
  });

  it('writes HAR to stdout, and secrets only with --unredacted (with a warning)', async () => {
    const har = await run(['--db', db, '--format', 'har']);
    expect(JSON.parse(har.out).log.creator.name).toBe('mcpscope');
    const raw = await run(['--db', db, '--format', 'jsonl', '--unredacted']);
    expect(raw.out).toContain('ak-cli-secret-abcdef');
    expect(raw.err).toContain('UNREDACTED');
  });

  it('--filter selects with the dashboard\'s filter language', async () => {
    const { code, out } = await run(['--db', db, '--format', 'jsonl', '--filter', 'method:tools/*']);
    expect(code).toBe(0);
    const frames = jsonlFrameLines(out);
    const calls = exchangesOf(db).filter((e) => e.method === 'tools/call');
    expect(frames.map((f) => f.seq)).toEqual(calls.flatMap((c) => c.frameSeqs));
    expect(await run(['--db', db, '--filter', 'bogus:1'])).toMatchObject({ code: 2, err: expect.stringContaining('filter "bogus:1"') });
  });

  it('refuses bad arguments with usage and exit code 2', async () => {
    expect(await run(['--format', 'har'])).toMatchObject({ code: 2, err: expect.stringContaining('export needs --db FILE') });
    expect(await run(['--db', db, '--format', 'zip'])).toMatchObject({ code: 2, err: expect.stringContaining('--format must be one of') });
    expect(await run(['--db', join(dir, 'missing.db')])).toMatchObject({ code: 1, err: expect.stringContaining('cannot open') });
    expect(await run(['--db', db, '--redact', '$.a['])).toMatchObject({ code: 2, err: expect.stringContaining('unclosed "["') });
  });

});

describe('mcpscope open', () => {
  it('serves the dashboard API over an exported file, as imported sessions', async () => {
    const file = join(dir, 'shared.jsonl');
    writeFileSync(file, (await run(['--db', db, '--format', 'jsonl'])).out);
    const opened = await openCapture({ file });
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    try {
      const page = (await (await api(opened.value, '/api/exchanges')).json()) as { exchanges: { method?: string; sessionKey: string; status: string }[] };
      expect(page.exchanges.filter((e) => e.method === 'tools/call').map((e) => e.status)).toEqual(['ok', 'ok']);
      expect(page.exchanges.every((e) => e.sessionKey.startsWith('import:shared.jsonl:'))).toBe(true);
    } finally {
      await opened.value.close();
    }
  });

  it('opens a capture database read-only, and names the problem in a broken file', async () => {
    const opened = await openCapture({ file: db });
    expect(opened.ok && opened.value.report).toMatchObject({ format: 'mcpscope-db', frames: framesOf(db) });
    if (opened.ok) await opened.value.close();
    const broken = join(dir, 'broken.har');
    writeFileSync(broken, '{"log": ');
    expect(await openCapture({ file: broken })).toMatchObject({ ok: false, message: expect.stringContaining('broken.har: file: neither mcpscope JSONL') });
  });
});
