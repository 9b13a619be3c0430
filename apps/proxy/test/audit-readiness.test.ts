/**
 * The readiness audit against a real server with one switch per defect: each check fails (or
 * warns) on its defect, and the fixed server passes every check it has evidence for. Traffic goes
 * through a real tap into a real capture; the audit reads the capture as the dashboard does.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditReport } from '@mcpscope/protocol';
import { auditCapture } from '../src/compose/audit-capture.js';
import { startReadinessServer, useApp, type ReadinessDefect } from './support/readiness-server.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { apiGet } from './support/api.js';

async function auditOf(defects: ReadinessDefect[]): Promise<AuditReport> {
  const server = await startReadinessServer(defects);
  const tap = await startTestMcpscope({ target: server.url });
  try {
    await useApp(tap.mcpUrl);
    await tap.pipeline.whenWritten();
    return auditCapture(tap.store, { submitting: false });
  } finally {
    await tap.close();
    await server.close();
  }
}

const verdictOf = (report: AuditReport, id: string) => report.checks.find((c) => c.id === id)!.verdict;

describe('the clean server', () => {
  let report: AuditReport;
  beforeAll(async () => {
    report = await auditOf([]);
  });

  it('passes every check it has evidence for: no false positives', () => {
    const flagged = report.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'warn').map((c) => `${c.id}: ${c.findings.map((f) => f.message).join('; ')}`);
    expect(flagged).toEqual([]);
    expect(report.ready).toBe(true);
    expect(report.hosts.every((h) => h.ready)).toBe(true);
  });

  it('says not seen, with the traffic that would show it, where the capture has no evidence', () => {
    const cors = report.checks.find((c) => c.id === 'widget-origin-cors')!;
    expect(cors.verdict).toBe('not-seen');
    expect(cors.needs).toMatch(/Origin/);
    expect(verdictOf(report, 'auth-pkce-s256')).toBe('not-seen');
  });

  it('has at least 25 checks, each with a source URL, its kind and the date it was checked', () => {
    expect(report.checks.length).toBeGreaterThanOrEqual(25);
    for (const c of report.checks) {
      expect(c.source.url).toMatch(/^https:\/\//);
      expect(['docs', 'spec', 'field-report']).toContain(c.source.kind);
      expect(c.source.checked).toBe('2026-12-06');
      expect(c.help.length).toBeGreaterThan(40);
    }
  });
});

// Each defect, the check that must catch it, and what it must say (fail unless noted).
const CASES: [ReadinessDefect, string, 'fail' | 'warn'][] = [
  ['annotations-missing', 'tool-annotations-explicit', 'fail'],
  ['long-name', 'tool-name-shape', 'fail'],
  ['dotted-name', 'tool-name-shape', 'fail'],
  ['long-name', 'tool-name-with-server', 'fail'],
  ['many-tools', 'tool-count', 'fail'],
  ['no-description', 'tool-description', 'fail'],
  ['input-schema-not-object', 'tool-input-schema-object', 'fail'],
  ['no-output-schema', 'tool-output-schema', 'warn'],
  ['no-title', 'tool-title', 'warn'],
  ['empty-content', 'result-content', 'warn'],
  ['json-block', 'result-content-types', 'fail'],
  ['schema-mismatch', 'structured-content-schema', 'fail'],
  ['internal-ids', 'structured-content-internal', 'warn'],
  ['skybridge-mime', 'widget-mime-type', 'fail'],
  ['uris-disagree', 'widget-uris-agree', 'fail'],
  ['csp-on-tool', 'widget-csp-on-resource', 'fail'],
  ['csp-on-tool', 'widget-csp-declared', 'fail'],
  ['openai-visibility-only', 'widget-visibility-standard', 'warn'],
  ['not-widget-accessible', 'widget-accessible', 'fail'],
  ['no-instructions', 'server-instructions', 'warn'],
];

describe('each defect is caught by its check, with evidence that links into the capture', () => {
  for (const [defect, check, verdict] of CASES) {
    it(`${defect} → ${check} ${verdict}s`, async () => {
      const report = await auditOf([defect]);
      const result = report.checks.find((c) => c.id === check)!;
      expect(result.verdict).toBe(verdict);
      expect(result.findings[0]!.evidence?.exchangeId).toMatch(/^\d+$/);
      expect(result.findings[0]!.evidence?.path).toMatch(/^\$/);
    });
  }
});

describe('GET /api/audit', () => {
  it('audits the running capture as traffic arrives, a failing check linking to its exchange', async () => {
    const server = await startReadinessServer(['annotations-missing']);
    const tap = await startTestMcpscope({ target: server.url });
    try {
      const before = await apiGet<AuditReport>(tap, '/api/audit');
      expect(before.checks.find((c) => c.id === 'tool-annotations-explicit')!.verdict).toBe('not-seen');
      await useApp(tap.mcpUrl);
      await tap.pipeline.whenWritten();
      const after = await apiGet<AuditReport>(tap, '/api/audit');
      const check = after.checks.find((c) => c.id === 'tool-annotations-explicit')!;
      expect(check.verdict).toBe('fail');
      const exchange = await apiGet<{ exchange: { method: string } }>(tap, `/api/exchanges/${check.findings[0]!.evidence!.exchangeId!}`);
      expect(exchange.exchange.method).toBe('tools/list');
    } finally {
      await tap.close();
      await server.close();
    }
  });
});
