/**
 * Where the comparison of two exchanges lives: above the layout (like the replay panel), loaded
 * on first use with Monaco's diff editor.
 */
import { lazy, Suspense } from 'react';
import type { ApiClient } from '../api/client.js';
import { useCompare } from './compare-store.js';

const ComparePanel = lazy(() => import('./ComparePanel.js').then((m) => ({ default: m.ComparePanel })));

export function CompareHost({ api }: { api: ApiClient }) {
  const open = useCompare((s) => s.open);
  const picked = useCompare((s) => s.picked);
  const hide = useCompare((s) => s.hide);
  const [a, b] = picked;
  if (!open || a === undefined || b === undefined) return null;
  return (
    <Suspense fallback={<div className="replay-panel replay-loading">Loading the diff…</div>}>
      <ComparePanel key={`${a}|${b}`} api={api} left={a} right={b} onClose={hide} />
    </Suspense>
  );
}
