/**
 * A real third-party server audited end to end: @modelcontextprotocol/server-everything over
 * Streamable HTTP, probed with `mcpscope audit --target`. The audit runs, reports what it finds,
 * and two runs give the same report.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAudit } from '../src/commands/audit.js';
import { startEverything, type Everything } from './support/everything.js';

let everything: Everything;
const dir = mkdtempSync(join(tmpdir(), 'mcpscope-audit-everything-'));
beforeAll(async () => {
  everything = await startEverything('streamableHttp');
});
afterAll(async () => {
  await everything.close();
  rmSync(dir, { recursive: true, force: true });
});

async function audit(report: string): Promise<number> {
  const sink = new PassThrough();
  sink.resume();
  return runAudit(['--target', everything.url, '--report', report], { stdout: sink as never, stderr: sink as never });
}

describe('server-everything through mcpscope audit --target', () => {
  it('audits it (tools listed, results unseen without calls) and gives the same report twice', async () => {
    const first = join(dir, 'first.json');
    const second = join(dir, 'second.json');
    const code = await audit(first);
    expect([0, 1]).toContain(code);
    await audit(second);
    const report = JSON.parse(readFileSync(first, 'utf8')) as { checks: { id: string; verdict: string; summary: string }[] };
    const count = report.checks.find((c) => c.id === 'tool-count')!;
    expect(count.verdict).not.toBe('not-seen');
    expect(report.checks.find((c) => c.id === 'result-content')!.verdict).toBe('not-seen');
    // Session keys and ports differ between runs; exchange ids and findings do not.
    const stable = (text: string) => text.replace(/127\.0\.0\.1:\d+/g, 'HOST');
    expect(stable(readFileSync(second, 'utf8'))).toBe(stable(readFileSync(first, 'utf8')));
  });
});
