/**
 * Every readiness check, in the order reports list them, and the run that turns evidence into a
 * report: one result per check, and per host whether anything fails there.
 */
import { AuditContext } from './audit-context.js';
import type { AuditCheck, AuditEvidence, AuditOptions, AuditReport, CheckResult, HostReadiness, Verdict } from './audit-types.js';
import { AUTH_CHECKS } from './checks/auth-checks.js';
import { ORIGIN_CHECKS } from './checks/origin-checks.js';
import { RESULT_CHECKS } from './checks/result-checks.js';
import { SESSION_CHECKS } from './checks/session-checks.js';
import { TOOL_CHECKS } from './checks/tool-checks.js';
import { WIDGET_CHECKS } from './checks/widget-checks.js';
import { HOST_PROFILES, type HostProfile } from './host-profiles.js';

export const AUDIT_CHECKS: readonly AuditCheck[] = [...TOOL_CHECKS, ...RESULT_CHECKS, ...WIDGET_CHECKS, ...ORIGIN_CHECKS, ...AUTH_CHECKS, ...SESSION_CHECKS];

export function runAudit(evidence: AuditEvidence, options: AuditOptions = {}, profiles: readonly HostProfile[] = HOST_PROFILES): AuditReport {
  const context = new AuditContext(evidence, options, profiles);
  const checks: CheckResult[] = AUDIT_CHECKS.map((check) => {
    const result = check.evaluate(context);
    return { id: check.id, title: check.title, group: check.group, hosts: [...check.hosts], verdict: result.verdict, summary: result.summary, findings: result.findings, help: check.help, fix: check.fix, needs: check.needs, source: check.source };
  });
  const hosts: HostReadiness[] = profiles.map((p) => {
    const breaks = (verdict: 'fail' | 'warn') => checks.filter((c) => c.hosts.includes(p.id) && c.findings.some((f) => f.verdict === verdict && (f.hosts ?? c.hosts).includes(p.id))).map((c) => c.id);
    const failing = breaks('fail');
    return { host: p.id, name: p.name, ready: failing.length === 0, failing, warnings: breaks('warn') };
  });
  const counts: Record<Verdict, number> = { pass: 0, warn: 0, fail: 0, 'not-seen': 0 };
  for (const c of checks) counts[c.verdict]++;
  return { checks, hosts, counts, ready: counts.fail === 0 };
}
