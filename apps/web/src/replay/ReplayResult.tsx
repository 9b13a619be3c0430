/**
 * The latest replay's outcome: its status line, and its answer diffed against the original's
 * (or shown alone for a composed message), volatile fields ignored by default.
 */
import { lazy, Suspense, useState } from 'react';
import { responseRaw } from './exchange-text.js';
import type { ReplayState } from './use-replay.js';
import { diffText } from './volatile.js';
import { statusLabel } from './status-label.js';

const ResponseDiff = lazy(() => import('./ResponseDiff.js'));

export function ReplayResult({ replay }: { replay: ReplayState }) {
  const [ignoreVolatile, setIgnoreVolatile] = useState(true);
  const { original, latest } = replay;
  const replayed = latest?.detail.exchange;
  if (!replayed) return null;
  const originalAnswer = diffText(responseRaw(original), ignoreVolatile);
  const replayAnswer = diffText(responseRaw(latest.detail), ignoreVolatile);
  return (
    <section className="replay-result">
      <div className="replay-result-line" data-testid="replay-result" data-status={replayed.status} data-exchange-id={replayed.id}>
        Replay #{replayed.id} <span className={`status-${replayed.status}`}>{statusLabel(replayed.status)}</span>
        {replayed.latencyMs !== undefined && ` in ${replayed.latencyMs.toFixed(1)} ms`}
        {latest.response && ` · ${latest.response.mode === 'fresh' ? 'fresh session' : 'same session'} ${latest.response.sessionKey.slice(0, 12)} · id ${latest.response.sentId ?? '—'}`}
        <span className="replay-spacer" />
        <label>
          <input type="checkbox" data-testid="replay-ignore-volatile" checked={ignoreVolatile} onChange={(e) => setIgnoreVolatile(e.target.checked)} /> ignore volatile fields
        </label>
      </div>
      {original ? (
        <>
          <div className="replay-diff-labels"><span>Original #{original.exchange.id} ({statusLabel(original.exchange.status)})</span><span>Replay #{replayed.id} ({statusLabel(replayed.status)})</span></div>
          <div className="replay-diff" data-testid="replay-diff">
            <Suspense fallback={<div className="replay-loading">Loading diff…</div>}>
              <ResponseDiff original={originalAnswer} modified={replayAnswer} />
            </Suspense>
          </div>
        </>
      ) : (
        <pre className="replay-answer" data-testid="replay-answer">{replayAnswer}</pre>
      )}
    </section>
  );
}
