/**
 * The Readiness view's reading of a report, over a report the real audit wrote: a check that
 * fails only for ChatGPT fails there and passes for Claude, the filters keep the right rows
 * (failures first), and each host says "ready" or how many problems it has.
 */
import { describe, expect, it } from 'vitest';
import { runAudit, type AuditReport, type JsonObject } from '@mcpscope/protocol';
import { checkRows, hostSummary, verdictCounts, verdictFor } from './readiness-model.js';

/** Evidence of one tools/list whose only tool leaves two annotations unset (a ChatGPT-only rule). */
function reportWithLooseAnnotations(): AuditReport {
  const tool: JsonObject = { name: 'show_forecast', title: 'Show forecast', description: 'Shows the forecast.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } };
  const call = (id: string, method: string, result: JsonObject) => ({ id, sessionKey: 's1', method, params: {}, result, status: 'ok' as const, startTs: Number(id), latencyMs: 5 });
  return runAudit({
    calls: [call('1', 'initialize', { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'forecast', version: '1' }, instructions: 'Forecasts.' }), call('3', 'tools/list', { tools: [tool] })],
    notifications: [],
    door: [],
  });
}

describe('the readiness model', () => {
  const report = reportWithLooseAnnotations();
  const annotations = report.checks.find((c) => c.id === 'tool-annotations-explicit')!;

  it('reads a ChatGPT-only failure as fail for ChatGPT and leaves Claude ready', () => {
    expect(annotations.verdict).toBe('fail');
    expect(verdictFor(annotations, 'chatgpt')).toBe('fail');
    expect(verdictFor(annotations, undefined)).toBe('fail');
    const chatgpt = report.hosts.find((h) => h.host === 'chatgpt')!;
    const claude = report.hosts.find((h) => h.host === 'claude')!;
    expect(hostSummary(chatgpt)).toBe('1 problem');
    expect(hostSummary(claude)).toBe('ready');
  });

  it('keeps only the checks of the chosen host, and of the chosen verdict', () => {
    const claudeRows = checkRows(report.checks, 'claude', 'all');
    expect(claudeRows.every((r) => r.check.hosts.includes('claude'))).toBe(true);
    expect(claudeRows.map((r) => r.check.id)).not.toContain('tool-annotations-explicit');
    const failing = checkRows(report.checks, 'chatgpt', 'fail');
    expect(failing.map((r) => r.check.id)).toEqual(['tool-annotations-explicit']);
    expect(failing[0]!.findings[0]!.evidence).toEqual({ exchangeId: '3', path: expect.stringContaining('annotations') });
    expect(checkRows(report.checks, undefined, 'not-seen').every((r) => r.verdict === 'not-seen')).toBe(true);
  });

  it('lists failures first, then warnings, not-seen and passes', () => {
    const order = checkRows(report.checks, undefined, 'all').map((r) => r.verdict);
    const rank = { fail: 0, warn: 1, 'not-seen': 2, pass: 3 } as const;
    expect(order.map((v) => rank[v])).toEqual([...order.map((v) => rank[v])].sort((a, b) => a - b));
    expect(order[0]).toBe('fail');
  });

  it('counts the verdicts a host sees, which add up to its checks', () => {
    const counts = verdictCounts(report.checks, 'chatgpt');
    expect(counts.fail).toBe(1);
    expect(counts.pass + counts.warn + counts.fail + counts['not-seen']).toBe(report.checks.filter((c) => c.hosts.includes('chatgpt')).length);
  });

  it('says how many problems a host has, in the plural past one', () => {
    expect(hostSummary({ host: 'cursor', name: 'Cursor', ready: false, failing: ['a', 'b'], warnings: [] })).toBe('2 problems');
  });
});
