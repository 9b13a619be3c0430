/**
 * Pure helpers of the intercept views: the countdown to a held frame's deadline, the rule list
 * (each rule with what it did), how often to poll, which interventions belong to an exchange,
 * and the reaction in words.
 */
import type { ExchangeSummary, InterceptResponse, Intervention, Reaction, ReactionKind, RuleView } from '@mcpscope/protocol';

/** Time left before a held frame goes on by itself: `12s`, `1:05`, or `0s` once past. */
export function formatCountdown(remainingMs: number): string {
  const seconds = Math.max(0, Math.ceil(remainingMs / 1000));
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Polling while the panel is open, a frame is held or an enabled rule may pause one; slower otherwise. */
export const FAST_POLL_MS = 500;
export const IDLE_POLL_MS = 3000;

export function pollInterval(state: InterceptResponse | undefined, panelOpen: boolean): number {
  if (panelOpen || !state) return FAST_POLL_MS;
  if (state.held.length > 0) return FAST_POLL_MS;
  return state.rules.some((r) => r.enabled && r.action === 'pause') ? FAST_POLL_MS : IDLE_POLL_MS;
}

export interface RuleRow {
  rule: RuleView;
  /** How many times it acted (the rule's own count). */
  hits: number;
  /** Its interventions, by action, in words: `2 paused`, `1 error`. */
  did: string;
}

export function ruleRows(rules: readonly RuleView[], interventions: readonly Intervention[]): RuleRow[] {
  return rules.map((rule) => {
    const byAction = new Map<string, number>();
    for (const i of interventions) if (i.ruleId === rule.id) byAction.set(i.action, (byAction.get(i.action) ?? 0) + 1);
    const did = [...byAction].map(([action, n]) => `${n} ${action}`).join(', ');
    return { rule, hits: rule.hits, did };
  });
}

/** The interventions on an exchange: those whose request or delivered frame is one of its frames. */
export function interventionsOf(ex: Pick<ExchangeSummary, 'sessionKey' | 'frameSeqs'>, interventions: readonly Intervention[]): Intervention[] {
  const seqs = new Set(ex.frameSeqs);
  return interventions.filter((i) => seqs.has(i.requestSeq) || (i.deliveredSeq >= 0 && seqs.has(i.deliveredSeq)));
}

const REACTION_WORDS: Record<ReactionKind, string> = {
  retried: 'retried the same call',
  're-initialized': 're-initialized the session',
  'listed-tools': 'listed tools again',
  'called-another-tool': 'called another tool',
  cancelled: 'cancelled',
  're-authenticated': 're-authenticated',
  'other-request': 'sent another request',
};

/** What the client did next, one line per kind; "nothing" when the watch ended with none, "watching" while it runs. */
export function reactionLines(reaction: Reaction | undefined): string[] {
  if (!reaction || reaction.events.length === 0) return [reaction?.final ? 'nothing' : 'watching…'];
  return reaction.events.map((e) => `${REACTION_WORDS[e.kind]}${e.count > 1 ? ` ${e.count}×` : ''} after ${formatAfter(e.afterMs)}${e.detail ? ` (${e.detail})` : ''}`);
}

function formatAfter(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
}
