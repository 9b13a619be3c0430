/**
 * Replay into a churned conversation: ChatGPT and Claude open a new session for almost every call
 * and let the old ones lapse, so the session a call ran in is often gone by the time the user
 * replays it. Then a `session` replay goes into the conversation's newest live session instead,
 * and the answer says so (ReplayResponse.sessionFallback).
 *
 * Only where membership is evidence, not a guess: the original and the chosen session must both
 * have joined their conversation by the host's conversation id or by credential. A session is
 * live unless the capture saw the server forget it (404, or 400 on a session it never knew) or
 * its replay just failed that way; the newest such session is tried once.
 */
import { isImportedSession, isSessionlessKey, type ReplayResponse, type SessionSummary } from '@mcpscope/protocol';
import type { SessionCredentials } from './credentials.js';
import type { ReplayPlan } from './replay-plan.js';
import type { ReplayStore } from './replay-store.js';

export type SessionFallback = NonNullable<ReplayResponse['sessionFallback']>;

/** The newest live session of `gone`'s conversation, other than those in `tried`. */
export function liveSessionOf(store: ReplayStore, gone: SessionSummary, tried: ReadonlySet<string>): SessionSummary | undefined {
  if (!gone.conversationKey || gone.joinedBy === 'client-time' || gone.joinedBy === undefined) return undefined;
  return store.sessionsOf(gone.conversationKey).find(
    (s) =>
      !tried.has(s.sessionKey) &&
      !s.expired &&
      !s.ended &&
      s.joinedBy !== undefined &&
      s.joinedBy !== 'client-time' &&
      s.era !== 'modern' &&
      s.transport !== 'stdio' &&
      s.serverInfo !== undefined &&
      !isSessionlessKey(s.sessionKey) &&
      !isImportedSession(s.sessionKey),
  );
}

/** The plan sent into `to` instead: its session id, negotiated revision and credentials. */
export function redirect(plan: ReplayPlan, to: SessionSummary, credentials: SessionCredentials): ReplayPlan {
  const own = credentials.get(to.sessionKey);
  const wire = { ...plan.wire, sessionId: to.sessionKey, credentials: Object.keys(own).length > 0 ? own : plan.wire.credentials };
  if (to.protocolVersion !== undefined) wire.protocolVersion = to.protocolVersion;
  return { ...plan, sessionKey: to.sessionKey, session: to, wire };
}

export function fallbackNote(from: SessionSummary, to: SessionSummary, why: string): SessionFallback {
  return {
    from: from.sessionKey,
    to: to.sessionKey,
    conversationKey: to.conversationKey!,
    reason: `Session ${from.sessionKey} is gone (${why}); the replay went into ${to.sessionKey}, the newest live session of conversation ${to.conversationKey}.`,
  };
}
