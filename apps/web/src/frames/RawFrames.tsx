/**
 * The raw view: every frame in capture order, including bytes that were not JSON and transport
 * events. History comes from GET /api/frames in pages; live frames from the WebSocket's
 * `frames/add`; the store merges both by seq (no gap, no duplicate).
 */
import { useEffect, useRef, useState } from 'react';
import type { FrameView } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { FRAME_CAP, useLive } from '../store/live-store.js';
import { formatSize } from '../timeline/status.js';
import { FrameBody } from '../detail/FrameBody.js';
import { HttpLayer } from '../detail/HttpLayer.js';
import { useFixedRows } from '../timeline/use-fixed-rows.js';

const ROW_HEIGHT = 24;
const HEADER_HEIGHT = 26;
const PAGE = 5000;

function useFrameHistory(api: ApiClient): boolean {
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    const abort = new AbortController();
    (async () => {
      let after: number | undefined = 0;
      for (let loaded = 0; after !== undefined && loaded < FRAME_CAP; loaded += PAGE) {
        const page = await api.frames(after, PAGE, abort.signal);
        useLive.queueDelta({ frames: page.frames });
        // `nextAfter` is absent on the last page (older proxies: a short page is the last).
        after = page.nextAfter ?? (page.frames.length < PAGE ? undefined : page.frames[page.frames.length - 1]!.seq);
      }
    })()
      .catch(() => undefined)
      .finally(() => !abort.signal.aborted && setLoading(false));
    return () => abort.abort();
  }, [api]);
  return loading;
}

const preview = (f: FrameView) => (f.raw.length > 300 ? f.raw.slice(0, 300) : f.raw).replace(/\s+/g, ' ');

export function RawFrames({ api }: { api: ApiClient }) {
  const loading = useFrameHistory(api);
  useLive((s) => s.framesTick);
  const frames = useLive((s) => s.frames);
  const [selected, setSelected] = useState<number | undefined>();
  const scroller = useRef<HTMLDivElement>(null);
  const [follow, setFollow] = useState(true);
  const { first, last, totalHeight, onScroll } = useFixedRows(scroller, frames.length, ROW_HEIGHT, HEADER_HEIGHT, follow, setFollow);
  const frame = selected === undefined ? undefined : frames.find((f) => f.seq === selected);
  return (
    <div className="raw-view">
      <div className="timeline raw-list" ref={scroller} role="grid" aria-label="Frames" data-testid="raw-frames" onScroll={onScroll}>
        <div className="timeline-head" role="row">
          {['#', 'Time', 'Dir', 'Transport', 'Kind', 'HTTP', 'Size', 'Bytes'].map((h) => (
            <div key={h} role="columnheader" className={`cell fcol-${h.toLowerCase().replace('#', 'seq')}`}>{h}</div>
          ))}
        </div>
        <div style={{ height: totalHeight, position: 'relative' }}>
          {frames.slice(first, last + 1).map((f, i) => {
            const at = first + i;
            const notJson = f.kind === 'data' && !/^\s*[[{]/.test(f.raw);
            return (
              <div
                key={f.seq}
                role="row"
                data-testid="frame-row"
                data-kind={f.kind}
                aria-selected={f.seq === selected}
                className={`row${f.seq === selected ? ' selected' : ''}${notJson ? ' not-json' : ''}`}
                style={{ transform: `translateY(${at * ROW_HEIGHT}px)`, height: ROW_HEIGHT }}
                onClick={() => setSelected(f.seq)}
              >
                <div className="cell fcol-seq mono">{f.seq}</div>
                <div className="cell fcol-time">{new Date(f.ts).toISOString().slice(11, 23)}</div>
                <div className="cell fcol-dir">{f.direction === 'c2s' ? 'C → S' : 'S → C'}</div>
                <div className="cell fcol-transport">{f.transport}</div>
                <div className="cell fcol-kind">{notJson ? 'not JSON' : f.kind}</div>
                <div className="cell fcol-http">{f.http ? `${f.http.method} ${f.http.status ?? ''}` : ''}</div>
                <div className="cell fcol-size">{formatSize(f.size)}{f.truncated ? ' ✂' : ''}</div>
                <div className="cell fcol-bytes mono">{preview(f)}</div>
              </div>
            );
          })}
        </div>
        {!loading && frames.length === 0 && <p className="empty-note">No frames captured yet.</p>}
      </div>
      {frame && (
        <aside className="detail" data-testid="frame-detail">
          <header className="detail-head">
            <strong>Frame #{frame.seq}</strong>
            <span className="muted">{frame.direction === 'c2s' ? 'client → server' : 'server → client'} · {frame.transport} · {frame.kind}</span>
            <span className="spacer" />
            <button type="button" className="ghost" aria-label="Close frame" onClick={() => setSelected(undefined)}>✕</button>
          </header>
          {frame.http && <HttpLayer http={frame.http} />}
          <FrameBody key={frame.seq} raw={frame.raw} seq={frame.seq} marks={[]} fullSize={frame.size} truncated={frame.truncated} api={api} />
        </aside>
      )}
    </div>
  );
}
