/** The selected exchange: its frames in order, each body shown in Monaco. */
import { lazy, Suspense, useEffect, useState } from 'react';
import type { ExchangeDetail } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { useLive } from '../store/live-store.js';

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

  if (!selectedId) return <aside className="detail empty">Select an exchange to see its frames.</aside>;
  if (error) return <aside className="detail">Could not load the exchange: {error}</aside>;
  if (!detail) return <aside className="detail">Loading…</aside>;
  const text = detail.frames.map((f) => `// #${f.seq} ${f.direction} ${f.kind}\n${pretty(f.raw)}`).join('\n\n');
  return (
    <aside className="detail" data-testid="detail-pane">
      <header>
        <strong>{detail.exchange.method ?? detail.exchange.kind}</strong> {detail.exchange.target ?? ''} — {detail.exchange.status}
      </header>
      <div className="editor">
        <Suspense fallback={<div>Loading editor…</div>}>
          <JsonEditor value={text} />
        </Suspense>
      </div>
    </aside>
  );
}
