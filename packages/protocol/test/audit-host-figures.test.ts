import { describe, expect, it } from 'vitest';
import { HOST_PROFILES, runAudit, type AuditCall, type AuditEvidence, type CheckResult } from '../src/index.js';

/** One answered tools/call, as the audit reads it from a capture. */
function call(latencyMs: number, text = 'ok'): AuditCall {
  return { id: '7', sessionKey: 's', method: 'tools/call', params: { name: 'slow_report', arguments: {} }, result: { content: [{ type: 'text', text }] }, status: 'ok', startTs: 0, latencyMs };
}
const evidence = (c: AuditCall): AuditEvidence => ({ calls: [c], notifications: [], door: [] });
const check = (c: AuditCall, id: string): CheckResult => runAudit(evidence(c)).checks.find((r) => r.id === id)!;
const hostsBroken = (r: CheckResult) => r.findings.flatMap((f) => f.hosts ?? []).sort();

describe("each host's timeout, from its profile", () => {
  it('a 90 s answer breaks the hosts reported to give up after about 60 s, and no other', () => {
    const result = check(call(90_000), 'answer-within-timeout');
    expect(result.verdict).toBe('fail');
    expect(hostsBroken(result)).toEqual(['chatgpt', 'claude']);
    expect(result.findings[0]!.message).toMatch(/ChatGPT gives up after 60 s \(https:\/\/community\.openai\.com\/\S+, field report\)/);
  });

  it('a 400 s answer breaks every host; a 2 s one none', () => {
    expect(hostsBroken(check(call(400_000), 'answer-within-timeout'))).toEqual(['chatgpt', 'claude', 'claude-code', 'cursor', 'vscode']);
    expect(check(call(2_000), 'answer-within-timeout').verdict).toBe('pass');
  });

  it('every profile has a timeout figure with its source, its kind and a note', () => {
    for (const p of HOST_PROFILES) {
      expect(p.callTimeoutMs?.value, p.id).toBeGreaterThan(0);
      expect(p.callTimeoutMs!.url, p.id).toMatch(/^https:\/\//);
      expect(p.callTimeoutMs!.kind, p.id).toBe('field-report');
    }
  });
});

describe("Claude Code's output limit", () => {
  it('warns past 10,000 estimated tokens, says the limit past 25,000, and passes a small result', () => {
    const warned = check(call(10, 'x'.repeat(48_000)), 'result-size');
    expect(warned.verdict).toBe('warn');
    expect(warned.findings[0]).toMatchObject({ hosts: ['claude-code'], evidence: { exchangeId: '7', path: '$.result.content' } });
    expect(warned.findings[0]!.message).toMatch(/about 12,\d{3} tokens .*past the 10,000 at which Claude Code warns/);
    expect(check(call(10, 'x'.repeat(120_000)), 'result-size').findings[0]!.message).toMatch(/past Claude Code's limit of 25,000/);
    expect(check(call(10, 'x'.repeat(4_000)), 'result-size').verdict).toBe('pass');
  });
});

describe('docs/audit-checks.md', () => {
  it('lists every check the audit runs', async () => {
    const { readFileSync } = await import('node:fs');
    const { AUDIT_CHECKS } = await import('../src/index.js');
    const text = readFileSync(new URL('../../../docs/audit-checks.md', import.meta.url), 'utf8');
    expect(AUDIT_CHECKS.map((c) => c.id).filter((id) => !text.includes(`\`${id}\``))).toEqual([]);
  });
});
