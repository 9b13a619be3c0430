/**
 * What the dashboard knows of intercept: the last `GET /api/intercept` answer (there is no push
 * event for held frames, so it is polled), whether the Rules panel is open, and the last error.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import type { InterceptResponse } from '@mcpscope/protocol';
import { ApiError, type ApiClient } from '../api/client.js';
import { InterceptApi } from './intercept-api.js';
import { pollInterval } from './intercept-model.js';

interface InterceptState {
  state?: InterceptResponse;
  /** False when this proxy has no intercept routes (a stdio server, a reopened capture): nothing to show. */
  available: boolean;
  open: boolean;
  /** Bumped to ask the poll for a fresh answer now (after a control). */
  nudge: number;
  setOpen(open: boolean): void;
  refresh(): void;
}

export const useIntercept = create<InterceptState>((set) => ({
  available: true,
  open: false,
  nudge: 0,
  setOpen: (open) => set({ open }),
  refresh: () => set((s) => ({ nudge: s.nudge + 1 })),
}));

/**
 * Keeps `state` fresh: fast while the panel is open, a frame is held or a pause rule is on, slowly
 * otherwise (rules may come from the command line). A proxy without the routes (404) is not asked again.
 */
export function useInterceptPoll(client: ApiClient): void {
  const open = useIntercept((s) => s.open);
  const nudge = useIntercept((s) => s.nudge);
  useEffect(() => {
    const api = new InterceptApi(client);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const tick = async () => {
      let next: InterceptResponse | undefined;
      try {
        next = await api.state();
        if (!stopped) useIntercept.setState({ state: next });
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) {
          useIntercept.setState({ available: false });
          return;
        }
        next = useIntercept.getState().state;
      }
      if (!stopped) timer = setTimeout(() => void tick(), pollInterval(next, useIntercept.getState().open));
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [client, open, nudge]);
}
