/**
 * "Re-run failed calls": after a fix, send every failed call of the view (or the selected call)
 * again, each in a fresh session, and read before and after side by side: one row per call with
 * the original's status, the replay's, the verdict (fixed, still failing, …), the first JSON
 * path where the answers differ, a link to the replay in the timeline, and the answers' diff.
 * The calls are chosen when the panel opens, so rows arriving meanwhile do not move the list.
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import type { ExchangeSummary } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { ReplayApi } from '../replay/replay-api.js';
import { responseRaw } from '../replay/exchange-text.js';
import { diffText } from '../replay/volatile.js';
import { useLive } from '../store/live-store.js';
import { useUi } from '../store/ui-store.js';
import { StatusBadge } from '../ui/StatusBadge.js';
import { failedCalls, isRerunnable, RERUN_LIMIT, VERDICT_LABEL } from './rerun-plan.js';
import { useRerun, type RerunRow } from './use-rerun.js';
import { useEscapeLayer } from '../ui/escape-layers.js';
import './rerun.css';

const ResponseDiff = lazy(() => import('../replay/ResponseDiff.js'));

type Scope = 'view' | 'selected';

export function RerunPanel({ api, onClose }: { api: ApiClient; onClose(): void }) {
  const replayApi = useMemo(() => new ReplayApi(api), [api]);
  const { rows, running, start, stop } = useRerun(api, replayApi);
  const filter = useUi((s) => s.filter);
  // Chosen once, when the panel opens: the failed calls of the view, and the selected call.
  const [plan] = useState(() => {
    const { index, view } = useLive.getState();
    const selectedId = useUi.getState().selected;
    const selected = selectedId !== undefined ? index.get(selectedId) : undefined;
    return { failed: failedCalls(view.ids, (id) => index.get(id)), selected: selected && isRerunnable(selected) ? selected : undefined };
  });
  const [scope, setScope] = useState<Scope>(plan.failed.ids.length > 0 || !plan.selected ? 'view' : 'selected');
  const [open, setOpen] = useState<string>();
  useEscapeLayer(true, onClose);

  const chosen = (): ExchangeSummary[] => {
    if (scope === 'selected') return plan.selected ? [plan.selected] : [];
    const { index } = useLive.getState();
    return plan.failed.ids.map((id) => index.get(id)).filter((ex): ex is ExchangeSummary => ex !== undefined);
  };
  const count = scope === 'selected' ? (plan.selected ? 1 : 0) : plan.failed.ids.length;
  const done = rows.filter((r) => r.state === 'done' || r.state === 'error').length;
  const tally = summarise(rows);

  return (
    <div className="rerun-panel" role="dialog" aria-label="Re-run failed calls" data-testid="rerun-panel">
      <header className="rerun-head">
        <strong>Re-run failed calls</strong>
        <span className="rerun-muted">each in a fresh session; every replay is captured and linked to its original</span>
        <button type="button" className="ghost rerun-close" onClick={onClose} aria-label="Close" data-testid="rerun-close">✕</button>
      </header>
      <div className="rerun-toolbar">
        <fieldset className="rerun-scope" aria-label="Which calls" disabled={running}>
          <label>
            <input type="radio" name="rerun-scope" data-testid="rerun-scope-view" checked={scope === 'view'} onChange={() => setScope('view')} />{' '}
            {plan.failed.total} failed call{plan.failed.total === 1 ? '' : 's'} in the view{filter.trim() ? <> (filter <code>{filter}</code>)</> : ''}
            {plan.failed.total > RERUN_LIMIT && ` — the first ${RERUN_LIMIT}`}
          </label>
          <label title={plan.selected ? undefined : 'Select a client request in the timeline first'}>
            <input type="radio" name="rerun-scope" data-testid="rerun-scope-selected" disabled={!plan.selected} checked={scope === 'selected'} onChange={() => setScope('selected')} />{' '}
            {plan.selected ? <>the selected call #{plan.selected.id} <code>{plan.selected.method}</code> {plan.selected.target ?? ''}</> : 'the selected call (none)'}
          </label>
        </fieldset>
        {running ? (
          <button type="button" className="small" data-testid="rerun-stop" onClick={stop}>Stop</button>
        ) : (
          <button type="button" className="primary" data-testid="rerun-start" disabled={count === 0} onClick={() => void start(chosen())}>
            Re-run {count} call{count === 1 ? '' : 's'}
          </button>
        )}
        {rows.length > 0 && (
          <span className="rerun-summary" data-testid="rerun-summary" role="status">
            {done} of {rows.length} re-run{tally ? `: ${tally}` : ''}
          </span>
        )}
      </div>
      {rows.length > 0 && (
        <div className="rerun-table-wrap">
          <table className="rerun-table">
            <thead>
              <tr><th>#</th><th>call</th><th>before</th><th>after</th><th>verdict</th><th>first difference</th><th /></tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <RowView key={row.id} row={row} open={open === row.id} onToggle={() => setOpen(open === row.id ? undefined : row.id)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function RowView({ row, open, onToggle }: { row: RerunRow; open: boolean; onToggle(): void }) {
  const verdict = row.comparison?.verdict;
  const diff = row.comparison?.difference;
  return (
    <>
      <tr data-testid="rerun-row" data-id={row.id} data-state={row.state} data-verdict={verdict ?? ''} data-after={row.replay?.status ?? ''} data-replay-id={row.replay?.id ?? ''}>
        <td>
          <button type="button" className="link" title="Select the original in the timeline" onClick={() => useUi.getState().select(row.id, true)}>#{row.id}</button>
        </td>
        <td className="rerun-call"><code>{row.original.method}</code> {row.original.target ?? ''}</td>
        <td><StatusBadge ex={row.original} /></td>
        <td>
          {row.replay ? (
            <>
              <StatusBadge ex={row.replay} />{' '}
              <button type="button" className="replay-mark" data-testid="rerun-replay-link" title={`Replay #${row.replay.id}: select it in the timeline`} onClick={() => useUi.getState().select(row.replay!.id, true)}>↻ #{row.replay.id}</button>
            </>
          ) : row.state === 'running' ? 'sending…' : row.state === 'waiting' ? '—' : ''}
        </td>
        <td className={`rerun-verdict verdict-${verdict ?? row.state}`}>{verdict ? VERDICT_LABEL[verdict] : row.state === 'error' ? 'could not run' : ''}</td>
        <td className="rerun-detail">
          {diff?.path !== undefined ? <><code>{diff.path}</code> ({diff.kind}) {diff.before} → {diff.after}</> : (row.error ?? row.replay?.errorMessage ?? '')}
        </td>
        <td>
          {row.replayDetail && (
            <button type="button" className="small" data-testid="rerun-diff-toggle" aria-expanded={open} onClick={onToggle}>{open ? 'hide diff' : 'diff'}</button>
          )}
        </td>
      </tr>
      {open && row.originalDetail && row.replayDetail && (
        <tr className="rerun-diff-row">
          <td colSpan={7}>
            <div className="rerun-diff-labels"><span>Original #{row.id} ({row.original.status})</span><span>Replay #{row.replay?.id} ({row.replay?.status}) — volatile fields masked</span></div>
            <div className="rerun-diff" data-testid="rerun-diff">
              <Suspense fallback={<div className="rerun-muted">Loading diff…</div>}>
                <ResponseDiff original={diffText(responseRaw(row.originalDetail), true)} modified={diffText(responseRaw(row.replayDetail), true)} />
              </Suspense>
            </div>
          </td>
        </tr>
      )}
    </>
  );
}

function summarise(rows: readonly RerunRow[]): string {
  const counts = new Map<string, number>();
  for (const r of rows) {
    const key = r.comparison ? VERDICT_LABEL[r.comparison.verdict] : r.state === 'error' ? 'could not run' : undefined;
    if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${n} ${k}`).join(', ');
}
