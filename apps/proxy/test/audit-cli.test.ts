/**
 * `mcpscope audit` as CI runs it: over a capture file and against a live server (--target), the
 * exit code says ready (0), a failing check (1) or could not run (2), and the reports are
 * written in each format, the same bytes on every run.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runAudit } from '../src/commands/audit.js';
import { startReadinessServer, useApp, type ReadinessDefect } from './support/readiness-server.js';
import { startTestMcpscope } from './support/mcpscope.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpscope-audit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += String(d)));
  stderr.on('data', (d) => (err += String(d)));
  const code = await runAudit(argv, { stdout: stdout as never, stderr: stderr as never });
  return { code, out, err };
}

async function captureFile(name: string, defects: ReadinessDefect[]): Promise<string> {
  const server = await startReadinessServer(defects);
  const db = join(dir, `${name}.db`);
  const tap = await startTestMcpscope({ target: server.url, db });
  try {
    await useApp(tap.mcpUrl);
    await tap.pipeline.whenWritten();
  } finally {
    await tap.close();
    await server.close();
  }
  return db;
}

describe('mcpscope audit FILE', () => {
  it('exits 0 on a ready app and 1 on one with a failing check, naming the check, the host and the evidence', async () => {
    const clean = await cli([await captureFile('clean', [])]);
    expect(clean.code).toBe(0);
    expect(clean.out).toMatch(/ready/);
    const broken = await cli([await captureFile('broken', ['annotations-missing'])]);
    expect(broken.code).toBe(1);
    expect(broken.out).toMatch(/fail\s+tool-annotations-explicit\s+chatgpt\s+exchange \d+ \$\.result\.tools\[0\]\.annotations/);
    expect(broken.out).toMatch(/ChatGPT\s+not ready: tool-annotations-explicit/);
    expect(broken.out).toMatch(/source: https:\/\/community\.openai\.com\/.* \(field report\)/);
  });

  it('writes JSON, JUnit XML and Markdown reports, byte for byte the same on a second run', async () => {
    const db = await captureFile('reports', ['skybridge-mime']);
    const files = ['a.json', 'a.xml', 'a.md'].map((f) => join(dir, f));
    const first = await cli([db, ...files.flatMap((f) => ['--report', f])]);
    expect(first.code).toBe(1);
    const written = files.map((f) => readFileSync(f, 'utf8'));
    const json = JSON.parse(written[0]!) as { checks: { id: string; verdict: string }[]; hosts: { host: string; ready: boolean }[] };
    expect(json.checks.find((c) => c.id === 'widget-mime-type')!.verdict).toBe('fail');
    expect(json.hosts.find((h) => h.host === 'claude')!.ready).toBe(false);
    expect(json.hosts.find((h) => h.host === 'chatgpt')!.ready).toBe(true);
    expect(written[1]).toMatch(/<testcase name="widget-mime-type: [^"]*" classname="mcpscope.audit.widgets">\s*<failure/);
    expect(written[1]).toMatch(/<skipped message="not seen/);
    expect(written[2]).toMatch(/\| `widget-mime-type`[^\n]*\| fail \|/);
    await cli([db, ...files.flatMap((f) => ['--report', f])]);
    expect(files.map((f) => readFileSync(f, 'utf8'))).toEqual(written);
  });

  it('exits 2 with a clear message when it cannot run', async () => {
    const missing = await cli([join(dir, 'nope.db')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/no such file/);
    const usage = await cli([]);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/needs a capture FILE or --target URL/);
  });
});

describe('mcpscope audit --target URL', () => {
  it('connects as a host through its own tap and audits what it captured: 0 on the fixed server, 1 on a defect', async () => {
    const clean = await startReadinessServer([]);
    const broken = await startReadinessServer(['csp-on-tool']);
    try {
      const ok = await cli(['--target', clean.url]);
      expect(ok.code, ok.out + ok.err).toBe(0);
      expect(ok.out).toMatch(/pass\s+widget-mime-type/);
      const bad = await cli(['--target', broken.url]);
      expect(bad.code).toBe(1);
      expect(bad.out).toMatch(/fail\s+widget-csp-on-resource/);
    } finally {
      await clean.close();
      await broken.close();
    }
  });
});
