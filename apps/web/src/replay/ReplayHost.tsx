/** Mounts the replay panel while it is open; place it once, outside the detail pane. */
import type { ApiClient } from '../api/client.js';
import { ReplayPanel } from './ReplayPanel.js';
import { useReplay } from './replay-state.js';

export function ReplayHost({ api }: { api: ApiClient }) {
  const openFor = useReplay((s) => s.openFor);
  const generation = useReplay((s) => s.generation);
  if (openFor === undefined) return null;
  return <ReplayPanel key={generation} api={api} exchangeId={openFor} onClose={() => useReplay.getState().close()} />;
}
