/**
 * Before a replay into a session that is over: the client ended it (DELETE seen) or the server
 * no longer knows it (it refused the session id). Such a replay would only be refused, so the
 * warning offers the fresh session right there.
 */
import { useDoor } from '../store/door-store.js';
import { useLive } from '../store/live-store.js';
import type { ReplayState } from './use-replay.js';

export function SessionEndedWarning({ replay }: { replay: ReplayState }) {
  const session = useLive((s) => (replay.sessionKey ? s.sessions.get(replay.sessionKey) : undefined));
  const closed = useDoor((d) => (replay.sessionKey ? d.endedSessions.has(replay.sessionKey) : false));
  if (replay.mode !== 'session' || !session || !(session.ended || closed || session.expired)) return null;
  const why = session.ended || closed ? 'the client closed it (DELETE)' : 'the server no longer knows its session id';
  return (
    <div className="replay-warning" role="status" data-testid="replay-session-ended">
      This session has ended: {why}. A replay into it will be refused.{' '}
      <button type="button" className="small" data-testid="replay-use-fresh" onClick={() => replay.setMode('fresh')}>Use a fresh session</button>
    </div>
  );
}
