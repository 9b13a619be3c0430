/**
 * The session the view is scoped to (chosen in the sidebar), said where the filter is: without
 * it a chosen session narrowed the timeline invisibly. ✕ shows every session again.
 */
import { useSessionFact } from '../store/use-session.js';
import { useUi } from '../store/ui-store.js';
import { shortSessionKey } from '../ui/short-key.js';

export function useSessionScopeLabel(): string | undefined {
  const session = useUi((s) => s.session);
  const label = useSessionFact(session, (s) => s.clientLabel);
  if (!session) return undefined;
  return `${label ?? 'session'} ${shortSessionKey(session, 8)}`;
}

export function SessionScope() {
  const session = useUi((s) => s.session);
  const label = useSessionScopeLabel();
  if (!session || !label) return null;
  return (
    <span className="chip session-scope" data-testid="session-scope" title={`Only session ${session} (chosen in the sidebar)`}>
      session: {label}
      <button type="button" className="ghost" aria-label="Show every session" onClick={() => useUi.getState().setSession(undefined)}>✕</button>
    </span>
  );
}
