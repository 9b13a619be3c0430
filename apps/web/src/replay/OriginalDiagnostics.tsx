/**
 * The original's diagnostics, inside the panel: the panel sits over the detail pane, so what is
 * being fixed would otherwise be hidden behind the editor that fixes it.
 */
import type { ReplayState } from './use-replay.js';

export function OriginalDiagnostics({ replay }: { replay: ReplayState }) {
  const diagnostics = replay.original?.diagnostics ?? [];
  if (diagnostics.length === 0) return null;
  return (
    <ul className="replay-diagnostics" data-testid="replay-original-diagnostics" aria-label="Diagnostics of the original">
      {diagnostics.map((d, i) => (
        <li key={`${d.frameSeq}-${d.code}-${i}`} className={`sev-${d.severity}`}>
          <code>{d.code}</code> {d.path ? <code>{d.path}</code> : null} {d.message}
        </li>
      ))}
    </ul>
  );
}
