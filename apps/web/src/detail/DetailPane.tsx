/**
 * The open exchange: a summary, its frames in capture order with relative times (request,
 * progress, cancellation, response), the diagnostics, and for tools/call the schema checks.
 * Bodies are fetched on demand when a row opens (lists carry summaries only); a stale fetch is
 * aborted when the selection moves.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import type { Diagnostic, ExchangeSummary } from '@mcpscope/protocol';
import type { ApiClient, ExchangeDetailView } from '../api/client.js';
import { VerdictCard } from '../ui/VerdictCard.js';
import { useLive } from '../store/live-store.js';
import { useUi } from '../store/ui-store.js';
import { DashboardMark, ReplayedAs, ReplayMark } from '../ui/ReplayMark.js';
import { StatusBadge } from '../ui/StatusBadge.js';
import { formatDuration, formatSize } from '../ui/status.js';
import { DetailActions } from './actions.js';
import { Diagnostics } from './Diagnostics.js';
import { FrameCard } from './FrameCard.js';
import type { TreeMark } from '../ui/JsonTree.js';
import { ToolSchemaCheck } from './ToolSchemaCheck.js';
import { useWidgetDeclaration } from '../widget/use-widget-declaration.js';
import { useWidgetEdited } from '../widget/edited-store.js';
import { wholeExchange } from '../api/whole-exchange.js';
import { CausalLinks } from './CausalLinks.js';
import { AuthorizationNotice } from '../front-door/AuthorizationNotice.js';
import { InterceptMark, InterventionCard } from '../intercept/index.js';

// The widget preview (and ext-apps' bridge) load only when a Widget tab opens.
const WidgetTab = lazy(() => import('../widget/WidgetTab.js'));

function marksFor(diagnostics: readonly Diagnostic[] | undefined, seq: number, evidence: TreeMark | undefined): TreeMark[] {
  const marks = (diagnostics ?? []).filter((d) => d.frameSeq === seq && d.path).map((d): TreeMark => ({ path: d.path!, severity: d.severity, message: d.code }));
  return evidence ? [...marks, evidence] : marks;
}

export function DetailPane({ api }: { api: ApiClient }) {
  const id = useUi((s) => s.selected);
  const summary = useLive((s) => (id ? s.index.get(id) : undefined));
  // Joined into a string: the index's lists change in place, and a string compares by value.
  const replays = useLive((s) => (id ? s.index.replaysOf(id).join(' ') : ''));
  const widgetCalls = useLive((s) => (id ? s.index.widgetCallsOf(id).join(' ') : ''));
  const [tab, setTab] = useState<'exchange' | 'widget'>('exchange');
  const [detail, setDetail] = useState<ExchangeDetailView | undefined>();
  const [error, setError] = useState<string | undefined>();
  const close = () => useUi.getState().closeDetail();
  // A fetch that failed while the proxy was unreachable is tried again when the dashboard is back
  // live: an error about a past outage must not outlive it.
  const live = useLive((s) => s.connection === 'live');
  const loaded = detail?.exchange.id === id && error === undefined;

  useEffect(() => {
    if (!id || (!live && loaded)) return;
    const abort = new AbortController();
    // Whole bodies: the checks and the body views parse them (a 1 MiB cut is never valid JSON).
    wholeExchange(api, id, abort.signal)
      .then((d) => {
        setDetail(d);
        setError(undefined);
      })
      .catch((err: Error) => {
        if (!abort.signal.aborted) setError(err.message);
      });
    return () => abort.abort();
    // Refetch when the summary changes (a pending call got its answer), and on reconnection.
  }, [api, id, summary?.updatedSeq, live]);

  const widget = useWidgetDeclaration(api, summary ?? (detail && detail.exchange.id === id ? detail.exchange : undefined));
  const widgetEdited = useWidgetEdited((s) => (id ? s.edited.has(id) : false));

  if (!id) return null;
  if (error && detail?.exchange.id !== id) return <aside className="detail" data-testid="detail-pane">Could not load exchange {id}: {error}</aside>;
  if (!detail || detail.exchange.id !== id) return <aside className="detail muted" data-testid="detail-pane">Loading…</aside>;
  const ex = summary ?? detail.exchange;
  return (
    <aside className={widget && tab === 'widget' ? 'detail widget-open' : 'detail'} data-testid="detail-pane" aria-label="Exchange detail">
      <header className="detail-head">
        <div className="detail-title">
          <strong>{ex.method ?? (ex.kind === 'invalid' ? 'Invalid frame' : ex.kind)}</strong>
          {ex.target && <span className="target" title={ex.target}>{ex.target}</span>}
          <StatusBadge ex={ex} />
        </div>
        <DetailActions api={api} ex={ex} requestRaw={detail.frames.find((f) => f.seq === ex.requestSeq)?.raw} onClose={close} />
      </header>
      {widget && (
        <div className="detail-tabs" role="tablist" aria-label="Detail view">
          <button type="button" role="tab" aria-selected={tab === 'exchange'} onClick={() => setTab('exchange')} data-testid="detail-tab-exchange">
            Exchange
          </button>
          <button type="button" role="tab" aria-selected={tab === 'widget'} onClick={() => setTab('widget')} data-testid="detail-tab-widget" data-edited={widgetEdited} title={widgetEdited ? `${widget.uri} runs on data edited in the playground, not what the server sent` : `Render ${widget.uri} from this call`}>
            {widgetEdited ? 'Widget · edited' : 'Widget'}
          </button>
        </div>
      )}
      {widget && tab === 'widget' ? (
        <Suspense fallback={<p className="muted">Loading the widget preview…</p>}>
          <WidgetTab api={api} exchangeId={ex.id} updatedSeq={ex.updatedSeq} />
        </Suspense>
      ) : (
        <ExchangeView api={api} ex={ex} detail={detail} replays={replays} widgetCalls={widgetCalls} />
      )}
    </aside>
  );
}

function ExchangeView({ api, ex, detail, replays, widgetCalls }: { api: ApiClient; ex: ExchangeSummary; detail: ExchangeDetailView; replays: string; widgetCalls: string }) {
  const t0 = detail.frames[0]?.ts ?? ex.startTs;
  // An audit finding this exchange is the evidence of (the Readiness view opened it): its path is marked.
  const shown = useUi((s) => s.evidence);
  const evidence: TreeMark | undefined = shown?.exchange === ex.id ? { path: shown.path, severity: 'warning', message: shown.note } : undefined;
  return (
    <>
      {detail.verdict && <VerdictCard verdict={detail.verdict} />}
      <dl className="facts summary-facts">
        {ex.rpcId !== undefined && (
          <>
            <dt>id</dt>
            <dd className="mono">{JSON.stringify(ex.rpcId)}</dd>
          </>
        )}
        <dt>requester</dt>
        <dd>{ex.requester}</dd>
        {ex.latencyMs !== undefined && (
          <>
            <dt>latency</dt>
            <dd>{formatDuration(ex.latencyMs)}</dd>
          </>
        )}
        <dt>size</dt>
        <dd>{formatSize(ex.size)}</dd>
        <dt>session</dt>
        <dd className="mono">{ex.sessionKey}</dd>
        {ex.replayOf !== undefined && (
          <>
            <dt>replay of</dt>
            <dd data-testid="detail-replay-of"><ReplayMark of={ex.replayOf} /></dd>
          </>
        )}
        {replays && (
          <>
            <dt>replayed as</dt>
            <dd data-testid="detail-replayed-as"><ReplayedAs ids={replays.split(' ')} /></dd>
          </>
        )}
        {ex.fromDashboard !== undefined && (
          <>
            <dt>{ex.requester === 'server' ? 'answered' : 'sent'}</dt>
            <dd data-testid="detail-from-dashboard">from the dashboard <DashboardMark id={ex.id} from={ex.fromDashboard} answered={ex.requester === 'server'} /></dd>
          </>
        )}
        {ex.widgetOf !== undefined && (
          <>
            <dt>made by</dt>
            <dd data-testid="detail-widget-of">the widget of <ReplayMark of={ex.widgetOf} kind="widget" /> (widget preview)</dd>
          </>
        )}
        {widgetCalls && (
          <>
            <dt>widget preview sent</dt>
            <dd data-testid="detail-widget-calls"><ReplayedAs ids={widgetCalls.split(' ')} kind="widget" /></dd>
          </>
        )}
        {ex.intercepted && (
          <>
            <dt>intercepted</dt>
            <dd data-testid="detail-intercepted">by rule <code className="mono">{ex.intercepted.text}</code> <InterceptMark rule={ex.intercepted.text} action={ex.intercepted.action} /></dd>
          </>
        )}
        <CausalLinks api={api} detail={detail} />
        {ex.errorMessage && (
          <>
            <dt>{ex.status === 'business_error' ? 'tool said' : 'error'}</dt>
            <dd className="error-text" data-testid="error-message">{ex.errorMessage}</dd>
          </>
        )}
      </dl>
      <AuthorizationNotice ex={ex} frames={detail.frames} />
      <InterventionCard ex={ex} frames={detail.frames} />
      <Diagnostics diagnostics={detail.diagnostics} count={ex.diagnostics} />
      {ex.method === 'tools/call' && ex.target && <ToolSchemaCheck api={api} ex={ex} frames={detail.frames} />}
      <h4>Frames ({detail.frames.length})</h4>
      {detail.frames.map((frame) => (
        <FrameCard key={frame.seq} api={api} frame={frame} ex={ex} t0={t0} marks={marksFor(detail.diagnostics, frame.seq, evidence)} />
      ))}
    </>
  );
}
