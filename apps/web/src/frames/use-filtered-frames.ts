/**
 * The raw view under a filter: the frames of the exchanges that match it, read from the capture
 * by the server (GET /api/frames?filter=, the same language and pushdown as the timeline's), a
 * page at a time. The server's scan stops at a time budget and says where; reading goes on until
 * a page is full or the capture is read, and "more" continues from there. A snapshot: new frames
 * show after the filter changes or "more".
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { parseFilter, type FrameView } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';

const PAGE = 2000;

export interface FilteredFrames {
  frames: FrameView[];
  /** Where to read on; undefined once the whole capture was read. */
  nextAfter?: number;
  loading: boolean;
  error?: string;
  more(): void;
}

export function useFilteredFrames(api: ApiClient, filter: string): FilteredFrames | undefined {
  const [state, setState] = useState<Omit<FilteredFrames, 'more'>>({ frames: [], loading: false });
  const abort = useRef<AbortController | undefined>(undefined);
  const active = filter.trim() !== '';

  const read = useCallback(
    (after: number, held: FrameView[]) => {
      abort.current?.abort();
      const controller = new AbortController();
      abort.current = controller;
      const parsed = parseFilter(filter);
      if (!parsed.ok) return setState({ frames: [], loading: false, error: parsed.error.message });
      setState({ frames: held, loading: true, nextAfter: after });
      (async () => {
        const frames = [...held];
        let next: number | undefined = after;
        const goal = held.length + PAGE;
        while (next !== undefined && frames.length < goal) {
          const page = await api.frames(next, goal - frames.length, controller.signal, filter);
          frames.push(...page.frames);
          next = page.nextAfter;
          if (!controller.signal.aborted) setState({ frames: [...frames], loading: next !== undefined && frames.length < goal, ...(next !== undefined ? { nextAfter: next } : {}) });
        }
      })().catch((err: unknown) => {
        if (!controller.signal.aborted) setState((s) => ({ ...s, loading: false, error: err instanceof Error ? err.message : String(err) }));
      });
    },
    [api, filter],
  );

  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => read(0, []), 250);
    return () => (clearTimeout(timer), abort.current?.abort());
  }, [active, read]);

  if (!active) return undefined;
  return { ...state, more: () => state.nextAfter !== undefined && read(state.nextAfter, state.frames) };
}
