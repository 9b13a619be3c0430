// Issue 22, items 2 and 8, end to end: what a hostile client sends through the tap, or a hostile
// file holds, must not become code in the shell of whoever pastes "Copy as curl", nor headers a
// replay sends upstream.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { ImportResponse } from '@mcpscope/protocol';
import { startFaultyUpstream } from './fixtures/faulty-upstream.js';
import { proxiedUpstream } from '../support/proxy-fixture.js';
import { apiFetch } from '../support/api.js';
import { eventually, exchanges, rpcId, toolCall } from './harness.js';
import { reliabilityReport } from './report.js';

const report = reliabilityReport('63-security-curl', 'Security: curl commands and imported headers');
const proxy = proxiedUpstream(startFaultyUpstream);

/** Runs `command` with only a stub `curl` on PATH; returns its arguments, what the shell said, and stray files. */
function runWithStubCurl(command: string): { args: string[]; stderr: string; stray: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'mcpscope-curl-rel-'));
  try {
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'curl'), '#!/bin/sh\nfor a in "$@"; do printf \'%s\\0\' "$a"; done > "$OUT"\n', { mode: 0o755 });
    const ran = spawnSync('/bin/bash', ['--norc', '--noprofile', '-c', command], { cwd: dir, env: { PATH: join(dir, 'bin'), OUT: join(dir, 'args') }, encoding: 'utf8' });
    const args = readFileSync(join(dir, 'args'), 'utf8').split('\0').slice(0, -1);
    return { args, stderr: ran.stderr, stray: readdirSync(dir).filter((f) => f !== 'bin' && f !== 'args') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('curl from live traffic', () => {
  it('a header name with backticks (legal in HTTP) and the value "[redacted]" runs nothing when the exported command is pasted', async () => {
    const row = report.row('a client sends tools/call through the tap with the header `x-`touch`pwned`: [redacted]` (backticks are RFC 9110 tchars); the exchange is exported as curl and run by bash with only a stub curl on PATH', 'bash runs only curl; the header reaches it literally (as a $MCP_… placeholder); no file appears');
    const id = rpcId();
    await new Promise<void>((resolve, reject) => {
      const url = new URL(proxy.app.mcpUrl);
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-`touch`pwned': '[redacted]' } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(toolCall(id, 'echo', { text: 'hi' }));
    });
    const call = await eventually(async () => (await exchanges(proxy.app)).find((e) => e.rpcId === id && e.status === 'ok'), 'the call');
    const command = await (await apiFetch(proxy.app, `/api/export?format=curl&exchange=${call.id}`)).text();
    const { args, stderr, stray } = runWithStubCurl(command);
    const header = args.find((a) => a.startsWith('x-`touch`pwned'));
    row.observed(`bash stderr: ${stderr ? JSON.stringify(stderr.slice(0, 80)) : 'empty'}; stray files: ${stray.length ? stray.join(', ') : 'none'}; curl got -H ${JSON.stringify(header)}`);
    expect(stderr).toBe('');
    expect(stray).toEqual([]);
    expect(header).toBe('x-`touch`pwned: ');
  });
});

describe('headers of an imported file', () => {
  it('a JSONL whose request carries `$(touch pwned)` as a header name and `Host: evil.test`: the name is dropped and reported, the curl runs nothing, a fresh replay sends no Host from the file', async () => {
    const row = report.row('import a JSONL whose tools/call frame has the headers `x-$(touch pwned)`, `Host: evil.test`, `X-Forwarded-For`, `Mcp-Session-Id: attacker-chosen`; export it as curl and run it; replay it in a fresh session', 'import report: the non-header dropped; curl: bash runs only curl, no file appears; the replay sends none of Host / X-Forwarded-For / the chosen session id');
    const frame = { seq: 1, ts: 1, sessionKey: 's', direction: 'c2s', transport: 'http-json', kind: 'data', raw: toolCall(rpcId(), 'echo', { text: 'from a file' }), http: { method: 'POST', path: '/mcp', requestHeaders: { 'x-$(touch pwned)': 'v', Host: 'evil.test', 'X-Forwarded-For': '6.6.6.6', 'Mcp-Session-Id': 'attacker-chosen', 'Content-Type': 'application/json' } } };
    const jsonl = `${JSON.stringify({ format: 'mcpscope-jsonl', version: 1 })}\n${JSON.stringify(frame)}\n`;
    const imported = await apiFetch(proxy.app, '/api/import?name=hostile.jsonl', { method: 'POST', body: jsonl });
    const { report: importReport } = (await imported.json()) as ImportResponse;
    const original = await eventually(async () => (await exchanges(proxy.app)).find((e) => importReport.sessionKeys.includes(e.sessionKey) && e.method === 'tools/call'), 'the imported call');
    const command = await (await apiFetch(proxy.app, `/api/export?format=curl&exchange=${original.id}`)).text();
    const shell = runWithStubCurl(command);
    const replayed = await apiFetch(proxy.app, '/api/replay', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ exchangeId: original.id, mode: 'fresh', message: JSON.parse(frame.raw) }) });
    const { sessionKey } = (await replayed.json()) as { sessionKey: string };
    const sent = await eventually(async () => proxy.app.store.rawFramesAfter(0, 100_000).find((f) => f.transport === 'replay' && f.direction === 'c2s' && f.sessionKey === sessionKey && f.raw.includes('tools/call')), 'the replayed request');
    const headers = sent.http?.requestHeaders ?? {};
    const problems = importReport.problems.map((p) => p.message).join('; ');
    row.observed(`import: ${problems}; curl: stderr ${shell.stderr ? 'NOT EMPTY' : 'empty'}, stray files ${shell.stray.length ? shell.stray.join(', ') : 'none'}; replay sent host=${headers.host ?? '(none)'}, x-forwarded-for=${headers['x-forwarded-for'] ?? '(none)'}, mcp-session-id=${headers['mcp-session-id'] ?? '(none)'}`);
    expect(problems).toMatch(/1 header was dropped.*x-\$\(touch pwned\)/);
    expect(shell.stderr).toBe('');
    expect(shell.stray).toEqual([]);
    expect(headers.host).toBeUndefined();
    expect(headers['x-forwarded-for']).toBeUndefined();
    expect(headers['mcp-session-id'] ?? '').not.toContain('attacker-chosen');
  });
});
