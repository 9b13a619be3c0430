/**
 * The dashboard's door records (every HTTP request at the tap): loaded from `GET /api/requests`,
 * then kept current by `requests/update` events, idempotently (a record is replaced whole by a
 * later copy; `rev` only grows). Also what the Connections view has chosen: a client, a record.
 */
import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { DoorRecord } from '@mcpscope/protocol';

/** Records kept in memory (the newest); older ones stay in the capture and the API. */
export const DOOR_CAP = 20_000;

export interface DoorState {
  records: Map<number, DoorRecord>;
  /** Moves whenever `records` changed. */
  tick: number;
  /** The highest `rev` applied: the WebSocket's door cursor. */
  rev: number;
  loaded: boolean;
  /** The tap's `--public-url` origin, when it has one (for the flow's advice). */
  publicOrigin?: string;
  /** The path of the tap's MCP endpoint (for the flow's advice to a client that POSTs elsewhere). */
  mcpPath?: string;
  /** The client whose connection flow is shown (`''`: every request, as a table). */
  client?: string;
  /** The record open in the detail pane. */
  record?: number;
  /**
   * Sessions the client ended: a DELETE on the MCP endpoint the server accepted (2xx). Kept
   * when the record itself is dropped at DOOR_CAP: an ended session stays ended.
   */
  endedSessions: Set<string>;
  apply(records: readonly DoorRecord[], rev?: number): void;
  setLoaded(rev: number): void;
  chooseClient(key: string | undefined): void;
  openRecord(id: number | undefined): void;
}

/** The session a record ended: a DELETE the server accepted, with the session it named. */
function endedBy(r: DoorRecord): string | undefined {
  if (r.method !== 'DELETE' || r.status === undefined || r.status < 200 || r.status >= 300) return undefined;
  return r.sessionKey ?? r.mcpSessionId;
}

export type DoorStore = UseBoundStore<StoreApi<DoorState>>;

export const createDoorStore = (): DoorStore => create<DoorState>((set) => ({
  records: new Map(),
  tick: 0,
  rev: 0,
  loaded: false,
  endedSessions: new Set(),
  apply: (records, rev) =>
    set((s) => {
      if (records.length === 0 && (rev === undefined || rev <= s.rev)) return {};
      let endedSessions = s.endedSessions;
      for (const r of records) {
        const held = s.records.get(r.id);
        if (!held || held.rev <= r.rev) s.records.set(r.id, r);
        const key = endedBy(r);
        if (key !== undefined && !endedSessions.has(key)) endedSessions = new Set(endedSessions).add(key);
      }
      if (s.records.size > DOOR_CAP) {
        const ids = [...s.records.keys()].sort((a, b) => a - b);
        for (const id of ids.slice(0, s.records.size - DOOR_CAP)) s.records.delete(id);
      }
      // Only an event's rev moves the cursor: a snapshot page may hold records newer than others it missed.
      return { tick: s.tick + 1, rev: Math.max(s.rev, rev ?? 0), endedSessions };
    }),
  setLoaded: (rev) => set((s) => ({ loaded: true, rev: Math.max(s.rev, rev) })),
  chooseClient: (client) => set(client === undefined ? { client: undefined, record: undefined } : { client, record: undefined }),
  openRecord: (record) => set(record === undefined ? { record: undefined } : { record }),
}));

/** The dashboard's one door store. */
export const useDoor = createDoorStore();
