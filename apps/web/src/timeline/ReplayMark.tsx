/**
 * The timeline's mark on a replayed exchange (`replayOf`, set by the proxy on every summary of a
 * replay): says which exchange it replays, and selects that original when clicked, without
 * selecting the replay's own row first.
 */
import { useUi } from '../store/ui-store.js';

export function ReplayMark({ of }: { of: string }) {
  return (
    <button
      type="button"
      className="replay-mark"
      data-testid="replay-mark"
      data-replay-of={of}
      title={`Replay of #${of}: click to select the original`}
      onClick={(e) => {
        e.stopPropagation();
        useUi.getState().select(of, true);
      }}
    >
      ↻ #{of}
    </button>
  );
}

/** The detail's "replayed as": one link per replay of the open exchange, selecting it when clicked. */
export function ReplayedAs({ ids }: { ids: readonly string[] }) {
  return (
    <>
      {ids.map((id) => (
        <button key={id} type="button" className="replay-mark" data-testid="replayed-as" title={`Replay #${id}: click to select it`} onClick={() => useUi.getState().select(id, true)}>
          ↻ #{id}
        </button>
      ))}
    </>
  );
}
