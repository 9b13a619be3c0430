/**
 * `mcpscope verify --format github`: each failing call as a GitHub Actions workflow command
 * (`::error file=F,line=L,title=T::MESSAGE`), which a CI run shows as an annotation on the pull
 * request, at the line of the golden file that holds the call's request (for a .jsonl file; the
 * file as a whole otherwise). An additive change is a `::notice`, a run that could not happen one
 * `::error` without a line.
 *
 * Format and escaping as GitHub documents them ("Workflow commands for GitHub Actions",
 * docs.github.com/actions/reference/workflow-commands-for-github-actions): in the message `%`,
 * CR and LF are percent-encoded; in a property value `:` and `,` too.
 */
import { readFileSync, statSync } from 'node:fs';
import type { VerifyResult } from './verify-run.js';
import { callName, rowDetail, VERDICT_WORDS } from './verify-report.js';
import type { VerifyRow } from './verify-session.js';

/** A golden file larger than this is annotated without line numbers (it is not read twice). */
const MAX_LINE_SCAN_BYTES = 64 * 1024 * 1024;

export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

type Level = 'error' | 'warning' | 'notice';

function command(level: Level, properties: Record<string, string | number | undefined>, message: string): string {
  const props = Object.entries(properties)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(',');
  return `::${level}${props ? ` ${props}` : ''}::${escapeData(message)}`;
}

/** The annotations for a run, one line each. `lineOf` finds a call's request line in `file`. */
export function githubAnnotations(result: VerifyResult, file: string, lineOf: (exchangeId: string) => number | undefined = () => undefined): string[] {
  const out: string[] = [];
  if (result.couldNotRun !== undefined) out.push(command('error', { file, title: 'mcpscope verify could not run' }, result.couldNotRun));
  for (const row of result.rows) {
    const level = levelOf(row);
    if (!level) continue;
    const title = `mcpscope verify: ${callName(row)} ${VERDICT_WORDS[row.verdict]}`;
    out.push(command(level, { file, line: lineOf(row.exchangeId), title }, message(row)));
  }
  if (result.timedOut !== undefined) out.push(command('error', { file, title: 'mcpscope verify did not finish' }, result.timedOut));
  return out;
}

function levelOf(row: VerifyRow): Level | undefined {
  if (row.verdict === 'regressed' || row.verdict === 'failing' || row.verdict === 'error') return 'error';
  if (row.verdict === 'changed') return 'notice';
  return undefined;
}

function message(row: VerifyRow): string {
  const lines = [`#${row.exchangeId} (session ${row.sessionKey}): before ${row.before}, after ${row.after ?? 'no answer'}.`];
  const detail = rowDetail(row);
  if (detail) lines.push(detail);
  if (row.verdict === 'failing') lines.push('--expect ok: this call must succeed now.');
  return lines.join('\n');
}

/**
 * The 1-based line of each frame in a mcpscope JSONL file, by the id verify gives the exchange it
 * opens: verify reads a file's frames numbered 1, 2, 3… in file order (compose/capture-file.ts),
 * and an exchange's id is the number of its request frame (`.N` after it for a batch's item).
 * Nothing for any other file.
 */
export function jsonlFrameLines(path: string): (exchangeId: string) => number | undefined {
  const none = () => undefined;
  if (!/\.jsonl$/i.test(path)) return none;
  let text: string;
  try {
    if (statSync(path).size > MAX_LINE_SCAN_BYTES) return none;
    text = readFileSync(path, 'utf8');
  } catch {
    return none;
  }
  // Frame lines open with their seq (jsonl.ts writes fields in a fixed order); other lines carry a `type` first.
  const lines: number[] = [];
  text.split('\n').forEach((line, i) => {
    if (/^\{"seq":\d+,/.test(line)) lines.push(i + 1);
  });
  return (exchangeId) => lines[Number.parseInt(exchangeId, 10) - 1];
}
