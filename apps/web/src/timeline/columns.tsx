/** The timeline's columns: one registry, one small renderer each. */
import { createColumnHelper, tableFeatures } from '@tanstack/react-table';
import type { ExchangeSummary } from '@mcpscope/protocol';

export const features = tableFeatures({});
const helper = createColumnHelper<typeof features, ExchangeSummary>();

const time = (ts: number) => new Date(ts).toISOString().slice(11, 23);
const direction = (ex: ExchangeSummary) => (ex.requester === 'client' ? 'client → server' : ex.requester === 'server' ? 'server → client' : '—');

export const columns = helper.columns([
  helper.accessor('startTs', { header: 'Time', cell: (info) => time(info.getValue()) }),
  helper.accessor((ex) => direction(ex), { id: 'direction', header: 'Direction' }),
  helper.accessor((ex) => ex.method ?? '', { id: 'method', header: 'Method' }),
  helper.accessor((ex) => ex.target ?? '', { id: 'target', header: 'Target' }),
  helper.accessor((ex) => (ex.rpcId === undefined ? '' : JSON.stringify(ex.rpcId)), { id: 'id', header: 'Id' }),
  helper.accessor('status', { header: 'Status', cell: (info) => <span className={`status status-${info.getValue()}`}>{info.getValue()}</span> }),
  helper.accessor((ex) => (ex.latencyMs === undefined ? '' : `${ex.latencyMs.toFixed(1)} ms`), { id: 'latency', header: 'Latency' }),
]);
