/**
 * What the Readiness view shows of an audit report, as pure functions: each check's verdict as
 * one host sees it (a check whose findings break only other hosts passes here), the rows a host
 * and verdict filter keep, and a host's one-line summary. The report itself is never changed.
 */
import type { CheckResult, Finding, HostId, HostReadiness } from '@mcpscope/protocol';

/** A check's verdict (the root export `Verdict` names the cassette comparison's). */
export type Verdict = CheckResult['verdict'];

export type VerdictFilter = Verdict | 'all';

export const VERDICTS: readonly Verdict[] = ['fail', 'warn', 'pass', 'not-seen'];

export const VERDICT_LABEL: Record<Verdict, string> = { pass: 'pass', warn: 'warn', fail: 'fail', 'not-seen': 'not seen' };

/** The dashboard's tone classes (styles.css). */
export const VERDICT_TONE: Record<Verdict, string> = { pass: 'tone-ok', warn: 'tone-warn', fail: 'tone-error', 'not-seen': 'tone-muted' };

/** The hosts a finding breaks: its own list, or every host of its check. */
export function findingHosts(check: CheckResult, finding: Finding): readonly HostId[] {
  return finding.hosts ?? check.hosts;
}

/** A check's findings as `host` sees them (all of them with no host). */
export function findingsFor(check: CheckResult, host: HostId | undefined): Finding[] {
  return host === undefined ? check.findings : check.findings.filter((f) => findingHosts(check, f).includes(host));
}

/**
 * A check's verdict for one host, read as the report's host readiness reads it: fail or warn
 * when a finding of that verdict breaks the host; a check that fails only elsewhere passes here.
 */
export function verdictFor(check: CheckResult, host: HostId | undefined): Verdict {
  if (host === undefined) return check.verdict;
  const mine = findingsFor(check, host);
  if (mine.some((f) => f.verdict === 'fail')) return 'fail';
  if (mine.some((f) => f.verdict === 'warn')) return 'warn';
  return check.verdict === 'fail' || check.verdict === 'warn' ? 'pass' : check.verdict;
}

export interface CheckRow {
  check: CheckResult;
  verdict: Verdict;
  findings: Finding[];
}

const ORDER: Record<Verdict, number> = { fail: 0, warn: 1, 'not-seen': 2, pass: 3 };

/**
 * The table's rows: the checks that affect `host` (all with none) whose verdict there matches,
 * failures first, then warnings, not-seen and passes, each group in the report's order.
 */
export function checkRows(checks: readonly CheckResult[], host: HostId | undefined, verdict: VerdictFilter): CheckRow[] {
  return checks
    .filter((c) => host === undefined || c.hosts.includes(host))
    .map((check) => ({ check, verdict: verdictFor(check, host), findings: findingsFor(check, host) }))
    .filter((row) => verdict === 'all' || row.verdict === verdict)
    .map((row, index) => ({ row, index }))
    .sort((a, b) => ORDER[a.row.verdict] - ORDER[b.row.verdict] || a.index - b.index)
    .map(({ row }) => row);
}

/** "ready", or "N problems" (failing checks); warnings are counted apart. */
export function hostSummary(host: HostReadiness): string {
  if (host.ready) return 'ready';
  const n = host.failing.length;
  return `${n} problem${n === 1 ? '' : 's'}`;
}

/** How many checks of each verdict the rows for `host` hold (the verdict filter's counts). */
export function verdictCounts(checks: readonly CheckResult[], host: HostId | undefined): Record<Verdict, number> {
  const counts: Record<Verdict, number> = { pass: 0, warn: 0, fail: 0, 'not-seen': 0 };
  for (const row of checkRows(checks, host, 'all')) counts[row.verdict]++;
  return counts;
}

/** The hosts' short names, as the table's host column and the filter say them. */
export const HOST_LABEL: Record<HostId, string> = { chatgpt: 'ChatGPT', claude: 'Claude', 'claude-code': 'Claude Code', cursor: 'Cursor', vscode: 'VS Code' };
