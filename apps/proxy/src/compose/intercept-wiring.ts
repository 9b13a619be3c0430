/**
 * Intercept rules wired in: the feature over the capture file's tables (so the rule set and what
 * it did are saved with the capture), the rules given on the command line, and the dashboard's
 * view of it. A reopened capture gets the read-only view.
 */
import { parseRule, printRule, type RuleView } from '@mcpscope/protocol';
import type { InterceptRouteDeps } from '../api/routes/intercept.js';
import { InterceptTables } from '../capture/intercept-tables.js';
import type { SqliteDatabase } from '../capture/sqlite.js';
import { Intercept } from '../intercept/intercept.js';
import { memoryInterceptStore } from '../intercept/intercept-store.js';

/** The feature, with the command line's rules added (they were checked when the command line was read). */
export function startIntercept(db: SqliteDatabase | undefined, rules: readonly string[], now: () => number): Intercept {
  const intercept = new Intercept({ store: db ? new InterceptTables(db) : memoryInterceptStore(), now });
  // A capture started again with the same --rule keeps one copy of it.
  const known = new Set(intercept.rules.list().map((r) => r.text));
  for (const text of rules) {
    const canonical = canonicalRule(text);
    if (canonical === undefined || known.has(canonical)) continue;
    known.add(canonical);
    intercept.add(text);
  }
  return intercept;
}

export function interceptRouteDeps(intercept: Intercept): InterceptRouteDeps {
  return {
    rules: () => intercept.rules.list().map((r): RuleView => ({ id: r.id, text: r.text, enabled: r.enabled, hits: r.hits, action: r.rule.action.type })),
    held: () => intercept.held.list(),
    interventions: () => intercept.interventions(),
    control: {
      add: (text) => {
        const added = intercept.add(text);
        return added.ok ? { ok: true, rule: { id: added.rule.id, text: added.rule.text, enabled: added.rule.enabled, hits: added.rule.hits, action: added.rule.rule.action.type } } : added;
      },
      setEnabled: (id, enabled) => intercept.setEnabled(id, enabled) !== undefined,
      remove: (id) => intercept.remove(id),
      release: (id, text) => intercept.held.release(id, text),
      drop: (id) => intercept.held.drop(id),
    },
  };
}

/** A reopened capture's rules and interventions, shown and never run. */
export function storedInterceptRoutes(db: SqliteDatabase): InterceptRouteDeps {
  const tables = new InterceptTables(db);
  return {
    rules: () => tables.rules().map((r) => ({ ...r, action: actionOf(r.text) })),
    held: () => [],
    interventions: () => tables.interventions(),
  };
}

function canonicalRule(text: string): string | undefined {
  const parsed = parseRule(text);
  return parsed.ok ? printRule(parsed.rule) : undefined;
}

function actionOf(text: string): string {
  const parsed = parseRule(text);
  return parsed.ok ? parsed.rule.action.type : '';
}
