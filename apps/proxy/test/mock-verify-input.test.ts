// What mock and verify do with files that are not a clean capture: a HAR from another tool
// (Chrome DevTools), half an exchange, an unknown revision, an empty file, a corrupt or foreign
// SQLite file: a clear message, and what was done with the rest. And the command lines.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseMockArgs, runMock } from '../src/commands/mock.js';
import { parseVerifyArgs, runVerify } from '../src/commands/verify.js';
import { UsageError } from '../src/commands/cli-args.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpscope-mv-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rpc = (o: object) => JSON.stringify({ jsonrpc: '2.0', ...o });
const t0 = Date.parse('2026-03-01T10:00:00.000Z');

function io() {
  let out = '';
  let err = '';
  return {
    io: { stdout: new Writable({ write: (c, _e, d) => ((out += String(c)), d()) }), stderr: new Writable({ write: (c, _e, d) => ((err += String(c)), d()) }) },
    out: () => out,
    err: () => err,
  };
}

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** An mcpscope JSONL export with these frames (seq and time in order). */
function jsonl(name: string, frames: { direction: 'c2s' | 's2c'; body: unknown; session?: string }[]): string {
  const header = { format: 'mcpscope-jsonl', version: 1, exportedAt: new Date(t0).toISOString(), generator: 'test', redaction: { enabled: true, rules: [] } };
  const lines = frames.map((f, i) => JSON.stringify({ seq: i + 1, ts: t0 + i * 10, sessionKey: f.session ?? 'S', direction: f.direction, transport: 'http-json', kind: 'data', raw: typeof f.body === 'string' ? f.body : JSON.stringify(f.body), http: { method: 'POST', path: '/api/mcp', connectionId: `h${i}` } }));
  return file(name, [JSON.stringify(header), ...lines].join('\n') + '\n');
}

/** A Chrome DevTools HAR of a web client's session: a page, MCP POSTs, one that failed (status 0). */
function chromeHar(): string {
  const entry = (i: number, url: string, body: string | undefined, status: number, mimeType: string, text: string) => ({
    _resourceType: 'fetch',
    startedDateTime: new Date(t0 + i * 100).toISOString(),
    time: 12.5,
    request: { method: body === undefined ? 'GET' : 'POST', url, httpVersion: 'http/2.0', headers: [{ name: ':authority', value: 'mcp.example.com' }, { name: 'Authorization', value: 'Bearer chrome-secret' }, ...(i > 1 ? [{ name: 'mcp-session-id', value: 'S1' }] : [])], queryString: [], cookies: [], headersSize: -1, bodySize: 0, ...(body !== undefined ? { postData: { mimeType: 'application/json', text: body } } : {}) },
    response: { status, statusText: '', httpVersion: 'http/2.0', headers: [{ name: 'content-type', value: mimeType }, { name: 'mcp-session-id', value: 'S1' }], cookies: [], content: { size: text.length, mimeType, text }, redirectURL: '', headersSize: -1, bodySize: -1 },
    cache: {},
    timings: { send: 0, wait: 10, receive: 2 },
  });
  return file('chrome.har', JSON.stringify({
    log: {
      version: '1.2',
      creator: { name: 'WebInspector', version: '537.36' },
      entries: [
        entry(0, 'https://app.example.com/', undefined, 200, 'text/html', '<html></html>'),
        entry(1, 'https://mcp.example.com/mcp', rpc({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'web', version: '1' } } }), 200, 'text/event-stream', `event: message\ndata: ${rpc({ id: 1, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'srv', version: '1' } } })}\n\n`),
        entry(2, 'https://mcp.example.com/mcp', rpc({ method: 'notifications/initialized' }), 202, 'x-unknown', ''),
        entry(3, 'https://mcp.example.com/mcp', rpc({ id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }), 200, 'application/json', rpc({ id: 2, result: { content: [{ type: 'text', text: 'hi ✓' }] } })),
        entry(4, 'https://mcp.example.com/mcp', rpc({ id: 3, method: 'tools/call', params: { name: 'slow', arguments: {} } }), 0, 'x-unknown', ''),
      ],
    },
  }));
}

async function serve(path: string, extra: string[] = []) {
  const out = io();
  const stop = await runMock([path, '--port', '0', '--quiet', '--ready-json', ...extra], {}, out.io);
  const ready = out.out().split('\n').find((l) => l.startsWith('{"mcpscope":"ready"'));
  return { stop, out, url: ready ? (JSON.parse(ready) as { mcpUrl: string }).mcpUrl : '' };
}

describe('mock and verify on files that are not a clean capture', () => {
  it('serves a Chrome DevTools HAR: the page skipped, the failed POST failing again, the rest answered', async () => {
    const { stop, out, url } = await serve(chromeHar());
    if (typeof stop === 'number') throw new Error(out.err());
    try {
      expect(out.out()).toContain('(HAR)');
      expect(out.out()).toMatch(/Skipped: +1 HAR entries without MCP traffic/);
      expect(new URL(url).pathname).toBe('/mcp');
      const client = new Client({ name: 'c', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect((await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).content).toEqual([{ type: 'text', text: 'hi ✓' }]);
      await expect(client.callTool({ name: 'slow', arguments: {} })).rejects.toThrow(/the capture recorded a transport failure here: the request failed before a response \(HAR status 0\)/);
      await client.close();
    } finally {
      await stop();
    }
  });

  it('half an exchange and an unknown revision: noted, the answered rest served and verified', async () => {
    const path = jsonl('half.jsonl', [
      { direction: 'c2s', body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2099-01-01', capabilities: {}, clientInfo: { name: 'c', version: '1' } } } },
      { direction: 's2c', body: { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2099-01-01', capabilities: {}, serverInfo: { name: 's', version: '1' } } } },
      { direction: 'c2s', body: { jsonrpc: '2.0', method: 'notifications/initialized' } },
      { direction: 'c2s', body: { jsonrpc: '2.0', id: 2, method: 'tools/list' } },
      { direction: 's2c', body: { jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'slow', inputSchema: { type: 'object' } }] } } },
      { direction: 'c2s', body: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'slow', arguments: {} } } },
    ]);
    const { stop, out, url } = await serve(path);
    if (typeof stop === 'number') throw new Error(out.err());
    try {
      expect(out.out()).toMatch(/Note: exchange 6: tools\/call "slow" \(id 3\) has no answer in the capture/);
      expect(out.out()).toMatch(/Note: session S: negotiated protocol revision "2099-01-01", which mcpscope does not know/);
      expect(new URL(url).pathname).toBe('/api/mcp');
      // verify against the mock of the same file: what was answered is the same, the half call is skipped.
      const v = io();
      const code = await runVerify([path, '--target', url], v.io);
      expect(v.out()).toMatch(/tools\/list\s+ok\s+ok\s+SAME/);
      expect(v.out()).toMatch(/tools\/call slow\s+no answer\s+—\s+SKIPPED\s+not re-sent: the capture holds no answer to compare with/);
      expect(v.err()).toMatch(/note: exchange 6: tools\/call "slow" \(id 3\) has no answer/);
      expect(code).toBe(0);
    } finally {
      await stop();
    }
  });

  it('serves a captured widget (an MCP Apps ui:// resource) to a client that reads it, as the widget preview does', async () => {
    const html = '<!doctype html><div id="board">gift board</div><script type="module">window.parent.postMessage({}, "*")</script>';
    const path = jsonl('widget.jsonl', [
      { direction: 'c2s', body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'host', version: '1' } } } },
      { direction: 's2c', body: { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25', capabilities: { resources: {}, tools: {} }, serverInfo: { name: 'apps', version: '1' } } } },
      { direction: 'c2s', body: { jsonrpc: '2.0', method: 'notifications/initialized' } },
      { direction: 'c2s', body: { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'ui://widget/board.html', _meta: { 'openai/locale': 'fr-FR' } } } },
      { direction: 's2c', body: { jsonrpc: '2.0', id: 2, result: { contents: [{ uri: 'ui://widget/board.html', mimeType: 'text/html;profile=mcp-app', text: html, _meta: { ui: { csp: { connectDomains: [] }, prefersBorder: true } } }] } } },
    ]);
    const { stop, out, url } = await serve(path);
    if (typeof stop === 'number') throw new Error(out.err());
    try {
      const client = new Client({ name: 'preview', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const read = await client.readResource({ uri: 'ui://widget/board.html' });
      expect(read.contents).toEqual([{ uri: 'ui://widget/board.html', mimeType: 'text/html;profile=mcp-app', text: html, _meta: { ui: { csp: { connectDomains: [] }, prefersBorder: true } } }]);
      await client.close();
    } finally {
      await stop();
    }
  });

  it('an empty file, a corrupt SQLite file, a foreign SQLite file, a HAR with no MCP traffic: a clear message each', async () => {
    const cases: [string, RegExp][] = [
      [file('empty.db', ''), /empty\.db is empty: a capture database, an mcpscope JSONL export or a HAR file was expected/],
      [file('corrupt.db', Buffer.concat([Buffer.from('SQLite format 3\u0000'), Buffer.alloc(4096, 0x5a)])), /corrupt\.db starts like an SQLite database but is damaged \(SQLite: .+\); nothing could be read from it/],
      [(() => { const p = join(dir, 'other.db'); const db = new Database(p); db.exec('CREATE TABLE t (x)'); db.close(); return p; })(), /other\.db is an SQLite database but not an mcpscope capture \(it has no frames table\)/],
      [file('pages.har', JSON.stringify({ log: { version: '1.2', creator: { name: 'WebInspector' }, entries: [{ startedDateTime: new Date(t0).toISOString(), request: { method: 'GET', url: 'https://x.example/', headers: [] }, response: { status: 200, headers: [], content: { mimeType: 'text/html', text: '<p>' } } }] } })), /pages\.har is a HAR file whose 1 entries carry no MCP traffic \(no JSON-RPC request or response body\)/],
      [file('notes.txt', 'hello'), /notes\.txt: file: neither mcpscope JSONL .* nor a HAR file/],
      [join(dir, 'missing.db'), /cannot read .*missing\.db: no such file/],
    ];
    for (const [path, message] of cases) {
      const m = io();
      expect(await runMock([path, '--port', '0'], {}, m.io), path).toBe(1);
      expect(m.err()).toMatch(message);
      const v = io();
      expect(await runVerify([path, '--target', 'http://127.0.0.1:9/mcp'], v.io), path).toBe(2);
      expect(v.err()).toMatch(message);
    }
  });
});

describe('the command lines', () => {
  it('mock: defaults like the tap, and says what is wrong with a flag', () => {
    expect(parseMockArgs(['c.db'])).toMatchObject({ file: 'c.db', port: 7788, host: '127.0.0.1', mode: 'strict', speed: 1, record: false });
    expect(parseMockArgs(['c.db', '--match', 'loose', '--speed', '0', '--record', '--db', 'm.db', '--ui-port', '0'])).toMatchObject({ mode: 'loose', speed: 0, record: true, db: 'm.db', uiPort: 0 });
    expect(() => parseMockArgs(['c.db', '--match', 'fuzzy'])).toThrow(/--match must be strict or loose/);
    expect(() => parseMockArgs(['c.db', '--speed=-1'])).toThrow(/--speed must be a number ≥ 0/);
    expect(() => parseMockArgs([])).toThrow(UsageError);
    expect(() => parseMockArgs(['c.db', '--db', 'x.db'])).toThrow(/--db and --ui-port go with --record/);
  });

  it('verify: the filter language, paths and reports are checked before anything runs', () => {
    const cli = parseVerifyArgs(['c.db', '--target', 'http://localhost:3000/mcp', '--only', 'status:err', '--expect', 'ok', '--ignore', '$.result.content[*].text', '--report', 'r.xml', '--report', 'r.json', '--header', 'Authorization: Bearer x']);
    expect(cli).toMatchObject({ expectOk: true, reports: [{ file: 'r.xml', format: 'junit' }, { file: 'r.json', format: 'json' }], headers: { authorization: 'Bearer x' }, timeoutMs: 60_000 });
    expect(cli.only).toEqual({ type: 'field', field: 'status', op: ':', value: 'err' });
    expect(() => parseVerifyArgs(['c.db'])).toThrow(/needs --target URL/);
    expect(() => parseVerifyArgs(['c.db', '--target', 'localhost:3000'])).toThrow(/--target must be/);
    expect(() => parseVerifyArgs(['c.db', '--target', 'http://h/mcp', '--only', 'status:'])).toThrow(/--only: /);
    expect(() => parseVerifyArgs(['c.db', '--target', 'http://h/mcp', '--ignore', 'result.x'])).toThrow(/--ignore: a JSON path starts with "\$"/);
    expect(() => parseVerifyArgs(['c.db', '--target', 'http://h/mcp', '--report', 'r.txt'])).toThrow(/a \.xml file \(JUnit\) or a \.json file/);
    expect(() => parseVerifyArgs(['c.db', '--target', 'http://h/mcp', '--expect', 'error'])).toThrow(/--expect takes "ok"/);
  });
});
