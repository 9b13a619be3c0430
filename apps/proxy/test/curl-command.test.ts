// "Copy as curl" has one writer for the export and the replay panel: what the shell receives is
// exactly what was captured or edited, and secrets stay out unless the user asked for them.
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Frame } from '@mcpscope/protocol';
import { curlCommand, secretVariable, toCurl } from '../src/interchange/curl.js';
import { isHeaderName, isHeaderValue } from '../src/core/http-fields.js';

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

describe('curlCommand and hop-by-hop headers', () => {
  it('leaves out the headers the captured Connection header named, and the fixed hop-by-hop ones', async () => {
    const headers = { connection: 'keep-alive, X-Foo', 'X-Foo': 'hop', te: 'trailers', upgrade: 'h2c', 'proxy-connection': 'keep-alive', 'x-bar': 'end-to-end', 'content-type': 'application/json' };
    const command = curlCommand({ url: 'http://127.0.0.1:1/mcp', headers, body: '{}' });
    expect(await argsOf(command)).toEqual(['http://127.0.0.1:1/mcp', '-H', 'content-type: application/json', '-H', 'x-bar: end-to-end', '--data-raw', '{}']);
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

// Issue 22, item 2: a header name inside double quotes let live traffic (a backtick is legal in a
// header name) or an imported file (`$(…)`) run code in the shell of whoever pasted the command.
describe('curlCommand runs nothing but curl, whatever the headers (property)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpscope-curl-'));
  const stub = join(dir, 'bin');
  mkdirSync(stub);
  // The only command on PATH: writes its arguments, NUL-separated, to $OUT.
  writeFileSync(join(stub, 'curl'), '#!/bin/sh\nfor a in "$@"; do printf \'%s\\0\' "$a"; done > "$OUT"\n', { mode: 0o755 });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Shell and HTTP trouble: what a hostile client or file would put in a name or a value. */
  const nasty = fc.constantFrom('$(touch pwned)', '`touch pwned`', "'", '"', '\\', '$HOME', '${PATH}', ';', '|', '&', '\n', '\r', '\0', ' ', ':', '!', '#', '*', '~', '%', '[redacted]', 'Bearer [redacted] (9 chars)', 'é', '😀');
  const piece = fc.oneof(nasty, fc.string({ unit: 'grapheme', maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 6 }));
  const text = fc.array(piece, { maxLength: 5 }).map((parts) => parts.join(''));
  const name = fc.oneof(text, fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,12}$/));

  /** Each string the way a shell argument can hold it: valid UTF-8 text without NUL. */
  const arg = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

  it('a backtick in a live header name (legal in HTTP) with a value of "[redacted]" runs nothing', () => {
    const command = curlCommand({ url: 'http://127.0.0.1:1/mcp', headers: { 'x-`id`': '[redacted]', 'x-$(touch pwned)': 'v' }, body: '{}' });
    const ran = spawnSync('/bin/bash', ['--norc', '--noprofile', '-c', command], { cwd: dir, env: { PATH: stub, OUT: join(dir, 'args-literal') }, encoding: 'utf8' });
    expect(ran.stderr).toBe('');
    expect(readdirSync(dir).sort()).toEqual(['args-literal', 'bin']);
    // The token name is kept, literally; the other is no header name at all (a space, parentheses).
    expect(readFileSync(join(dir, 'args-literal'), 'utf8').split('\0').slice(0, -1)).toEqual(['http://127.0.0.1:1/mcp', '-H', 'x-`id`: ', '--data-raw', '{}']);
    rmSync(join(dir, 'args-literal'));
  });

  it('bash -n accepts the command, and running it hands a stub curl exactly the intended arguments', () => {
    let run = 0;
    fc.assert(
      fc.property(fc.dictionary(name, text, { maxKeys: 6 }), text, fc.array(name, { maxLength: 2 }), (headers, rawBody, secretNames) => {
        const body = rawBody.replace(/\0/g, '');
        const command = curlCommand({ url: 'http://127.0.0.1:1/mcp', headers, body, secretNames });
        const syntax = spawnSync('/bin/bash', ['--norc', '--noprofile', '-n', '-c', command], { encoding: 'utf8' });
        expect(syntax.status, syntax.stderr).toBe(0);

        const out = join(dir, `args-${++run}`);
        const env: Record<string, string> = { PATH: stub, OUT: out };
        const secret = (n: string) => `env-${secretVariable(n)}`;
        for (const n of [...Object.keys(headers), ...secretNames]) env[secretVariable(n)] = secret(n);
        const ran = spawnSync('/bin/bash', ['--norc', '--noprofile', '-c', command], { cwd: dir, env, encoding: 'utf8' });
        expect(ran.stderr).toBe('');
        expect(ran.status).toBe(0);
        // Nothing but the stub's own output appeared (no `touch pwned`, no redirection).
        expect(readdirSync(dir).filter((f) => f !== 'bin' && !f.startsWith('args-'))).toEqual([]);
        const got = readFileSync(out, 'utf8').split('\0').slice(0, -1);
        rmSync(out);

        const expected: string[] = [];
        const skipped = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'keep-alive', 'transfer-encoding', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-for']);
        for (const n of new Set([...Object.keys(headers), ...secretNames])) {
          if (!isHeaderName(n) || skipped.has(n) || n.startsWith('sec-')) continue;
          const value = Object.hasOwn(headers, n) ? headers[n] : undefined;
          if (value === undefined || secretNames.includes(n) || value.includes('[redacted]')) {
            const scheme = value?.includes('[redacted]') ? /^(Bearer|Basic|Digest|Token)\s/i.exec(value)?.[1] : undefined;
            expected.push('-H', `${n}: ${scheme ? `${scheme} ` : ''}${secret(n)}`);
          } else if (isHeaderValue(value)) {
            expected.push('-H', arg(`${n}: ${value}`));
          }
        }
        const stream = (Object.hasOwn(headers, 'accept') ? headers.accept! : '').includes('text/event-stream');
        const want = [...(stream ? ['-N'] : []), 'http://127.0.0.1:1/mcp', ...expected, ...(body !== '' ? ['--data-raw', arg(body)] : [])];
        // Header order is the writer's choice: compare the -H pairs as a set, the rest in place.
        const pairs = (args: string[]) => args.flatMap((a, i) => (args[i - 1] === '-H' ? [a] : [])).sort();
        expect(pairs(got)).toEqual(pairs(want));
        expect(got.filter((a, i) => a !== '-H' && got[i - 1] !== '-H')).toEqual(want.filter((a, i) => a !== '-H' && want[i - 1] !== '-H'));
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
