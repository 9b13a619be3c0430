/**
 * Whether the dashboard shows a file (`mcpscope open FILE`) rather than a live proxy: then nothing
 * can be sent (no Compose, no Edit & replay, no re-run) and no new rows will arrive (no follow).
 * Asked once at start through GET /api/capture, which says `readOnly` with the file's name.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import type { ApiClient } from '../api/client.js';

export const useReadOnly = create<{ file?: string }>(() => ({}));

/** What a disabled send control says instead. */
export const READ_ONLY_HINT =
  'Read-only: this dashboard shows a file, with no proxy running. To replay against a live server, start `mcpscope --target URL`, import the file from Export ▸ Import, then use Edit & replay.';

export function useLoadReadOnly(api: ApiClient): void {
  useEffect(() => {
    let live = true;
    api
      .capture()
      .then((status) => live && status.readOnly && useReadOnly.setState({ file: status.readOnly.file }))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api]);
}
