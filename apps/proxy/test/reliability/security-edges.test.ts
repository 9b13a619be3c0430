// Issue 22, item 10: the smaller holes. The dashboard token must not reach a --stdio server's
// environment; headers a client names in `Connection:` are that hop's alone (RFC 9110 §7.6.1);
// /api/import's size cap holds for chunked bodies too; a --db that cannot be written says so in
// one line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { spawnMcpscope, startMcpscopeProcess, startTestMcpscope } from '../support/mcpscope.js';
import { EVERYTHING_BIN } from '../support/everything.js';
import { exportRoutes } from '../../src/api/routes/export.js';
import { apiErrorHandler } from '../../src/api/error-handler.js';
import { reliabilityReport } from './report.js';

const report = reliabilityReport('64-security-edges', 'Security: tokens, hop-by-hop headers, import size, unwritable capture files');

describe('the --stdio child', () => {
  it('does not inherit MCPSCOPE_TOKEN (server-everything get-env prints its environment)', async () => {
    const row = report.row('mcpscope --stdio server-everything with MCPSCOPE_TOKEN in its environment; a client calls get-env', 'the dashboard token is the one from the environment, and get-env shows every other variable but not MCPSCOPE_TOKEN');
    const token = 'tok-ENV-0123456789abcdef';
    const app = await startMcpscopeProcess(['--stdio', `${process.execPath} ${EVERYTHING_BIN} stdio`, '--db', ':memory:'], { env: { MCPSCOPE_TOKEN: token, MCPSCOPE_E2E_MARKER: 'visible' } });
    try {
      const client = new Client({ name: 'env-reader', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(app.mcpUrl)));
      const result = await client.callTool({ name: 'get-env', arguments: {} });
      await client.close();
      const text = JSON.stringify(result.content);
      row.observed(`dashboard token ${app.token === token ? 'from MCPSCOPE_TOKEN' : 'OTHER'}; get-env output ${text.length} chars, marker ${text.includes('MCPSCOPE_E2E_MARKER') ? 'present' : 'MISSING'}, token ${text.includes(token) ? 'LEAKED' : 'absent'}`);
      expect(app.token).toBe(token);
      expect(text).toContain('MCPSCOPE_E2E_MARKER');
      expect(text).not.toContain(token);
      expect(text).not.toContain('MCPSCOPE_TOKEN');
    } finally {
      await app.stop();
    }
  }, 60_000);
});

describe('Connection-named headers', () => {
  it('are not forwarded in either direction', async () => {
    const row = report.row('a request with `Connection: keep-alive, X-Hop-Secret` and `X-Hop-Secret: 1`; an upstream answering with `Connection: X-Up-Hop` and `X-Up-Hop: 1`', 'the upstream never sees X-Hop-Secret; the client never sees X-Up-Hop; other headers pass');
    let seen: IncomingHttpHeaders = {};
    const upstream = createServer((req, res) => {
      seen = req.headers;
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', connection: 'X-Up-Hop', 'x-up-hop': '1', 'x-end-to-end': '1' }).end('{"jsonrpc":"2.0","id":1,"result":{}}');
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const app = await startTestMcpscope({ target: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp` });
    try {
      const url = new URL(app.mcpUrl);
      const answer = await new Promise<IncomingHttpHeaders>((resolve, reject) => {
        const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { connection: 'keep-alive, X-Hop-Secret', 'x-hop-secret': '1', 'x-kept': '1', 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.headers));
        });
        req.on('error', reject);
        req.end('{"jsonrpc":"2.0","id":1,"method":"ping"}');
      });
      row.observed(`upstream saw x-hop-secret: ${seen['x-hop-secret'] ?? '(none)'}, x-kept: ${seen['x-kept'] ?? '(none)'}; client saw x-up-hop: ${answer['x-up-hop'] ?? '(none)'}, x-end-to-end: ${answer['x-end-to-end'] ?? '(none)'}`);
      expect(seen['x-hop-secret']).toBeUndefined();
      expect(seen['x-kept']).toBe('1');
      expect(answer['x-up-hop']).toBeUndefined();
      expect(answer['x-end-to-end']).toBe('1');
    } finally {
      await app.close();
      await new Promise((r) => upstream.close(r));
    }
  });
});

describe('/api/import', () => {
  it('refuses a chunked body past its cap as it would one that announced its length', async () => {
    const row = report.row('POST /api/import with a 4 KiB cap: 8 KiB with Content-Length, then 8 KiB chunked (no Content-Length)', '413 import_too_large both times; nothing imported');
    let imported = 0;
    const app = new Hono().route('/', exportRoutes({ source: undefined as never, startImport: () => {
      imported++;
      throw new Error('a refused import never starts');
    }, maxImportBytes: 4096 }));
    app.onError(apiErrorHandler);
    const body = 'x'.repeat(8192);
    const sized = await app.request('/import?name=big.jsonl', { method: 'POST', body, headers: { 'content-length': String(body.length) } });
    const chunked = await app.request('/import?name=big.jsonl', { method: 'POST', body: Readable.toWeb(Readable.from([body.slice(0, 4000), body.slice(4000)])) as ReadableStream, duplex: 'half' } as RequestInit);
    row.observed(`with length: ${sized.status}; chunked: ${chunked.status} ${(await chunked.text()).slice(0, 90)}; imports: ${imported}`);
    expect(sized.status).toBe(413);
    expect(chunked.status).toBe(413);
    expect(imported).toBe(0);
  });
});

describe('a capture file that cannot be written', () => {
  it.each([
    ['in a directory that cannot be created (a file is in the way)', (dir: string) => {
      writeFileSync(join(dir, 'file'), '');
      return join(dir, 'file', 'sub', 'capture.db');
    }, /cannot create the directory of the capture file .*: a part of the path is a file/],
  ])('%s: one clear line, exit 1, no stack trace', async (what, path, message) => {
    const row = report.row(`mcpscope --stdio … --db ${what}`, 'exits 1 with one line naming the file and what to do; no stack trace, no word about the --stdio command');
    const db = path(mkdtempSync(join(tmpdir(), 'mcpscope-db-')));
    const cli = spawnMcpscope(['--stdio', `${process.execPath} -e 1`, '--db', db, '--port', '0', '--ui-port', '0', '--no-open']);
    const code = await cli.exited;
    const err = cli.stderr();
    row.observed(`exit ${code}: ${err.trim()}`);
    expect(code).toBe(1);
    expect(err).toMatch(message);
    expect(err).toContain('Choose a --db');
    expect(err).not.toMatch(/\n\s+at /);
    expect(err).not.toContain('--stdio command');
  }, 30_000);

  it('on a read-only file system (a tmpfs mounted ro in a private namespace): one clear line', async () => {
    const row = report.row('mcpscope --db on a read-only file system (unshare -rm, tmpfs mounted ro), a new file and a new directory', 'exits 1 with "the file system is read-only" and the file named; no stack trace');
    const dir = mkdtempSync(join(tmpdir(), 'mcpscope-ro-'));
    const outcomes: string[] = [];
    for (const db of [join(dir, 'capture.db'), join(dir, 'new', 'capture.db')]) {
      const wrap = ['unshare', '-rm', 'sh', '-c', 'mount -t tmpfs -o size=1m,ro tmpfs "$0" && exec "$@"', dir];
      const cli = spawnMcpscope(['--db', db, '--port', '0', '--ui-port', '0', '--no-open'], { wrap });
      const code = await cli.exited;
      const err = cli.stderr().trim();
      outcomes.push(`exit ${code}: ${err}`);
      expect(code).toBe(1);
      expect(err).toContain('the file system is read-only');
      expect(err).toContain(db);
      expect(err).not.toMatch(/\n\s+at /);
    }
    row.observed(outcomes.join(' | '));
  }, 60_000);
});
