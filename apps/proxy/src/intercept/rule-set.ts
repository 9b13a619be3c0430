/**
 * The rules in force: added (from the dashboard's API or the command line, never from traffic),
 * toggled and removed by id, saved with the capture. `decide` picks the first enabled rule whose
 * filter matches a client message and spends one of its count.
 */
import { compileFilter, parseRule, printRule, ruleSubject, type ExchangeSummary, type FilterError, type InterceptRule, type RuleSubject } from '@mcpscope/protocol';
import type { StoredRule } from './intercept-store.js';

export interface ActiveRule {
  id: string;
  /** The rule in canonical form (what frames and exports name). */
  text: string;
  rule: InterceptRule;
  enabled: boolean;
  /** How many times it acted. */
  hits: number;
  matches: (ex: ExchangeSummary) => boolean;
}

export type AddResult = { ok: true; rule: ActiveRule } | { ok: false; error: FilterError };

export class RuleSet {
  private readonly rules: ActiveRule[] = [];
  private enabledCount = 0;
  private nextId = 1;

  constructor(private readonly random: () => number = Math.random) {}

  get active(): boolean {
    return this.enabledCount > 0;
  }

  list(): ActiveRule[] {
    return this.rules.slice();
  }

  add(text: string, stored?: StoredRule): AddResult {
    const parsed = parseRule(text);
    if (!parsed.ok) return parsed;
    const id = stored?.id ?? `r${this.nextId}`;
    this.nextId = Math.max(this.nextId, Number(id.slice(1)) + 1 || this.nextId + 1);
    const rule: ActiveRule = { id, text: printRule(parsed.rule), rule: parsed.rule, enabled: stored?.enabled ?? true, hits: stored?.hits ?? 0, matches: compileFilter(parsed.rule.filter) };
    this.rules.push(rule);
    if (rule.enabled) this.enabledCount++;
    return { ok: true, rule };
  }

  get(id: string): ActiveRule | undefined {
    return this.rules.find((r) => r.id === id);
  }

  setEnabled(id: string, enabled: boolean): ActiveRule | undefined {
    const rule = this.get(id);
    if (!rule || rule.enabled === enabled) return rule;
    rule.enabled = enabled;
    this.enabledCount += enabled ? 1 : -1;
    return rule;
  }

  remove(id: string): boolean {
    const at = this.rules.findIndex((r) => r.id === id);
    if (at === -1) return false;
    if (this.rules[at]!.enabled) this.enabledCount--;
    this.rules.splice(at, 1);
    return true;
  }

  /** The rule that acts on this message now, its count spent (a rule whose count is used up turns itself off). */
  decide(raw: string, sessionKey: string | undefined, ts: number): { rule: ActiveRule; subject: RuleSubject } | undefined {
    const subject = ruleSubject(raw, sessionKey ?? '', ts);
    if (!subject) return undefined;
    for (const rule of this.rules) {
      if (!rule.enabled || !rule.matches(subject.summary)) continue;
      const count = rule.rule.count;
      if (count.type === 'percent' && this.random() * 100 >= count.p) continue;
      rule.hits++;
      if (count.type === 'times' && rule.hits >= count.n) this.setEnabled(rule.id, false);
      return { rule, subject };
    }
    return undefined;
  }
}
