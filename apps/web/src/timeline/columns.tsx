/**
 * The timeline's columns: one small renderer each. Labels, widths and which columns fit come
 * from column-layout.ts; header and rows share one grid template, so they line up.
 */
import { shortSessionKey } from '../ui/short-key.js';
import { createColumnHelper, tableFeatures } from '@tanstack/react-table';
import type { ExchangeSummary } from '@mcpscope/protocol';
import { useSessionFact } from '../store/use-session.js';
import { DashboardMark, ReplayMark } from '../ui/ReplayMark.js';
import { InterceptMark } from '../intercept/index.js';
import { StatusBadge } from '../ui/StatusBadge.js';
import { formatDuration, formatSize } from '../ui/status.js';
import { specOf } from './column-layout.js';
import { WaterfallCell } from './WaterfallCell.js';

export const features = tableFeatures({});
const helper = createColumnHelper<typeof features, ExchangeSummary>();

const time = (ts: number) => {
  const d = new Date(ts);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
};

function SessionCell({ sessionKey }: { sessionKey: string }) {
  const label = useSessionFact(sessionKey, (session) => session.clientLabel ?? (typeof session.clientInfo?.name === 'string' ? session.clientInfo.name : undefined));
  return (
    <span title={sessionKey}>
      {label ?? '—'} <span className="muted">{shortSessionKey(sessionKey, 6)}</span>
    </span>
  );
}

/** Who sent the row's request or notification; "—" only for bytes that were not JSON-RPC. */
function Direction({ ex }: { ex: ExchangeSummary }) {
  const from = ex.requester === 'client' ? 'c2s' : ex.requester === 'server' ? 's2c' : ex.direction;
  const what = ex.kind === 'notification' ? 'notification' : 'request';
  if (from === 'c2s') return <span className={ex.kind === 'notification' ? 'dir-notification' : undefined} title={`client → server (${what} sent by the client)`}>C → S</span>;
  if (from === 's2c') return <span className={ex.kind === 'notification' ? 'dir-notification' : undefined} title={`server → client (${what} sent by the server)`}>S → C</span>;
  return <span className="muted" title="no direction: not a JSON-RPC message">—</span>;
}

export const columns = helper.columns([
  helper.accessor('startTs', { id: 'time', header: specOf('time').label, cell: (info) => time(info.getValue()) }),
  helper.accessor('sessionKey', { id: 'session', header: specOf('session').label, cell: (info) => <SessionCell sessionKey={info.getValue()} /> }),
  helper.display({ id: 'direction', header: specOf('direction').label, cell: (info) => <Direction ex={info.row.original} /> }),
  helper.accessor((ex) => ex.method ?? (ex.kind === 'invalid' ? '(not JSON-RPC)' : ''), {
    id: 'method',
    header: specOf('method').label,
    cell: (info) => {
      const { replayOf, widgetOf, fromDashboard, id, requester, intercepted } = info.row.original;
      const rule = intercepted && <InterceptMark rule={intercepted.text} action={intercepted.action} />;
      if (replayOf !== undefined) return <>{info.getValue()} <ReplayMark of={replayOf} />{rule}</>;
      if (fromDashboard !== undefined) return <>{info.getValue()} <DashboardMark id={id} from={fromDashboard} answered={requester === 'server'} />{rule}</>;
      if (widgetOf !== undefined) return <>{info.getValue()} <ReplayMark of={widgetOf} kind="widget" />{rule}</>;
      return rule ? <>{info.getValue()} {rule}</> : info.getValue();
    },
  }),
  helper.accessor((ex) => ex.target ?? '', { id: 'target', header: specOf('target').label }),
  helper.accessor((ex) => (ex.rpcId === undefined ? '' : JSON.stringify(ex.rpcId)), { id: 'id', header: specOf('id').label }),
  helper.display({ id: 'status', header: specOf('status').label, cell: (info) => <StatusBadge ex={info.row.original} /> }),
  helper.accessor((ex) => (ex.latencyMs === undefined ? '' : formatDuration(ex.latencyMs)), { id: 'latency', header: specOf('latency').label }),
  helper.accessor((ex) => formatSize(ex.size), { id: 'size', header: specOf('size').label }),
  helper.display({
    id: 'diagnostics',
    header: specOf('diagnostics').label,
    cell: (info) => {
      const n = info.row.original.diagnostics;
      return n > 0 ? <span className="diag-count" title={`${n} diagnostic${n === 1 ? '' : 's'}`}>△ {n}</span> : null;
    },
  }),
  helper.display({ id: 'waterfall', header: specOf('waterfall').label, cell: (info) => <WaterfallCell ex={info.row.original} /> }),
]);
