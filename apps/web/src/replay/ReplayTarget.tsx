/**
 * Where a replay goes: the composer's session chooser (none = fresh only) and the mode switch
 * between the live session and a fresh one mcpscope opens as the captured client.
 */
import { shortSessionKey } from '../ui/short-key.js';
import { useSessionChoices } from '../store/session-choices.js';
import type { ReplayState } from './use-replay.js';

export function ComposerSessionChooser({ replay }: { replay: ReplayState }) {
  const { sessions, more } = useSessionChoices(replay.composerSession);
  return (
    <label>
      Session{' '}
      <select data-testid="replay-session" value={replay.composerSession} onChange={(e) => replay.setComposerSession(e.target.value)}>
        <option value="">none (fresh only)</option>
        {sessions.map((s) => (
          <option key={s.sessionKey} value={s.sessionKey}>{`${s.clientLabel ?? 'client'} · ${shortSessionKey(s.sessionKey, 12)}`}</option>
        ))}
        {more > 0 && <option disabled value="" data-testid="sessions-not-offered">{`… ${more} more: choose one in the sidebar to offer it here`}</option>}
      </select>
    </label>
  );
}

export function ReplayModeSwitch({ replay }: { replay: ReplayState }) {
  const { mode, setMode, sessionKey } = replay;
  return (
    <fieldset className="replay-mode" aria-label="Replay mode">
      <label title="Into the live session: same Mcp-Session-Id, credentials and protocol version">
        <input type="radio" name="replay-mode" value="session" data-testid="replay-mode-session" checked={mode === 'session'} disabled={!sessionKey} onChange={() => setMode('session')} /> in its session
      </label>
      <label title="mcpscope opens its own session as the captured client, then sends">
        <input type="radio" name="replay-mode" value="fresh" data-testid="replay-mode-fresh" checked={mode === 'fresh'} onChange={() => setMode('fresh')} /> fresh session
      </label>
    </fieldset>
  );
}
