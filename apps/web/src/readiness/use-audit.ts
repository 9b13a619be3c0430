/**
 * The audit over the running capture, kept current while the Readiness view is open: asked once,
 * then again (debounced, audit-refresh.ts) whenever the live store's head or the door records
 * move, and when the dashboard is live again after an outage. Never on a timer of its own.
 */
import { useEffect, useRef, useState } from 'react';
import type { AuditReport } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { useDoor } from '../store/door-store.js';
import { useLive } from '../store/live-store.js';
import { startAuditRefresh, type AuditRefresh } from './audit-refresh.js';

/** How long after new traffic the audit is asked again; a burst within it costs one request. */
export const AUDIT_DEBOUNCE_MS = 400;

export interface AuditState {
  report?: AuditReport;
  error?: string;
}

export function useAudit(api: ApiClient): AuditState {
  const [state, setState] = useState<AuditState>({});
  const refresh = useRef<AuditRefresh | undefined>(undefined);
  const head = useLive((s) => s.head);
  const live = useLive((s) => s.connection === 'live');
  const doorTick = useDoor((s) => s.tick);

  useEffect(() => {
    const running = startAuditRefresh({
      load: (signal) => api.audit(signal),
      onResult: (report) => setState({ report }),
      onError: (error) => setState((s) => ({ ...s, error: error.message })),
      delayMs: AUDIT_DEBOUNCE_MS,
    });
    refresh.current = running;
    return () => {
      running.stop();
      refresh.current = undefined;
    };
  }, [api]);

  // The first run of this effect is the start's own request: poke only on a later change.
  const seen = useRef<string | undefined>(undefined);
  useEffect(() => {
    const key = `${head} ${doorTick} ${live}`;
    if (seen.current !== undefined && seen.current !== key && live) refresh.current?.poke();
    seen.current = key;
  }, [head, doorTick, live]);

  return state;
}
