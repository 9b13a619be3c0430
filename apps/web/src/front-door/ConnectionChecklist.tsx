/**
 * The live checklist of the host connecting (checklist.ts), rebuilt as door records and exchanges
 * arrive: each step green, red with its reason, waiting, or not needed.
 */
import { useMemo } from 'react';
import { useDoor } from '../store/door-store.js';
import { useFlows } from '../store/use-flows.js';
import { useAcceptedHosts } from './accepted-hosts.js';
import { connectingFlow, connectionChecklist, type ChecklistState } from './checklist.js';
import { refusedHosts } from './refused-hosts.js';

const MARK: Record<ChecklistState, string> = { done: '✓', failed: '✕', waiting: '…', skipped: '–' };

/**
 * `untilConnected`: the Exchanges view's copy, shown only while a host connecting through a tunnel
 * has not made its first call (the first-run page, which shows it always, is gone by then). Until
 * a request came through a tunnel it shows nothing, so it is not built: building reads every door
 * record on every change, which a local client's busy traffic would pay for nothing.
 */
export function ConnectionChecklist({ untilConnected = false }: { untilConnected?: boolean }) {
  const tunnelled = useDoor((s) => s.tunnelled);
  if (untilConnected && !tunnelled) return null;
  return <Checklist untilConnected={untilConnected} />;
}

function Checklist({ untilConnected }: { untilConnected: boolean }) {
  const records = useDoor((s) => s.records);
  const tick = useDoor((s) => s.tick);
  const accepted = useAcceptedHosts((s) => s.accepted);
  const flows = useFlows();
  const items = useMemo(() => {
    const all = [...records.values()].sort((a, b) => a.id - b.id);
    return connectionChecklist(all, connectingFlow(flows, records), refusedHosts(all, accepted));
  }, [records, tick, flows, accepted]);
  if (untilConnected && (items[0]!.state !== 'done' || items.every((i) => i.state === 'done' || i.state === 'skipped'))) return null;
  const list = (
    <ol className="checklist" data-testid="connection-checklist">
      {items.map((item) => (
        <li key={item.key} className={`checklist-item state-${item.state}`} data-testid="checklist-item" data-key={item.key} data-state={item.state}>
          <span className="checklist-mark" aria-hidden="true">{MARK[item.state]}</span>
          <strong>{item.label}</strong> <span className="checklist-reason">{item.reason}</span>
        </li>
      ))}
    </ol>
  );
  if (!untilConnected) return list;
  return (
    <details className="checklist-bar" open data-testid="checklist-bar">
      <summary>Connecting through the tunnel: {items.filter((i) => i.state === 'done').length} of {items.filter((i) => i.state !== 'skipped').length} steps done</summary>
      {list}
    </details>
  );
}
