/**
 * What `mcpscope verify` says: a table for the terminal (one row per call: before, after,
 * verdict, the first differing JSON path), a JSON report and a JUnit XML report for CI, and the
 * exit code (0 nothing regressed, 1 something did, 2 the run could not happen). An additive
 * change (`changed`: the answer only gained members) passes; `--strict` compares it as a regression.
 */
import { isJsonObject, terminalLine, type JsonObject } from '@mcpscope/protocol';
import type { VerifyResult } from './verify-run.js';
import type { RowVerdict, VerifyRow } from './verify-session.js';

export const EXIT_SAME = 0;
export const EXIT_REGRESSED = 1;
export const EXIT_COULD_NOT_RUN = 2;

/** Verdicts that fail a run: a regression, a call that still fails under `--expect ok`, a call that could not run. */
const FAILING: ReadonlySet<RowVerdict> = new Set(['regressed', 'failing', 'error']);

export function exitCode(result: VerifyResult): number {
  if (result.couldNotRun !== undefined || result.timedOut !== undefined) return EXIT_COULD_NOT_RUN;
  return result.rows.some((r) => FAILING.has(r.verdict)) ? EXIT_REGRESSED : EXIT_SAME;
}

export interface ReportMeta {
  file: string;
  target: string;
  only?: string;
  expectOk: boolean;
  strict?: boolean;
  ignore: string[];
  startedAt: string;
}

export type Counts = Record<RowVerdict, number>;

/** How a verdict reads in the table's verdict column (upper-cased there), and JUnit's for an additive change. */
export const VERDICT_WORDS: Record<RowVerdict, string> = { same: 'same', fixed: 'fixed', changed: 'changed (additive)', regressed: 'regressed', failing: 'failing', skipped: 'skipped', error: 'error' };

export function counts(rows: readonly VerifyRow[]): Counts {
  const out: Counts = { same: 0, fixed: 0, changed: 0, regressed: 0, failing: 0, skipped: 0, error: 0 };
  for (const r of rows) out[r.verdict]++;
  return out;
}

const STATUS_WORDS: Record<string, string> = { ok: 'ok', protocol_error: 'protocol error', business_error: 'tool error', transport_error: 'transport error', pending: 'no answer', cancelled: 'cancelled' };

/** What the call was, for humans: `tools/call get-sum`. */
export function callName(row: Pick<VerifyRow, 'method' | 'target'>): string {
  return row.target !== undefined ? `${row.method} ${row.target}` : row.method;
}

/** Why a row is what it is, in one cell: the first differing path, or the note. */
export function rowDetail(row: VerifyRow): string {
  const d = row.difference;
  if (d && d.kind !== 'status' && d.path !== undefined) return `${d.kind} ${d.path}: ${d.before ?? ''} → ${d.after ?? ''}`;
  if (row.afterFailure !== undefined && row.after === 'transport_error') return row.afterFailure;
  if (d?.kind === 'status' && row.afterAnswer) return answerGist(row.afterAnswer);
  return row.note ?? '';
}

/** What a live error says, in a line: `error -32603: boom`, or a tool error's first text. */
function answerGist(answer: JsonObject): string {
  if (isJsonObject(answer.error)) return `error ${String(answer.error.code)}: ${String(answer.error.message)}`.slice(0, 160);
  const result = isJsonObject(answer.result) ? answer.result : undefined;
  const first = Array.isArray(result?.content) ? result.content.find((c) => isJsonObject(c) && typeof c.text === 'string') : undefined;
  return isJsonObject(first) ? `tool said: ${String(first.text)}`.slice(0, 160) : '';
}

/**
 * The terminal table, columns padded to their widest cell (the detail column is left free). Each
 * cell quotes the capture or the live server, so each is one escaped line (terminalLine): no
 * control sequence reaches the terminal and no answer text starts a row of its own.
 */
export function formatTable(rows: readonly VerifyRow[]): string {
  const header = ['#', 'call', 'before', 'after', 'verdict', 'first difference'];
  const cells = rows.map((r) => [r.exchangeId, callName(r), STATUS_WORDS[r.before] ?? r.before, r.after ? STATUS_WORDS[r.after]! : '—', VERDICT_WORDS[r.verdict].toUpperCase(), rowDetail(r)].map(terminalLine));
  const widths = header.slice(0, -1).map((h, i) => Math.min(48, Math.max(h.length, ...cells.map((c) => c[i]!.length))));
  const line = (c: string[]) => c.map((cell, i) => (i < widths.length ? clip(cell, widths[i]!).padEnd(widths[i]!) : cell)).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '─'.repeat(w)).concat('─'.repeat(16))), ...cells.map(line)].join('\n') + '\n';
}

export function formatSummary(result: VerifyResult): string {
  if (result.couldNotRun !== undefined) return `could not run: ${result.couldNotRun}`;
  const c = counts(result.rows);
  const parts = [`${result.rows.length} calls`, `${c.same} same`, c.fixed && `${c.fixed} fixed`, c.changed && `${c.changed} ${VERDICT_WORDS.changed}`, `${c.regressed} regressed`, c.failing && `${c.failing} still failing`, c.error && `${c.error} could not run`, c.skipped && `${c.skipped} skipped`];
  const summary = `${parts.filter(Boolean).join(', ')} (${result.sessions} session${result.sessions === 1 ? '' : 's'}, ${(result.durationMs / 1000).toFixed(1)} s)`;
  return result.timedOut !== undefined ? `${summary}\nnot finished: ${result.timedOut}` : summary;
}

export function jsonReport(result: VerifyResult, meta: ReportMeta): string {
  return `${JSON.stringify({ format: 'mcpscope-verify', version: 1, ...meta, exitCode: exitCode(result), ...(result.couldNotRun !== undefined ? { couldNotRun: result.couldNotRun } : {}), ...(result.timedOut !== undefined ? { timedOut: result.timedOut } : {}), summary: counts(result.rows), durationMs: result.durationMs, warnings: result.warnings, rows: result.rows }, null, 2)}\n`;
}

/**
 * JUnit XML as CI systems read it (Jenkins, GitLab, GitHub test reporters): one testsuite per
 * captured session, one testcase per call; a regression or a still-failing call is a
 * `<failure>`, a call that could not run an `<error>`, a skipped one `<skipped>`; an additive
 * change passes and says so in its `<system-out>`.
 */
export function junitReport(result: VerifyResult, meta: ReportMeta): string {
  const bySession = new Map<string, VerifyRow[]>();
  for (const r of result.rows) bySession.set(r.sessionKey, [...(bySession.get(r.sessionKey) ?? []), r]);
  const total = counts(result.rows);
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="mcpscope verify ${attr(meta.file)} against ${attr(meta.target)}" tests="${result.rows.length}" failures="${total.regressed + total.failing}" errors="${total.error}" skipped="${total.skipped}" time="${seconds(result.durationMs)}">`);
  if (result.couldNotRun !== undefined) {
    out.push(`  <testsuite name="verify" tests="1" failures="0" errors="1" skipped="0" time="0">`, `    <testcase name="run" classname="mcpscope.verify"><error message="${attr(result.couldNotRun)}"/></testcase>`, '  </testsuite>');
  }
  for (const [session, rows] of bySession) {
    const c = counts(rows);
    const time = rows.reduce((t, r) => t + (r.durationMs ?? 0), 0);
    out.push(`  <testsuite name="session ${attr(session)}" tests="${rows.length}" failures="${c.regressed + c.failing}" errors="${c.error}" skipped="${c.skipped}" time="${seconds(time)}">`);
    for (const r of rows) {
      const open = `    <testcase name="#${attr(r.exchangeId)} ${attr(callName(r))}" classname="mcpscope.verify.${attr(session)}" time="${seconds(r.durationMs ?? 0)}"`;
      const what = `before: ${r.before}, after: ${r.after ?? '—'}${rowDetail(r) ? `; ${rowDetail(r)}` : ''}`;
      if (r.verdict === 'regressed' || r.verdict === 'failing') {
        out.push(`${open}>`, `      <failure message="${attr(`${r.verdict}: ${what}`)}" type="${r.difference?.kind ?? r.verdict}">${text(failureBody(r))}</failure>`, '    </testcase>');
      } else if (r.verdict === 'error') {
        out.push(`${open}>`, `      <error message="${attr(what)}"/>`, '    </testcase>');
      } else if (r.verdict === 'changed') {
        out.push(`${open}>`, `      <system-out>${text(`${VERDICT_WORDS.changed}: ${what}`)}</system-out>`, '    </testcase>');
      } else if (r.verdict === 'skipped') {
        out.push(`${open}>`, `      <skipped message="${attr(r.note ?? 'skipped')}"/>`, '    </testcase>');
      } else {
        out.push(`${open}/>`);
      }
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

function failureBody(r: VerifyRow): string {
  const lines = [`verdict: ${r.verdict}`, `before: ${r.before}`, `after: ${r.after ?? '—'}`];
  if (r.difference?.path !== undefined) lines.push(`first difference (${r.difference.kind}) at ${r.difference.path}`, `  before: ${r.difference.before ?? ''}`, `  after:  ${r.difference.after ?? ''}`);
  if (r.afterFailure !== undefined) lines.push(`transport: ${r.afterFailure}`);
  return lines.join('\n');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function clip(s: string, width: number): string {
  return s.length > width ? `${s.slice(0, width - 1)}…` : s;
}

/** XML-safe text: the five entities, and no control characters XML 1.0 forbids. */
function text(s: string): string {
  // eslint-disable-next-line no-control-regex -- exactly the characters XML 1.0 cannot carry
  return s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(s: string): string {
  return text(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;');
}
