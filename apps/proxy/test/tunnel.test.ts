// `--tunnel cloudflared|ngrok`: mcpscope starts the tunnel program towards the tap's port, reads
// the public URL it prints, starts with it as --public-url (so the tunnel's Host is accepted) and
// prints the exact connector URL; the program stops with mcpscope; a missing program is a clear
// error. The programs are stand-ins on PATH that print what the real ones print
// (support/tunnel-standins/, each citing the format).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tunnelUrlIn } from '../src/compose/tunnel.js';
import { spawnMcpscope, startMcpscopeProcess } from './support/mcpscope.js';
import { eventually } from './reliability/harness.js';

const STANDINS = fileURLToPath(new URL('./support/tunnel-standins/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mcpscope-tunnel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function postWithHost(tapUrl: string, host: string): Promise<number> {
  const url = new URL(tapUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: '/mcp', method: 'POST', headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'openai-mcp', version: '1' } } }));
  });
}

describe.each([
  { kind: 'cloudflared', origin: 'https://brave-otter.trycloudflare.com', args: (port: string) => ['tunnel', '--url', `http://127.0.0.1:${port}`] },
  { kind: 'ngrok', origin: 'https://ab12-203-0-113-7.ngrok-free.app', args: (port: string) => ['http', port, '--log', 'stdout', '--log-format', 'json'] },
])('--tunnel $kind', ({ kind, origin, args }) => {
  it('starts the tunnel to the tap, uses its URL as the public URL, prints the connector URL, and stops it on exit', async () => {
    const log = join(dir, `${kind}.log`);
    const app = await startMcpscopeProcess(['--db', ':memory:', '--tunnel', kind], { env: { PATH: `${STANDINS}${delimiter}${process.env.PATH}`, STANDIN_LOG: log } });
    try {
      expect(app.publicMcpUrl).toBe(`${origin}/mcp`);
      expect(app.stdout()).toContain(`\n      ${origin}/mcp\n`);
      const started = JSON.parse(readFileSync(log, 'utf8').trim()) as { pid: number; args: string[] };
      expect(started.args).toEqual(args(new URL(app.tapUrl).port));
      // The tunnel's Host is the public URL's: the guard takes it.
      expect(await postWithHost(app.tapUrl, new URL(origin).host)).toBe(200);
      await app.stop();
      await eventually(async () => (alive(started.pid) ? undefined : true), `${kind} to stop with mcpscope`);
    } finally {
      await app.stop();
    }
  });
});

it('says how to install a tunnel program that is not on PATH', async () => {
  const child = spawnMcpscope(['--db', ':memory:', '--no-open', '--port', '0', '--ui-port', '0', '--tunnel', 'cloudflared'], { env: { PATH: dir } });
  expect(await child.exited).toBe(1);
  expect(child.stderr()).toContain('--tunnel cloudflared: cloudflared is not installed (not found on PATH)');
  expect(child.stderr()).toContain('https://developers.cloudflare.com/cloudflare-one/connections/connect-networks/downloads/');
});

it('refuses --tunnel with --public-url, and an unknown program', async () => {
  for (const args of [['--tunnel', 'ngrok', '--public-url', 'https://x.example'], ['--tunnel', 'localtunnel']]) {
    const child = spawnMcpscope(args);
    expect(await child.exited).toBe(2);
  }
});

it('reads the URL from the lines each program prints, and nothing else', () => {
  expect(tunnelUrlIn('cloudflared', '2026-01-01T00:00:00Z INF |  https://Brave-Otter.trycloudflare.com                     |')).toBe('https://brave-otter.trycloudflare.com');
  expect(tunnelUrlIn('cloudflared', '2026-01-01T00:00:00Z INF Thank you for trying Cloudflare Tunnel… (https://www.cloudflare.com/website-terms/)')).toBeUndefined();
  expect(tunnelUrlIn('ngrok', '{"lvl":"info","msg":"started tunnel","obj":"tunnels","url":"https://ab12.ngrok-free.app"}')).toBe('https://ab12.ngrok-free.app');
  expect(tunnelUrlIn('ngrok', '{"lvl":"info","msg":"starting web service","addr":"127.0.0.1:4040","url":"https://x"}')).toBeUndefined();
  expect(tunnelUrlIn('ngrok', 'not json')).toBeUndefined();
});
