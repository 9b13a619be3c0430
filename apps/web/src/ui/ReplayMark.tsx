/**
 * The timeline's mark on a replayed exchange (`replayOf`, set by the proxy on every summary of a
 * replay) or on a call a widget preview made (`widgetOf`): says which exchange it replays, or whose
 * widget made it, and selects that exchange when clicked, without selecting its own row first.
 * `DashboardMark` marks what the dashboard's Drive panel sent or answered (`fromDashboard`).
 */
import { useUi } from '../store/ui-store.js';

/** On what the dashboard sent (`fromDashboard` names the list its form came from, or itself). */
export function DashboardMark({ id, from, answered }: { id: string; from: string; answered: boolean }) {
  const own = from === id;
  const title = answered ? 'Answered from the dashboard (mcpscope was the client)' : own ? 'Sent from the dashboard' : `Sent from the dashboard, built from the list in #${from}: click to select it`;
  return (
    <button
      type="button"
      className="replay-mark dashboard-mark"
      data-testid="dashboard-mark"
      data-from={from}
      title={title}
      onClick={(e) => {
        e.stopPropagation();
        if (!own) useUi.getState().select(from, true);
      }}
    >
      ⌨{own ? '' : ` #${from}`}
    </button>
  );
}

export function ReplayMark({ of, kind = 'replay' }: { of: string; kind?: 'replay' | 'widget' }) {
  const widget = kind === 'widget';
  return (
    <button
      type="button"
      className={widget ? 'replay-mark widget-mark' : 'replay-mark'}
      data-testid={widget ? 'widget-mark' : 'replay-mark'}
      {...(widget ? { 'data-widget-of': of } : { 'data-replay-of': of })}
      title={widget ? `Made by the widget of #${of} (widget preview): click to select that call` : `Replay of #${of}: click to select the original`}
      onClick={(e) => {
        e.stopPropagation();
        useUi.getState().select(of, true);
      }}
    >
      {widget ? '⊞' : '↻'} #{of}
    </button>
  );
}

/** The detail's "replayed as": one link per replay of the open exchange, selecting it when clicked. */
export function ReplayedAs({ ids, kind = 'replay' }: { ids: readonly string[]; kind?: 'replay' | 'widget' }) {
  const widget = kind === 'widget';
  return (
    <>
      {ids.map((id) => (
        <button
          key={id}
          type="button"
          className={widget ? 'replay-mark widget-mark' : 'replay-mark'}
          data-testid={widget ? 'widget-called' : 'replayed-as'}
          title={widget ? `Call #${id}, made by this exchange's widget: click to select it` : `Replay #${id}: click to select it`}
          onClick={() => useUi.getState().select(id, true)}
        >
          {widget ? '⊞' : '↻'} #{id}
        </button>
      ))}
    </>
  );
}
