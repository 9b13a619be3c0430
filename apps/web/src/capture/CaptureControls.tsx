/**
 * The capture controls every network panel has: clear the view (the capture stays on disk; the
 * rows before the clear come back with "show all"), pause capture (the tap keeps forwarding; the
 * frames it forwards meanwhile are not stored, and the pause and resume are marks in the
 * timeline), and drop a labelled mark into the timeline (stored in the capture).
 */
import { useState, type FormEvent } from 'react';
import type { ApiClient } from '../api/client.js';
import { useReadOnly, READ_ONLY_HINT } from '../store/read-only.js';
import { lowerBound } from '../store/exchange-index.js';
import { useLive } from '../store/live-store.js';
import { useUi } from '../store/ui-store.js';
import { refreshCapture, useCapture } from './capture-state.js';

/** Rows hidden by the clear: those of frames up to `since` (batch items included). */
export function hiddenBefore(ids: readonly string[], since: number | undefined): number {
  return since === undefined ? 0 : lowerBound(ids, since + 1);
}

/** After a clear: how many rows it hides (read on every batch, so only while cleared). */
function ShowAllButton({ since }: { since: number }) {
  useLive((s) => s.tick);
  const hidden = hiddenBefore(useLive.getState().index.ids, since);
  return (
    <button type="button" className="small" data-testid="capture-show-all" title="Show the rows the clear hid again (they never left the capture)" onClick={() => useUi.getState().setSince(undefined)}>
      Show all ({hidden} hidden)
    </button>
  );
}

function ClearButton() {
  const since = useUi((s) => s.since);
  if (since !== undefined) return <ShowAllButton since={since} />;
  return (
    <button type="button" className="small" data-testid="capture-clear" title="Clear the view: hide the rows so far (the capture keeps them; Show all brings them back)" onClick={() => useUi.getState().setSince(useLive.getState().head)}>
      Clear
    </button>
  );
}

function MarkForm({ api, onDone }: { api: ApiClient; onDone(): void }) {
  const [label, setLabel] = useState('');
  const [error, setError] = useState<string>();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!label.trim()) return;
    api.addMark(label.trim()).then(
      () => (void refreshCapture(api), onDone()),
      (err: Error) => setError(err.message),
    );
  };
  return (
    <form className="mark-form" onSubmit={submit} data-testid="mark-form">
      <input autoFocus data-testid="mark-label" aria-label="Mark label" placeholder="Label, e.g. deployed v2" maxLength={200} value={label} onChange={(e) => setLabel(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && onDone()} />
      <button type="submit" className="small" data-testid="mark-add" disabled={!label.trim()}>Add mark</button>
      {error && <span className="error-text">{error}</span>}
    </form>
  );
}

export function CaptureControls({ api }: { api: ApiClient }) {
  const readOnly = useReadOnly((s) => s.file !== undefined);
  const pausedByUser = useCapture((s) => s.status?.pausedByUser !== undefined);
  const [marking, setMarking] = useState(false);
  const [busy, setBusy] = useState(false);
  const togglePause = () => {
    setBusy(true);
    api.setCapturePaused(!pausedByUser).then(
      () => refreshCapture(api),
      () => undefined,
    ).finally(() => setBusy(false));
  };
  return (
    <span className="capture-controls" role="group" aria-label="Capture controls">
      <ClearButton />
      <button
        type="button"
        className={`small${pausedByUser ? ' paused' : ''}`}
        data-testid="capture-pause"
        aria-pressed={pausedByUser}
        disabled={readOnly || busy}
        title={readOnly ? READ_ONLY_HINT : pausedByUser ? 'Resume: store what the tap forwards again' : 'Pause capture: the tap keeps forwarding, but frames are not stored until you resume (the pause is marked in the timeline)'}
        onClick={togglePause}
      >
        {pausedByUser ? '▶ Resume capture' : '‖ Pause'}
      </button>
      <button type="button" className="small" data-testid="capture-mark" aria-expanded={marking} disabled={readOnly} title={readOnly ? READ_ONLY_HINT : 'Drop a labelled line into the timeline (stored in the capture)'} onClick={() => setMarking(!marking)}>
        Mark…
      </button>
      {marking && <MarkForm api={api} onDone={() => setMarking(false)} />}
    </span>
  );
}
