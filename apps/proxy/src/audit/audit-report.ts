/**
 * The readiness report as the CLI writes it: a terminal table, JSON, JUnit XML (one testcase per
 * check: fail is a failure, not-seen is skipped) and Markdown. Nothing here reads a clock, so two
 * runs over the same evidence write the same bytes.
 */
import type { AuditReport, CheckResult, EvidenceLink } from '@mcpscope/protocol';

export const EXIT_READY = 0;
export const EXIT_FAILING = 1;
export const EXIT_COULD_NOT_RUN = 2;

export interface AuditMeta {
  /** The capture file or the --target URL the evidence came from. */
  source: string;
}

export function exitCodeOf(report: AuditReport): number {
  return report.ready ? EXIT_READY : EXIT_FAILING;
}

/** `exchange 12 $.result.tools[0]` / `request 5 responseHeaders[...]`. */
export function evidenceText(link: EvidenceLink | undefined): string {
  if (!link) return '';
  const where = link.exchangeId !== undefined ? `exchange ${link.exchangeId}` : link.doorRecordId !== undefined ? `request ${link.doorRecordId}` : '';
  return [where, link.path ?? ''].filter(Boolean).join(' ');
}

function sourceText(c: CheckResult): string {
  return `${c.source.url}${c.source.kind === 'field-report' ? ' (field report)' : ''}, checked ${c.source.checked}`;
}

const ORDER: Record<CheckResult['verdict'], number> = { fail: 0, warn: 1, 'not-seen': 2, pass: 3 };

export function formatAuditTable(report: AuditReport): string {
  const rows = [...report.checks].sort((a, b) => ORDER[a.verdict] - ORDER[b.verdict]);
  const idWidth = Math.max(...rows.map((r) => r.id.length), 5);
  const hostWidth = Math.max(...rows.map((r) => r.hosts.join(',').length), 5);
  const lines = [`${'VERDICT'.padEnd(9)}${'CHECK'.padEnd(idWidth + 2)}${'HOSTS'.padEnd(hostWidth + 2)}EVIDENCE / SUMMARY`];
  for (const r of rows) {
    const first = r.findings[0];
    lines.push(`${r.verdict.padEnd(9)}${r.id.padEnd(idWidth + 2)}${r.hosts.join(',').padEnd(hostWidth + 2)}${first ? evidenceText(first.evidence) : r.summary}`);
    if (r.verdict === 'pass') continue;
    const indent = ' '.repeat(9);
    for (const f of r.findings.slice(0, 5)) lines.push(`${indent}${f.verdict}: ${f.message}${f.evidence && f !== first ? ` [${evidenceText(f.evidence)}]` : ''}`);
    if (r.findings.length > 5) lines.push(`${indent}… and ${r.findings.length - 5} more (--report FILE.json has them all)`);
    if (r.verdict === 'not-seen') lines.push(`${indent}${r.summary}; would show it: ${r.needs}`);
    else lines.push(`${indent}fix: ${r.fix}`);
    lines.push(`${indent}source: ${sourceText(r)}`);
  }
  lines.push('');
  for (const h of report.hosts) lines.push(`${h.name.padEnd(26)}${h.ready ? 'ready' : `not ready: ${h.failing.join(', ')}`}${h.warnings.length ? ` (warnings: ${h.warnings.join(', ')})` : ''}`);
  const c = report.counts;
  lines.push('', `${report.checks.length} checks: ${c.fail} fail, ${c.warn} warn, ${c['not-seen']} not seen, ${c.pass} pass — ${report.ready ? 'ready' : 'not ready'}`);
  return lines.join('\n');
}

export function auditJson(report: AuditReport, meta: AuditMeta): string {
  return `${JSON.stringify({ source: meta.source, ...report }, null, 2)}\n`;
}

/** Characters XML 1.0 forbids (C0 controls but tab, newline and carriage return). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const XML_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

function xml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch]!).replace(XML_FORBIDDEN, '');
}

export function auditJunit(report: AuditReport, meta: AuditMeta): string {
  const c = report.counts;
  const cases = report.checks.map((r) => {
    const name = `name="${xml(`${r.id}: ${r.title}`)}" classname="mcpscope.audit.${r.group}"`;
    const details = xml([...r.findings.map((f) => `${f.verdict}: ${f.message}${f.evidence ? ` [${evidenceText(f.evidence)}]` : ''}`), `fix: ${r.fix}`, `source: ${sourceText(r)}`].join('\n'));
    if (r.verdict === 'fail') return `    <testcase ${name}>\n      <failure message="${xml(r.summary)}">${details}</failure>\n    </testcase>`;
    if (r.verdict === 'not-seen') return `    <testcase ${name}>\n      <skipped message="${xml(`not seen: ${r.summary}; would show it: ${r.needs}`)}"/>\n    </testcase>`;
    if (r.verdict === 'warn') return `    <testcase ${name}>\n      <system-out>${details}</system-out>\n    </testcase>`;
    return `    <testcase ${name}/>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mcpscope audit" tests="${report.checks.length}" failures="${c.fail}" skipped="${c['not-seen']}">\n  <testsuite name="${xml(`readiness of ${meta.source}`)}" tests="${report.checks.length}" failures="${c.fail}" skipped="${c['not-seen']}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

function md(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function auditMarkdown(report: AuditReport, meta: AuditMeta): string {
  const lines = [`# Readiness of ${md(meta.source)}`, '', '| Host | Ready | Failing checks |', '|---|---|---|'];
  for (const h of report.hosts) lines.push(`| ${h.name} | ${h.ready ? 'yes' : 'no'} | ${h.failing.join(', ')} |`);
  lines.push('', '| Check | Hosts | Verdict | Evidence | Fix | Source |', '|---|---|---|---|---|---|');
  for (const r of [...report.checks].sort((a, b) => ORDER[a.verdict] - ORDER[b.verdict])) {
    const evidence = r.findings.length ? r.findings.map((f) => `${md(f.message)} (${md(evidenceText(f.evidence))})`).join('<br>') : r.verdict === 'not-seen' ? `not seen: ${md(r.needs)}` : md(r.summary);
    lines.push(`| \`${r.id}\` ${md(r.title)} | ${r.hosts.join(', ')} | ${r.verdict} | ${evidence} | ${md(r.fix)} | [${r.source.kind}](${r.source.url}) |`);
  }
  return `${lines.join('\n')}\n`;
}
