/**
 * Sessions mcpscope opened itself (a replay or re-run in a fresh session, a widget preview's
 * calls): their first frame was recorded by the replay service, so the session's transport is
 * `replay`. A labelled one (the widget preview) presents itself as `mcpscope (LABEL)` in its
 * User-Agent. They belong to no host conversation: a host's churn counts the host's sessions.
 */
import type { SessionSummary } from './session-summary.js';

/** What opened one of mcpscope's own sessions: a replay (or re-run), or a labelled feature. */
export type OwnSessionKind = { kind: 'replay' } | { kind: 'labelled'; label: string };

const LABELLED_USER_AGENT = /^mcpscope \((.+)\)$/;

export function isOwnSession(s: Pick<SessionSummary, 'transport'>): boolean {
  return s.transport === 'replay';
}

/** Undefined for a session a client opened. */
export function ownSessionKind(s: Pick<SessionSummary, 'transport' | 'userAgent'>): OwnSessionKind | undefined {
  if (!isOwnSession(s)) return undefined;
  const label = s.userAgent === undefined ? undefined : LABELLED_USER_AGENT.exec(s.userAgent)?.[1];
  return label !== undefined ? { kind: 'labelled', label } : { kind: 'replay' };
}
