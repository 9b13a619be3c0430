/**
 * Two exchanges side by side: their requests diffed, then their answers, in the same Monaco diff
 * editor the replay panel uses for original vs replay. Bodies are fetched whole (a cut body would
 * diff as a spurious difference at 1 MiB). Volatile fields (ids, timestamps, UUIDs) are masked by
 * default, as in the replay diff, so two calls of one tool line up on what they meant.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import type { ExchangeDetail } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { wholeExchange } from '../api/whole-exchange.js';
import { requestRaw, responseRaw } from '../replay/exchange-text.js';
import { diffText } from '../replay/volatile.js';
import { statusLabel } from '../replay/status-label.js';
import { useCloseOnEscape } from '../replay/use-close-on-escape.js';
import { useUi } from '../store/ui-store.js';
import '../replay/replay.css';
import './compare.css';

const ResponseDiff = lazy(() => import('../replay/ResponseDiff.js'));

type Loaded = { state: 'loading' } | { state: 'error'; message: string } | { state: 'done'; left: ExchangeDetail; right: ExchangeDetail };

function useBoth(api: ApiClient, left: string, right: string): Loaded {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  useEffect(() => {
    const abort = new AbortController();
    Promise.all([wholeExchange(api, left, abort.signal), wholeExchange(api, right, abort.signal)]).then(
      ([l, r]) => setLoaded({ state: 'done', left: l, right: r }),
      (err: unknown) => abort.signal.aborted || setLoaded({ state: 'error', message: err instanceof Error ? err.message : String(err) }),
    );
    return () => abort.abort();
  }, [api, left, right]);
  return loaded;
}

function Side({ detail }: { detail: ExchangeDetail }) {
  const ex = detail.exchange;
  return (
    <button type="button" className="link compare-side" title="Open this exchange in the detail pane" onClick={() => useUi.getState().select(ex.id, true)}>
      #{ex.id} {ex.method ?? '(not JSON-RPC)'} {ex.target ?? ''} · <span className={`status-${ex.status}`}>{statusLabel(ex.status)}</span>
      {ex.latencyMs !== undefined && ` · ${ex.latencyMs.toFixed(1)} ms`}
    </button>
  );
}

function Diff({ title, testId, original, modified }: { title: string; testId: string; original: string; modified: string }) {
  return (
    <section className="compare-section" data-testid={testId} data-same={original === modified}>
      <h3>
        {title} {original === modified && <span className="muted">— identical</span>}
      </h3>
      <div className="replay-diff">
        <Suspense fallback={<div className="replay-loading">Loading diff…</div>}>
          <ResponseDiff original={original} modified={modified} />
        </Suspense>
      </div>
    </section>
  );
}

export function ComparePanel({ api, left, right, onClose }: { api: ApiClient; left: string; right: string; onClose(): void }) {
  const loaded = useBoth(api, left, right);
  const [ignoreVolatile, setIgnoreVolatile] = useState(true);
  useCloseOnEscape(onClose);
  return (
    <div className="replay-panel compare-panel" role="dialog" aria-label="Compare two exchanges" data-testid="compare-panel">
      <header className="replay-head">
        <strong>Compare</strong>
        <span className="replay-what">#{left} and #{right}: requests, then answers</span>
        <label>
          <input type="checkbox" data-testid="compare-ignore-volatile" checked={ignoreVolatile} onChange={(e) => setIgnoreVolatile(e.target.checked)} /> ignore volatile fields
        </label>
        <button type="button" className="replay-close" onClick={onClose} aria-label="Close (Esc)" data-testid="compare-close">✕</button>
      </header>
      {loaded.state === 'loading' && <div className="replay-loading">Loading both exchanges…</div>}
      {loaded.state === 'error' && <div className="replay-error" role="alert">Could not load: {loaded.message}</div>}
      {loaded.state === 'done' && (
        <>
          <div className="replay-diff-labels"><Side detail={loaded.left} /><Side detail={loaded.right} /></div>
          <Diff title="Request" testId="compare-request" original={diffText(requestRaw(loaded.left), ignoreVolatile)} modified={diffText(requestRaw(loaded.right), ignoreVolatile)} />
          <Diff title="Answer" testId="compare-response" original={diffText(responseRaw(loaded.left), ignoreVolatile)} modified={diffText(responseRaw(loaded.right), ignoreVolatile)} />
        </>
      )}
    </div>
  );
}
