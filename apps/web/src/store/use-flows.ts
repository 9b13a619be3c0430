/**
 * The connection flows of the door records in memory, built with the protocol package's code
 * (grouping into clients, the checks) against the exchanges and sessions the dashboard holds.
 * Rebuilt at most every REBUILD_MS: under heavy traffic the exchange index changes every frame,
 * and a story does not need to move faster than a reader.
 */
import { useEffect, useRef, useState } from 'react';
import { buildConnectionFlows, type ConnectionFlow } from '@mcpscope/protocol';
import { useLive } from './live-store.js';
import { useDoor } from './door-store.js';

const REBUILD_MS = 300;

function build(): ConnectionFlow[] {
  const { index, sessions } = useLive.getState();
  const { records, publicOrigin, mcpPath } = useDoor.getState();
  const facts = { exchange: (id: string) => index.get(id), session: (key: string) => sessions.get(key), ...(publicOrigin ? { publicOrigin } : {}), ...(mcpPath ? { mcpPath } : {}) };
  return buildConnectionFlows([...records.values()], facts).reverse();
}

/** Newest client first. */
export function useFlows(): ConnectionFlow[] {
  const doorTick = useDoor((s) => s.tick);
  const liveTick = useLive((s) => s.tick);
  const sessions = useLive((s) => s.sessions);
  const [flows, setFlows] = useState<ConnectionFlow[]>(build);
  const last = useRef(0);
  useEffect(() => {
    const wait = Math.max(0, last.current + REBUILD_MS - Date.now());
    const timer = setTimeout(() => {
      last.current = Date.now();
      setFlows(build());
    }, wait);
    return () => clearTimeout(timer);
  }, [doorTick, liveTick, sessions]);
  return flows;
}
