import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { DEFAULT_TAP_PORT, DEFAULT_UI_PORT, parseCli, UsageError } from '../src/commands/cli-args.js';
import { spawnMcpscope, startMcpscopeProcess } from './support/mcpscope.js';
import { parseOpenArgs } from '../src/commands/open.js';

describe('parseCli', () => {
  it('reads --server-answers, the answers for unattended runs, and refuses a malformed one', () => {
    const o = parseCli(['--server-answers', '{"sampling":{"text":"ok"},"elicitation":"accept","roots":[{"uri":"file:///w"}]}']);
    expect(o.serverAnswers).toEqual({ sampling: { text: 'ok' }, elicitation: 'accept', roots: [{ uri: 'file:///w' }] });
    expect(() => parseCli(['--server-answers', '{"elicitation":"maybe"}'])).toThrow(/"elicitation" must be/);
    expect(() => parseCli(['--server-answers', 'accept'])).toThrow(/must be JSON/);
  });

  it('takes the contract flags', () => {
    const o = parseCli(['--', '--target', 'http://localhost:3000/mcp', '--port', '9000', '--ui-port', '9001', '--db', ':memory:', '--no-open', '--public-url', 'https://x.trycloudflare.com']);
    expect(o).toMatchObject({ target: 'http://localhost:3000/mcp', port: 9000, uiPort: 9001, db: ':memory:', open: false, publicUrl: 'https://x.trycloudflare.com' });
  });

  it('has defaults that do not clash with MCP Inspector (6274/6277)', () => {
    const o = parseCli([]);
    expect([o.port, o.uiPort]).toEqual([DEFAULT_TAP_PORT, DEFAULT_UI_PORT]);
    expect([6274, 6277]).not.toContain(o.port);
    expect([6274, 6277]).not.toContain(o.uiPort);
  });

  it.each(['0.0.0.0', '::', '[::]', '0'])('refuses to bind the dashboard to the wildcard %s without the dangerous flag', (addr) => {
    expect(() => parseCli(['--ui-host', addr])).toThrow(UsageError);
    expect(parseCli(['--ui-host', addr, '--dangerously-expose-dashboard']).uiHost).toBe(addr);
  });

  it('explains bad input', () => {
    expect(() => parseCli(['--target', 'localhost:3000'])).toThrow(/must be a URL|http/);
    expect(() => parseCli(['--port', 'abc'])).toThrow(/port number/);
    expect(() => parseCli(['--target', 'http://a/mcp', '--stdio', 'x'])).toThrow(/not both/);
    expect(() => parseCli(['--bogus'])).toThrow(UsageError);
  });

  it('takes --allow-origin as the origin a browser sends, and refuses "null" and non-URLs', () => {
    expect(parseCli(['--allow-origin', 'http://LOCALHOST:6274/', '--allow-origin', 'https://app.example']).allowOrigins).toEqual(['http://localhost:6274', 'https://app.example']);
    expect(() => parseCli(['--allow-origin', 'null'])).toThrow(/any web page/);
    expect(() => parseCli(['--allow-origin', 'localhost'])).toThrow(UsageError);
  });

  it('reads the token from MCPSCOPE_TOKEN', () => {
    expect(parseCli([], { MCPSCOPE_TOKEN: 'a-long-enough-token-123' }).token).toBe('a-long-enough-token-123');
  });
});

describe('--stdio', () => {
  it('refuses a command it cannot split, before starting anything', () => {
    expect(() => parseCli(['--stdio', 'node "server.js'])).toThrow(UsageError);
    expect(parseCli(['--stdio', 'node "my server.js"']).stdio).toBe('node "my server.js"');
  });
});

describe('the mcpscope command', () => {
  const run = async (args: string[]) => {
    const cli = spawnMcpscope(args);
    const status = await cli.exited;
    return { status, stdout: cli.stdout(), stderr: cli.stderr() };
  };

  it('prints its version, the one in package.json', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    const out = await run(['--version']);
    expect(out.status).toBe(0);
    expect(out.stdout).toBe(`mcpscope ${version}\n`);
  });

  it('answers a wrong flag with the mistake and where to look, not a screenful of help', async () => {
    const out = await run(['--trget', 'http://localhost:3000/mcp']);
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/^mcpscope: Unknown option '--trget'/);
    expect(out.stderr).toContain('mcpscope --help');
    expect(out.stderr.split('\n').length).toBeLessThan(5);
  });

  it('warns in the banner when the tap listens beyond loopback, naming the risk and --allow-host', async () => {
    const wide = await startMcpscopeProcess(['--host', '0.0.0.0', '--db', ':memory:', '--allow-host', 'build-box.lan']);
    try {
      const banner = wide.stdout();
      expect(banner).toContain('Warning: the tap listens on 0.0.0.0');
      expect(banner).toContain('DNS rebinding');
      expect(banner).toContain('--allow-host NAME');
      expect(banner).toContain('Host names accepted: build-box.lan.');
    } finally {
      await wide.stop();
    }
    const local = await startMcpscopeProcess(['--db', ':memory:']);
    try {
      expect(local.stdout()).not.toContain('Warning');
    } finally {
      await local.stop();
    }
  }, 60_000);
});

describe('mcpscope open', () => {
  it('opens the browser unless --no-open, and prints a ready line with --ready-json', () => {
    expect(parseOpenArgs(['capture.jsonl'])).toMatchObject({ kind: 'open', file: 'capture.jsonl', open: true, readyJson: false });
    expect(parseOpenArgs(['capture.jsonl', '--no-open', '--ready-json'])).toMatchObject({ open: false, readyJson: true });
    expect(parseOpenArgs(['a.jsonl', 'b.jsonl'])).toMatchObject({ kind: 'usage', message: expect.stringContaining('one FILE') });
  });
});
