// "Copy as curl" has one writer for the export and the replay panel: what the shell receives is
// exactly what was captured or edited, and secrets stay out unless the user asked for them.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Frame } from '@mcpscope/protocol';
import { curlCommand, toCurl } from '../src/interchange/curl.js';

/** Runs the command with `curl` replaced by a shell function that prints each argument on its own line. */
async function argsOf(command: string, env: Record<string, string> = {}): Promise<string[]> {
  const script = `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${command}`;
  const { stdout } = await promisify(execFile)('sh', ['-c', script], { env: { PATH: process.env.PATH ?? '', ...env } });
  return stdout.split('\0').slice(0, -1);
}

describe('curlCommand', () => {
  it('hands the shell the body and headers literally, quotes and dollar signs included', async () => {
    const body = `{"q":"it's $HOME and \`id\` and \\"x\\""}`;
    const command = curlCommand({ url: 'http://127.0.0.1:1/mcp', headers: { accept: 'application/json, text/event-stream', 'x-note': "o'clock $PATH" }, body });
    expect(await argsOf(command)).toEqual(['-N', 'http://127.0.0.1:1/mcp', '-H', 'accept: application/json, text/event-stream', '-H', "x-note: o'clock $PATH", '--data-raw', body]);
  });

  it('writes a withheld secret as a variable the shell fills in, and the real value only when given', async () => {
    const input = { url: 'http://h/mcp', headers: { authorization: 'Bearer sk-real' }, body: '{}', secretNames: ['authorization'] };
    const hidden = curlCommand(input);
    expect(hidden).not.toContain('sk-real');
    expect(await argsOf(hidden, { MCP_AUTHORIZATION: 'Bearer from-env' })).toContain('authorization: Bearer from-env');
    expect(await argsOf(curlCommand({ ...input, secretValues: { authorization: 'Bearer sk-real' } }))).toContain('authorization: Bearer sk-real');
  });

  it('keeps the scheme of a redacted credential and never prints the marker', async () => {
    const command = curlCommand({ url: 'http://h/mcp', headers: { authorization: 'Bearer [redacted] (43 chars)', 'mcp-session-id': 's1' }, body: '{}' });
    expect(command).not.toContain('[redacted]');
    expect(await argsOf(command, { MCP_AUTHORIZATION: 'tok' })).toContain('authorization: Bearer tok');
  });

  it('leaves out the headers that described the captured connection, and orders the rest', () => {
    const command = curlCommand({
      url: 'http://h/mcp',
      headers: { host: 'h', 'content-length': '2', 'sec-fetch-mode': 'cors', 'user-agent': 'ua', 'mcp-session-id': 's1', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(command.split(' \\\n  ').slice(1, -1)).toEqual([`-H 'content-type: application/json'`, `-H 'mcp-session-id: s1'`, `-H 'user-agent: ua'`]);
  });
});

describe('toCurl (a captured request)', () => {
  const frame = (method: string, raw: string): Frame => ({
    seq: 1,
    ts: 0,
    sessionKey: 's',
    direction: 'c2s',
    transport: 'http-json',
    kind: 'data',
    raw,
    http: { method, path: '/mcp', requestHeaders: { host: 'example.test:8080', accept: 'text/event-stream' } },
  });

  it('re-sends to the captured host and path, with the method when it is not POST', async () => {
    const del = toCurl(frame('DELETE', ''));
    expect(del.ok && (await argsOf(del.command))).toEqual(['-N', 'http://example.test:8080/mcp', '-X', 'DELETE', '-H', 'accept: text/event-stream']);
    const post = toCurl(frame('POST', '{"jsonrpc":"2.0"}'), 'http://127.0.0.1:9');
    expect(post.ok && post.command.endsWith('\n')).toBe(true);
    expect(post.ok && (await argsOf(post.command))).toEqual(['-N', 'http://127.0.0.1:9/mcp', '-H', 'accept: text/event-stream', '--data-raw', '{"jsonrpc":"2.0"}']);
  });

  it('refuses a frame that did not travel over HTTP', () => {
    const { http: _http, ...stdio } = frame('POST', '{}');
    expect(toCurl({ ...stdio, transport: 'stdio' })).toMatchObject({ ok: false, code: 'not_http' });
  });
});
