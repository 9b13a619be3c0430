/**
 * The sessions a picker offers (Drive's target, Replay's session, Export's scope): the session
 * chosen in the sidebar first, the picker's own value, then the newest others the live store
 * holds, at most SESSION_CHOICES in all. A capture's churn holds thousands of sessions; a picker
 * that listed each would draw thousands of options on every render and bury the one the user is
 * looking at. A session not offered is reached through the sidebar (its list is read by windows and
 * `session=` finds any key): once chosen there it comes first here.
 */
import type { SessionSummary } from '@mcpscope/protocol';
import { useLive } from './live-store.js';
import { useUi } from './ui-store.js';

/** Options a session picker draws at most. */
export const SESSION_CHOICES = 200;

export interface SessionChoices {
  sessions: SessionSummary[];
  /** Sessions held but not offered (the sidebar reaches them, and those not held). */
  more: number;
}

/** The choices from the held sessions: `first` (those present, in order, each once), then the newest by start. */
export function sessionChoices(held: ReadonlyMap<string, SessionSummary>, first: readonly (string | undefined)[], limit = SESSION_CHOICES): SessionChoices {
  const out: SessionSummary[] = [];
  const taken = new Set<string>();
  for (const key of first) {
    const s = key === undefined || key === '' ? undefined : held.get(key);
    if (s && !taken.has(s.sessionKey)) {
      out.push(s);
      taken.add(s.sessionKey);
    }
  }
  const newest = [...held.values()].filter((s) => !taken.has(s.sessionKey)).sort((a, b) => b.firstTs - a.firstTs);
  const room = Math.max(0, limit - out.length);
  out.push(...newest.slice(0, room));
  return { sessions: out, more: Math.max(0, newest.length - room) };
}

/** `sessionChoices` of the live store's sessions, the sidebar's chosen session and `value` first. */
export function useSessionChoices(value?: string): SessionChoices {
  const held = useLive((s) => s.sessions);
  const chosen = useUi((s) => s.session);
  return sessionChoices(held, [chosen, value]);
}
