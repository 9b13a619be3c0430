/** The selected exchange: its frames in order, each body shown in Monaco. */
import { lazy, Suspense, useEffect, useState } from 'react';
import type { ExchangeDetail } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { useLive } from '../store/live-store.js';
import { ReplayPanel } from '../replay/index.js';

const JsonEditor = lazy(() => import('./JsonEditor.js'));

function pretty(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

export function DetailPane({ api }: { api: ApiClient }) {
  const selectedId = useLive((s) => s.selectedId);
  const summary = useLive((s) => (s.selectedId ? s.exchanges.byId.get(s.selectedId) : undefined));
  const [detail, setDetail] = useState<ExchangeDetail | undefined>();
  const [error, setError] = useState<string | undefined>();
  // The replay panel outlives the selection: a replay selects its new exchange in the timeline.
  const [replayFor, setReplayFor] = useState<string | undefined>();
  const replay = replayFor !== undefined && <ReplayPanel api={api} exchangeId={replayFor} onClose={() => setReplayFor(undefined)} />;

  useEffect(() => {
    if (!selectedId) return;
    const abort = new AbortController();
    api
      .exchange(selectedId, abort.signal)
      .then((d) => {
        setDetail(d);
        setError(undefined);
      })
      .catch((err: Error) => {
        if (!abort.signal.aborted) setError(err.message);
      });
    return () => abort.abort();
  }, [api, selectedId, summary?.updatedSeq]);

  return (
    <>
      {body()}
      {replay}
    </>
  );

  function body() {
    if (!selectedId) {
      return (
        <aside className="detail empty">
          Select an exchange to see its frames, or{' '}
          <button type="button" data-testid="replay-compose" onClick={() => setReplayFor('')}>compose a request</button>.
        </aside>
      );
    }
    if (error) return <aside className="detail">Could not load the exchange: {error}</aside>;
    if (!detail) return <aside className="detail">Loading…</aside>;
    const text = detail.frames.map((f) => `// #${f.seq} ${f.direction} ${f.kind}\n${pretty(f.raw)}`).join('\n\n');
    return (
      <aside className="detail" data-testid="detail-pane">
        <header>
          <strong>{detail.exchange.method ?? detail.exchange.kind}</strong> {detail.exchange.target ?? ''} — {detail.exchange.status}
          {detail.frames[0]?.direction === 'c2s' && detail.exchange.requester !== 'server' && (
            <button type="button" data-testid="replay-button" onClick={() => setReplayFor(detail.exchange.id)}>Replay</button>
          )}
        </header>
        <div className="editor">
          <Suspense fallback={<div>Loading editor…</div>}>
            <JsonEditor value={text} />
          </Suspense>
        </div>
      </aside>
    );
  }
}
