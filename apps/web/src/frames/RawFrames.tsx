/**
 * The raw view: every frame in capture order, including bytes that were not JSON and transport
 * events. History comes from GET /api/frames in pages; live frames from the WebSocket's
 * `frames/add`; the store merges both by seq (no gap, no duplicate).
 */
import { useEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { FrameView } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { FRAME_CAP, useLive } from '../store/live-store.js';
import { formatSize } from '../timeline/status.js';
import { FrameBody } from '../detail/FrameBody.js';
import { HttpLayer } from '../detail/HttpLayer.js';

const ROW_HEIGHT = 24;
const PAGE = 5000;

function useFrameHistory(api: ApiClient): boolean {
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    const abort = new AbortController();
    (async () => {
      let after = 0;
      for (let loaded = 0; loaded < FRAME_CAP; loaded += PAGE) {
        const page = await api.frames(after, PAGE, abort.signal);
        useLive.queueDelta({ frames: page.frames });
        if (page.frames.length < PAGE) break;
        after = page.frames[page.frames.length - 1]!.seq;
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
  const virtual = useVirtualizer({ count: frames.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  const frame = selected === undefined ? undefined : frames.find((f) => f.seq === selected);
  return (
    <div className="raw-view">
      <div className="timeline raw-list" ref={scroller} role="grid" aria-label="Frames" data-testid="raw-frames">
        <div className="timeline-head" role="row">
          {['#', 'Time', 'Dir', 'Transport', 'Kind', 'HTTP', 'Size', 'Bytes'].map((h) => (
            <div key={h} role="columnheader" className={`cell fcol-${h.toLowerCase().replace('#', 'seq')}`}>{h}</div>
          ))}
        </div>
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((item) => {
            const f = frames[item.index]!;
            const notJson = f.kind === 'data' && !/^\s*[[{]/.test(f.raw);
            return (
              <div
                key={f.seq}
                role="row"
                data-testid="frame-row"
                data-kind={f.kind}
                aria-selected={f.seq === selected}
                className={`row${f.seq === selected ? ' selected' : ''}${notJson ? ' not-json' : ''}`}
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
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
          {frame.truncated && <p className="truncated-note">This list carries the first {formatSize(frame.raw.length)} of {formatSize(frame.size)}; open the frame’s exchange for the whole body.</p>}
          {frame.http && <HttpLayer http={frame.http} />}
          <FrameBody raw={frame.raw} seq={frame.seq} marks={[]} fullSize={frame.size} />
        </aside>
      )}
    </div>
  );
}
