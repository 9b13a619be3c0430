/**
 * The bar that appears once a row is picked for comparison: what is picked, how to pick the
 * second one, and the Compare button once there are two.
 */
import { useCompare } from './compare-store.js';
import { useLive } from '../store/live-store.js';

export function CompareBar() {
  const picked = useCompare((s) => s.picked);
  return picked.length === 0 ? null : <PickedBar picked={picked} />;
}

/** Split from CompareBar so that nothing re-renders on every batch while no row is picked. */
function PickedBar({ picked }: { picked: readonly string[] }) {
  useLive((s) => s.tick); // the labels read the (mutable) index
  const index = useLive((s) => s.index);
  const label = (id: string) => {
    const ex = index.get(id);
    return ex ? `#${id} ${ex.method ?? '(not JSON-RPC)'}${ex.target ? ` ${ex.target}` : ''}` : `#${id}`;
  };
  return (
    <div className="compare-bar" data-testid="compare-bar" role="status">
      <span>
        Compare: {picked.map((id) => <code key={id} className="compare-pick">{label(id)}</code>)}
        {picked.length === 1 && <span className="muted"> — ctrl/⌘-click another row to compare with</span>}
      </span>
      <button type="button" className="small" data-testid="compare-open" disabled={picked.length !== 2} onClick={() => useCompare.getState().show()}>
        Compare
      </button>
      <button type="button" className="small ghost" data-testid="compare-clear" onClick={() => useCompare.getState().clear()}>
        Clear
      </button>
    </div>
  );
}
