/**
 * An official MCP Apps example server from npm audited end to end with `mcpscope audit --target`:
 * the audit reads its tool and its widget template, two runs give the same report, and it fails
 * only what the example really leaves out: both are ChatGPT's app-submission rules (explicit tool
 * annotations, a CSP on the widget), which a minimal demo does not set; every other host is ready.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditReport } from '@mcpscope/protocol';
import { runAudit } from '../src/commands/audit.js';
import { startAppsExample, type AppsExample } from './support/apps-example.js';

let server: AppsExample;
const dir = mkdtempSync(join(tmpdir(), 'mcpscope-audit-apps-'));
beforeAll(async () => {
  server = await startAppsExample();
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function audit(report: string): Promise<number> {
  const sink = new PassThrough();
  sink.resume();
  return runAudit(['--target', server.url, '--report', report], { stdout: sink as never, stderr: sink as never });
}

describe('server-basic-vanillajs through mcpscope audit --target', () => {
  it('reads its tool and widget, fails only the ChatGPT rules it leaves out, and reports the same twice', async () => {
    const first = join(dir, 'first.json');
    const second = join(dir, 'second.json');
    expect(await audit(first)).toBe(1);
    expect(await audit(second)).toBe(1);
    const report = JSON.parse(readFileSync(first, 'utf8')) as AuditReport;
    const verdict = (id: string) => report.checks.find((c) => c.id === id)!.verdict;
    // The evidence was read: its one tool, its template served as an MCP App.
    for (const id of ['tool-count', 'tool-description', 'tool-output-schema', 'widget-template-served', 'widget-mime-type', 'widget-uris-agree']) expect(verdict(id), id).toBe('pass');
    // No tool was called: results are not seen, never guessed.
    expect(verdict('result-content')).toBe('not-seen');
    const failing = report.checks.filter((c) => c.verdict === 'fail');
    expect(failing.map((c) => c.id)).toEqual(['tool-annotations-explicit', 'widget-csp-declared']);
    expect(failing.flatMap((c) => c.findings.map((f) => f.message))).toEqual(['get-time leaves readOnlyHint, destructiveHint, openWorldHint unset (not true or false)', 'ui://get-time/mcp-app.html declares no CSP']);
    expect(report.hosts.filter((h) => !h.ready).map((h) => h.host)).toEqual(['chatgpt']);
    // Ports differ between runs; exchange ids and findings do not.
    const stable = (text: string) => text.replace(/127\.0\.0\.1:\d+/g, 'HOST');
    expect(stable(readFileSync(second, 'utf8'))).toBe(stable(readFileSync(first, 'utf8')));
  });
});
