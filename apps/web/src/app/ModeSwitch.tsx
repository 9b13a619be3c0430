/** The top bar's choice of view: exchanges (the timeline), raw frames, connections (the door), or readiness (the audit). */
import { useUi } from '../store/ui-store.js';

export function ModeSwitch() {
  const mode = useUi((s) => s.mode);
  return (
    <span className="segmented" role="tablist" aria-label="View">
      <button type="button" role="tab" aria-selected={mode === 'exchanges'} className={mode === 'exchanges' ? 'on' : ''} onClick={() => useUi.getState().setMode('exchanges')}>
        Exchanges
      </button>
      <button type="button" role="tab" aria-selected={mode === 'frames'} data-testid="raw-switch" className={mode === 'frames' ? 'on' : ''} onClick={() => useUi.getState().setMode('frames')}>
        Raw frames
      </button>
      <button type="button" role="tab" aria-selected={mode === 'connections'} data-testid="connections-switch" className={mode === 'connections' ? 'on' : ''} title="Every HTTP request at the tap, and each client's connection flow (OAuth included)" onClick={() => useUi.getState().setMode('connections')}>
        Connections
      </button>
      <button type="button" role="tab" aria-selected={mode === 'readiness'} data-testid="readiness-switch" className={mode === 'readiness' ? 'on' : ''} title="Is the app ready for ChatGPT, Claude, Claude Code, Cursor and VS Code? The readiness audit over this capture" onClick={() => useUi.getState().setMode('readiness')}>
        Readiness
      </button>
    </span>
  );
}
