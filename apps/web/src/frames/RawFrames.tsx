/**
 * The raw view: every frame in capture order, including bytes that were not JSON and transport
 * events. History comes from GET /api/frames in pages; live frames from the WebSocket's
 * `frames/add`; the store merges both by seq (no gap, no duplicate). A filter (the timeline's
 * language) shows the frames of the matching exchanges instead, read by the server; an opened
 * frame links to its exchange.
 */
import { useEffect, useRef, useState } from 'react';
import type { FrameView } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { FRAME_CAP, useLive } from '../store/live-store.js';
import { formatSize } from '../ui/status.js';
import { FrameBody } from '../ui/FrameBody.js';
import { HttpLayer } from '../ui/HttpLayer.js';
import { useEscapeLayer } from '../ui/escape-layers.js';
import { useFixedRows } from '../ui/use-fixed-rows.js';
import { useUi } from '../store/ui-store.js';
import { exchangesOfFrame } from './frame-exchange.js';
import { useFilteredFrames, type FilteredFrames } from './use-filtered-frames.js';

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

/** Opens the exchange in the timeline, leaving the raw view. */
function openExchange(id: string) {
  useUi.getState().setMode('exchanges');
  useUi.getState().select(id, true);
}

/** The opened frame's exchange(s), as links to the timeline. */
function FrameExchanges({ seq }: { seq: number }) {
  useLive((s) => s.tick);
  const index = useLive((s) => s.index);
  const owners = exchangesOfFrame(index, seq);
  return (
    <p className="frame-exchanges" data-testid="frame-exchange">
      {owners.length === 0 ? (
        <span className="muted">Belongs to no exchange (a transport event, a log line, or bytes that pair with nothing).</span>
      ) : (
        <>
          Exchange:{' '}
          {owners.map((ex) => (
            <button key={ex.id} type="button" className="link" data-id={ex.id} onClick={() => openExchange(ex.id)} title="Open it in the timeline">
              #{ex.id} {ex.method ?? '(not JSON-RPC)'}{ex.target ? ` ${ex.target}` : ''}
            </button>
          ))}
        </>
      )}
    </p>
  );
}

function FilterLine({ text, setText, filtered }: { text: string; setText(text: string): void; filtered: FilteredFrames | undefined }) {
  return (
    <div className="frames-filter">
      <input
        type="search"
        data-testid="frames-filter"
        aria-label="Filter frames"
        placeholder="Filter: the timeline's language (method:tools/call, session:…, status:err) — shows the frames of matching exchanges"
        value={text}
        spellCheck={false}
        onChange={(e) => setText(e.target.value)}
      />
      {filtered && (
        <span className="muted" data-testid="frames-filter-status" role="status">
          {filtered.error ? (
            <span className="error-text">{filtered.error}</span>
          ) : (
            <>
              {filtered.frames.length} frame{filtered.frames.length === 1 ? '' : 's'} of matching exchanges{filtered.loading ? ', searching…' : filtered.nextAfter !== undefined ? ' so far' : ''}
              {!filtered.loading && filtered.nextAfter !== undefined && (
                <button type="button" className="link" onClick={filtered.more}>
                  search on from #{filtered.nextAfter}
                </button>
              )}
              {' '}· a snapshot: new frames show when the filter changes
            </>
          )}
        </span>
      )}
    </div>
  );
}

export function RawFrames({ api }: { api: ApiClient }) {
  const loading = useFrameHistory(api);
  useLive((s) => s.framesTick);
  const live = useLive((s) => s.frames);
  const [filterText, setFilterText] = useState('');
  const filtered = useFilteredFrames(api, filterText);
  const frames = filtered?.frames ?? live;
  const [selected, setSelected] = useState<number | undefined>();
  // Esc closes the frame's detail, as it closes an exchange's in the Exchanges view.
  useEscapeLayer(selected !== undefined, () => setSelected(undefined));
  const scroller = useRef<HTMLDivElement>(null);
  const [follow, setFollow] = useState(true);
  const { first, last, totalHeight, onScroll } = useFixedRows(scroller, frames.length, ROW_HEIGHT, HEADER_HEIGHT, follow, setFollow);
  const frame = selected === undefined ? undefined : frames.find((f) => f.seq === selected);
  return (
    <div className="raw-view">
      <div className="raw-main">
      <FilterLine text={filterText} setText={setFilterText} filtered={filtered} />
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
                data-seq={f.seq}
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
                <div className="cell fcol-size">{formatSize(f.bytes)}{f.truncated ? ' ✂' : ''}</div>
                <div className="cell fcol-bytes mono">{preview(f)}</div>
              </div>
            );
          })}
        </div>
        {!loading && !filtered && frames.length === 0 && <p className="empty-note">No frames captured yet.</p>}
      </div>
      </div>
      {frame && (
        <aside className="detail" data-testid="frame-detail">
          <header className="detail-head">
            <strong>Frame #{frame.seq}</strong>
            <span className="muted">{frame.direction === 'c2s' ? 'client → server' : 'server → client'} · {frame.transport} · {frame.kind}</span>
            <span className="spacer" />
            <button type="button" className="ghost" aria-label="Close frame" onClick={() => setSelected(undefined)}>✕</button>
          </header>
          <FrameExchanges seq={frame.seq} />
          {frame.http && <HttpLayer http={frame.http} />}
          <FrameBody key={frame.seq} raw={frame.raw} seq={frame.seq} marks={[]} fullBytes={frame.bytes} truncated={frame.truncated} api={api} />
        </aside>
      )}
    </div>
  );
}
