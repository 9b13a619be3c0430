/**
 * The dashboard's door records (every HTTP request at the tap): loaded from `GET /api/requests`,
 * then kept current by `requests/update` events, idempotently (a record is replaced whole by a
 * later copy; `rev` only grows). Also what the Connections view has chosen: a client, a record.
 *
 * Up to DOOR_CAP records are held whole. Past it the store is `windowed` (and stays so): it holds
 * the newest DOOR_RECENT records, which the client list and its stories are built from, and the
 * table of every request reads the server's list by windows (`doorWindow`, store/list-window.ts).
 */
import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { DoorRecord } from '@mcpscope/protocol';
import type { ListWindow } from './list-window.js';
import { isTunnelHost } from '../lib/tunnel-host.js';

/** Records held whole (the newest); past it the store is windowed. */
export const DOOR_CAP = 20_000;
/** Records a windowed store holds (the newest): the client list's horizon. */
export const DOOR_RECENT = 5000;

export interface DoorState {
  records: Map<number, DoorRecord>;
  /** Moves whenever `records` changed. */
  tick: number;
  /** The highest `rev` applied: the WebSocket's door cursor. */
  rev: number;
  loaded: boolean;
  /** More records at the door than DOOR_CAP: the table reads windows of the server's list. */
  windowed: boolean;
  /** Records at the door, unfiltered, as the server counted them (windowed only). */
  total: number;
  /**
   * A record applied came through a tunnel (its Host is not loopback); stays set. Until then the
   * Exchanges view's connection checklist has nothing to show and is not built.
   */
  tunnelled: boolean;
  /** A record opened that no held list has (far from the newest): read by id. */
  fetched?: DoorRecord;
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
  windowed: false,
  total: 0,
  tunnelled: false,
  endedSessions: new Set(),
  apply: (records, rev) =>
    set((s) => {
      if (records.length === 0 && (rev === undefined || rev <= s.rev)) return {};
      let endedSessions = s.endedSessions;
      let tunnelled = s.tunnelled;
      for (const r of records) {
        if (!tunnelled && isTunnelHost(r.host)) tunnelled = true;
        const held = s.records.get(r.id);
        if (!held || held.rev <= r.rev) s.records.set(r.id, r);
        const key = endedBy(r);
        if (key !== undefined && !endedSessions.has(key)) endedSessions = new Set(endedSessions).add(key);
      }
      const windowed = s.windowed || s.records.size > DOOR_CAP;
      const cap = windowed ? DOOR_RECENT : DOOR_CAP;
      if (s.records.size > cap) {
        const ids = [...s.records.keys()].sort((a, b) => a - b);
        for (const id of ids.slice(0, s.records.size - cap)) s.records.delete(id);
      }
      // Only an event's rev moves the cursor: a snapshot page may hold records newer than others it missed.
      return { tick: s.tick + 1, rev: Math.max(s.rev, rev ?? 0), endedSessions, windowed, tunnelled };
    }),
  setLoaded: (rev) => set((s) => ({ loaded: true, rev: Math.max(s.rev, rev) })),
  chooseClient: (client) => set(client === undefined ? { client: undefined, record: undefined } : { client, record: undefined }),
  openRecord: (record) => set(record === undefined ? { record: undefined, fetched: undefined } : { record }),
}));

/** The dashboard's one door store. */
export const useDoor = createDoorStore();

/** What a windowed door store reads from the server: the table's window, and one record by id. */
export interface DoorReads {
  window: ListWindow<DoorRecord, number>;
  record(id: number): Promise<DoorRecord>;
}

let reads: DoorReads | undefined;

/** The reads the dashboard's door sync started (undefined before it, and in tests without one). */
export function doorReads(): DoorReads | undefined {
  return reads;
}

export function setDoorReads(next: DoorReads | undefined): void {
  reads?.window.stop();
  reads = next;
}
