/**
 * What the capture search behind a free-text (or diag:) filter has covered: still searching, or
 * the whole capture. It never stops part way to ask for more.
 */
import { useWindow } from '../store/window-store.js';
import { useSearch } from './server-search.js';

export function SearchNote() {
  const windowed = useWindow((s) => s.windowed);
  const counting = useWindow((s) => !s.complete);
  const found = useWindow((s) => s.total);
  if (windowed) {
    // The capture searches itself and keeps counting: rows found so far are already listed.
    return counting ? <span className="search-note" data-testid="search-note" data-search="searching"> · searching the capture (bodies too): {found} so far…</span> : null;
  }
  return <LocalSearchNote />;
}

function LocalSearchNote() {
  const status = useSearch((s) => s.status);
  const error = useSearch((s) => s.error);
  const found = useSearch((s) => s.matches.size);
  switch (status) {
    case 'idle':
      return null;
    case 'searching':
      return <span className="search-note" data-testid="search-note" data-search="searching"> · searching the capture (bodies too): {found} so far…</span>;
    case 'done':
      return <span className="search-note muted" data-testid="search-note" data-search="done" title="mcpscope searched every exchange in the capture, bodies included"> · whole capture searched</span>;
    case 'error':
      return <span className="search-note error" data-testid="search-note" data-search="error"> · the capture search failed: {error}</span>;
  }
}
