/**
 * Small helpers every check uses: the outcome of a list of findings, the not-seen outcome, the
 * date the sources were checked, and `_meta` readers.
 */
import { isJsonObject, type JsonObject } from '../model/json-rpc.js';
import type { CheckOutcome, CheckSource, Finding } from './audit-types.js';

/** The day every source of the built-in checks was read against its rule. */
export const CHECKED = '2026-12-06';

export function docs(url: string): CheckSource {
  return { url, kind: 'docs', checked: CHECKED };
}
export function spec(url: string): CheckSource {
  return { url, kind: 'spec', checked: CHECKED };
}
export function fieldReport(url: string): CheckSource {
  return { url, kind: 'field-report', checked: CHECKED };
}

/** fail if any finding fails, warn if any warns, else pass with `passed` as the summary. */
export function outcome(findings: Finding[], passed: string): CheckOutcome {
  if (findings.some((f) => f.verdict === 'fail')) return { verdict: 'fail', findings, summary: `${count(findings, 'fail')} failing` + (count(findings, 'warn') ? `, ${count(findings, 'warn')} warning` : '') };
  if (findings.length > 0) return { verdict: 'warn', findings, summary: `${findings.length} warning${findings.length === 1 ? '' : 's'}` };
  return { verdict: 'pass', findings, summary: passed };
}

export function notSeen(summary: string): CheckOutcome {
  return { verdict: 'not-seen', findings: [], summary };
}

function count(findings: Finding[], verdict: Finding['verdict']): number {
  return findings.filter((f) => f.verdict === verdict).length;
}

export function metaOf(value: JsonObject | undefined): JsonObject | undefined {
  return value && isJsonObject(value._meta) ? value._meta : undefined;
}

export function uiOf(meta: JsonObject | undefined): JsonObject | undefined {
  return meta && isJsonObject(meta.ui) ? meta.ui : undefined;
}

/** Walks a JSON value, calling `visit` with each object member's key and path. */
export function walkKeys(value: unknown, path: string, visit: (key: string, path: string) => void, depth = 0): void {
  if (depth > 32) return;
  if (Array.isArray(value)) value.forEach((v, i) => walkKeys(v, `${path}[${i}]`, visit, depth + 1));
  else if (isJsonObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      const child = /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`;
      visit(k, child);
      walkKeys(v, child, visit, depth + 1);
    }
  }
}
