/**
 * What the dashboard says about a conversation: which evidence joined its sessions (a guess must
 * read as one), its churn, its era lane in words, and how choosing one maps onto the filter
 * language (`conversation:KEY`, so the choice is in the filter bar and the URL like any other).
 * Pure, so it is tested alone.
 */
import { ERROR_STATUSES, JOIN_EVIDENCE, type ConversationSummary, type EraStep, type JoinEvidence, type SessionSummary } from '@mcpscope/protocol';

export const EVIDENCE_WORDS: Record<JoinEvidence, string> = {
  host: 'openai/session',
  credential: 'credential',
  'client-time': 'client and time',
};

/** Shown wherever a credential joined sessions: what mcpscope kept of it, and what it did not. */
export const CREDENTIAL_NOTE =
  'Joined by a salted fingerprint of the Authorization header, taken before redaction: mcpscope never stores the token, and the fingerprint is only comparable within this capture file.';

/** "joined by openai/session", "joined by client and time (a guess)", or the mix, by count. */
export function evidenceLabel(c: Pick<ConversationSummary, 'joinedBy'>): string {
  const parts = JOIN_EVIDENCE.filter((e) => (c.joinedBy[e] ?? 0) > 0);
  if (parts.length === 0) return 'nothing joined yet';
  // One member joined nothing: there is no guess to own up to.
  if (parts.length === 1 && c.joinedBy[parts[0]!] === 1) return parts[0] === 'host' ? 'one session, with its openai/session' : 'one session';
  if (parts.length === 1) return `joined by ${EVIDENCE_WORDS[parts[0]!]}${parts[0] === 'client-time' ? ' (a guess)' : ''}`;
  return `joined by ${parts.map((e) => `${EVIDENCE_WORDS[e]} ×${c.joinedBy[e]}`).join(', ')}`;
}

/** The weakest evidence in the conversation: what its membership as a whole rests on. */
export function weakestEvidence(c: Pick<ConversationSummary, 'joinedBy'>): JoinEvidence | undefined {
  for (let i = JOIN_EVIDENCE.length - 1; i >= 0; i--) if ((c.joinedBy[JOIN_EVIDENCE[i]!] ?? 0) > 0) return JOIN_EVIDENCE[i];
  return undefined;
}

export function errorCount(c: Pick<ConversationSummary, 'counts'>): number {
  let n = 0;
  for (const s of ERROR_STATUSES) n += c.counts[s] ?? 0;
  return n;
}

export function exchangeCount(c: Pick<ConversationSummary, 'counts'>): number {
  let n = 0;
  for (const v of Object.values(c.counts)) n += v ?? 0;
  return n;
}

/** The churn in one line: sessions, handshakes, lists per call, unused sessions, stale calls. */
export function churnLine(c: Pick<ConversationSummary, 'churn'>): string {
  const k = c.churn;
  const parts = [`${k.sessions} session${k.sessions === 1 ? '' : 's'}`, `${k.initialize} initialize`, `${k.toolsList} tools/list for ${k.toolsCall} tools/call`];
  if (k.unusedSessions > 0) parts.push(`${k.unusedSessions} unused`);
  if (k.staleSessionCalls > 0) parts.push(`${k.staleSessionCalls} on a stale session`);
  return parts.join(' · ');
}

/** Whether the host churns: more sessions than a client that keeps its session would open. */
export function churns(c: Pick<ConversationSummary, 'churn'>): boolean {
  return c.churn.sessions > 1 && c.churn.initialize >= c.churn.sessions;
}

export function stepText(s: EraStep): string {
  const what = s.kind === 'discover' ? 'server/discover' : 'initialize';
  return `${what}${s.requested ? ` ${s.requested}` : ''} → ${s.answer}`;
}

const TERM = /(^|\s)conversation:(\S+)/;

/** The conversation the filter text chooses (its `conversation:KEY` term), if any. */
export function chosenConversation(filter: string): string | undefined {
  return TERM.exec(filter)?.[2];
}

/** The filter text with its conversation term replaced by `key` (removed when undefined). */
export function withConversation(filter: string, key: string | undefined): string {
  const rest = filter.split(/\s+/).filter((t) => t && !t.startsWith('conversation:'));
  return (key === undefined ? rest : [`conversation:${key}`, ...rest]).join(' ');
}

/** Sessions by conversation, oldest first within each; sessions no conversation holds under ''. */
export function sessionsByConversation(sessions: Iterable<SessionSummary>): Map<string, SessionSummary[]> {
  const out = new Map<string, SessionSummary[]>();
  for (const s of sessions) {
    const key = s.conversationKey ?? '';
    let list = out.get(key);
    if (!list) out.set(key, (list = []));
    list.push(s);
  }
  for (const list of out.values()) list.sort((a, b) => a.firstTs - b.firstTs);
  return out;
}

/** Conversations that hold something, the most recently started first. */
export function listed(conversations: Iterable<ConversationSummary>): ConversationSummary[] {
  return [...conversations].filter((c) => weakestEvidence(c) !== undefined).sort((a, b) => b.firstTs - a.firstTs);
}

/** Conversations the sidebar draws at most: past it, a day of a host's traffic would draw thousands on every tick. */
export const CONVERSATIONS_SHOWN = 300;

/**
 * The first `limit` of a `listed` list, and the chosen conversation wherever it is (after them);
 * `more`: how many are not drawn (the filter's `conversation:` reaches each).
 */
export function shownConversations(list: readonly ConversationSummary[], chosen: string | undefined, limit = CONVERSATIONS_SHOWN): { shown: ConversationSummary[]; more: number } {
  const shown = list.slice(0, limit);
  const far = chosen === undefined ? undefined : list.slice(limit).find((c) => c.key === chosen);
  if (far) shown.push(far);
  return { shown, more: list.length - shown.length };
}

/** Whether row `at` of a view starts another session than the row above it (a thin line in a conversation's timeline). */
export function startsSession(ids: readonly string[], at: number, sessionOf: (id: string) => string | undefined): boolean {
  return at > 0 && sessionOf(ids[at]!) !== sessionOf(ids[at - 1]!);
}
