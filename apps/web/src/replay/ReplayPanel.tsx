/**
 * Edit and replay: the whole captured message in Monaco (or a template, for a message composed
 * from scratch), sent into its live session or a fresh one; the new exchange is selected in the
 * timeline, and its response is diffed against the original's. The state lives in useReplay;
 * this file only lays the pieces out.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import type { ApiClient } from '../api/client.js';
import { ReplayNotices } from './ReplayNotices.js';
import { ReplayResult } from './ReplayResult.js';
import { ReplayToolbar } from './ReplayToolbar.js';
import { ServerInputs } from './ServerInputs.js';
import { useReplay } from './use-replay.js';
import { useCloseOnEscape } from './use-close-on-escape.js';
import { SessionEndedWarning } from './SessionEndedWarning.js';
import { OriginalDiagnostics } from './OriginalDiagnostics.js';
import { useUi } from '../store/ui-store.js';
import { statusLabel } from './status-label.js';
import './replay.css';

const MessageEditor = lazy(() => import('./MessageEditor.js'));

export interface ReplayPanelProps {
  api: ApiClient;
  /** The exchange to edit; absent (or empty) opens an empty composer with method templates. */
  exchangeId?: string;
  onClose(): void;
}

function ReplayHead({ what, onClose }: { what: ReactNode; onClose(): void }) {
  return (
    <header className="replay-head">
      <strong>Replay</strong>
      {what !== undefined && <span className="replay-what">{what}</span>}
      <button type="button" className="ghost replay-close" onClick={onClose} aria-label="Close replay" data-testid="replay-close">✕</button>
    </header>
  );
}

export function ReplayPanel({ api, exchangeId, onClose }: ReplayPanelProps) {
  const composing = !exchangeId;
  // Compose starts in the session the view is scoped to, if any.
  const replay = useReplay(api, exchangeId, composing ? (useUi.getState().session ?? '') : '');
  useCloseOnEscape(onClose);

  if (replay.loadError) {
    return (
      <div className="replay-panel" role="dialog" aria-label="Replay" data-testid="replay-panel">
        <ReplayHead what={undefined} onClose={onClose} />
        <div className="replay-error" role="alert">Could not load exchange {exchangeId}: {replay.loadError}</div>
      </div>
    );
  }
  const summary = replay.original?.exchange;
  const what = summary ? (
    <>
      of #{summary.id} <code>{summary.method}</code> {summary.target ?? ''} — <span className={`status-${summary.status}`}>{statusLabel(summary.status)}</span>
    </>
  ) : composing ? 'compose a message' : 'loading…';

  return (
    <div className="replay-panel" role="dialog" aria-label="Replay" data-testid="replay-panel">
      <ReplayHead what={what} onClose={onClose} />
      <ReplayToolbar replay={replay} composing={composing} />
      <OriginalDiagnostics replay={replay} />
      <SessionEndedWarning replay={replay} />
      <div className="replay-editor" data-testid="replay-editor">
        <Suspense fallback={<div className="replay-loading">Loading editor…</div>}>
          {(composing || replay.original) && <MessageEditor value={replay.text} onChange={replay.setText} tools={replay.tools} onSubmit={() => void replay.send()} />}
        </Suspense>
      </div>
      <ReplayNotices replay={replay} />
      <ServerInputs api={replay.replayApi} active={replay.busy} />
      <ReplayResult replay={replay} />
    </div>
  );
}
