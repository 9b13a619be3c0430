/**
 * Door records in step with the proxy: every page of `GET /api/requests`, oldest first, then the
 * `requests/update` events of the dashboard's one WebSocket (live-sync hands them over). The
 * socket resumes from the door cursor (`requestsRev`) once the pages are in, so a reconnect misses
 * no change; events that overlap the pages are harmless (records are replaced whole, by `rev`).
 * A failed load is retried; a `resync` (the dashboard fell behind) reloads the pages, and until
 * they are in the socket asks for no door catch-up (so a far-behind cursor cannot resync again).
 *
 * More than DOOR_CAP records at the door: only the newest DOOR_RECENT are read (one window of
 * `GET /api/requests/window`), and the table reads the rest by windows (door-store.ts); events
 * then also re-read the table's window and the count while the Connections view shows them, and
 * showing it reads them again (a dashboard following exchanges must not pay the tap a read of
 * door records per event).
 */
import type { DashboardInfo, DoorRecord, RequestsPage, RequestsWindowPage, ServerEvent } from '@mcpscope/protocol';
import { DOOR_CAP, DOOR_RECENT, setDoorReads, useDoor, type DoorStore } from '../store/door-store.js';
import { ListWindow, type ListAt } from '../store/list-window.js';
import { useUi } from '../store/ui-store.js';

export interface DoorApi {
  requests(after: number, limit: number): Promise<RequestsPage>;
  requestsWindow?(filter: string, at: ListAt<number>, limit: number): Promise<RequestsWindowPage>;
  doorRecord?(id: number): Promise<DoorRecord>;
  info?(): Promise<DashboardInfo>;
}

const PAGE = 5000;
/**
 * Records one read of the newest DOOR_RECENT takes. The dashboard's first reads share the server's
 * one thread: short reads let the exchanges' first window be answered between them, so the door
 * never delays the timeline's first row.
 */
const NEWEST_READ = 500;

export interface DoorSync {
  /** For live-sync: applies the door's events. */
  onEvent(event: ServerEvent): void;
  /** For live-sync: the socket's door cursor, once the records are loaded. */
  socketParams(): string;
  stop(): void;
}

export function startDoorSync(api: DoorApi, store: DoorStore = useDoor, retryMs = 1000): DoorSync {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let generation = 0;

  const table = api.requestsWindow ? windowOver(api.requestsWindow.bind(api)) : undefined;
  if (table && api.doorRecord) setDoorReads({ window: table, record: api.doorRecord.bind(api) });
  const count = windowCount(api, store);
  const shown = () => useUi.getState().mode === 'connections';
  const reread = () => {
    table?.refresh();
    count();
  };
  const unwatch = useUi.subscribe((s, prev) => {
    if (s.mode === 'connections' && prev.mode !== 'connections' && store.getState().windowed) reread();
  });

  /** Whether the door holds more than DOOR_CAP records: then the newest are read, and the rest by windows. */
  const loadNewest = async (mine: number): Promise<boolean> => {
    if (!api.requestsWindow) return false;
    const size = await api.requestsWindow('', { end: true }, 1);
    if (stopped || mine !== generation || (size.total <= DOOR_CAP && !store.getState().windowed)) return false;
    const newest = await api.requestsWindow('', { end: true }, NEWEST_READ);
    if (stopped || mine !== generation) return true;
    store.setState({ windowed: true, total: newest.total });
    store.getState().apply(newest.requests);
    store.getState().setLoaded(newest.rev);
    table?.refresh();
    // The rest of the newest DOOR_RECENT, read backwards NEWEST_READ at a time: positions before
    // `from` do not move while records arrive (new ones go to the end of the list).
    const floor = Math.max(0, newest.total - DOOR_RECENT);
    for (let from = newest.offset; from > floor; ) {
      const start = Math.max(floor, from - NEWEST_READ);
      const older = await api.requestsWindow('', { offset: start }, from - start);
      if (stopped || mine !== generation) return true;
      store.getState().apply(older.requests);
      from = start;
    }
    return true;
  };

  const load = async (mine: number) => {
    if (await loadNewest(mine)) return;
    if (stopped || mine !== generation) return;
    let after = 0;
    let rev: number | undefined;
    for (;;) {
      const page = await api.requests(after, PAGE);
      if (stopped || mine !== generation) return;
      // The cursor is the rev when reading began: anything written later comes as an event too.
      rev ??= page.rev;
      store.getState().apply(page.requests);
      if (page.nextAfter === undefined) break;
      after = page.nextAfter;
    }
    store.getState().setLoaded(rev);
  };
  const attempt = () => {
    const mine = ++generation;
    load(mine).catch(() => {
      if (!stopped && mine === generation) timer = setTimeout(attempt, retryMs);
    });
  };
  attempt();
  void api
    .info?.()
    .then((info) => store.setState({ mcpPath: new URL(info.mcpUrl).pathname, ...(info.publicOrigin ? { publicOrigin: info.publicOrigin } : {}) }))
    .catch(() => {});

  return {
    onEvent(event) {
      if (event.type === 'requests/update') {
        store.getState().apply(event.requests, event.rev);
        if (store.getState().windowed && shown()) reread();
      } else if (event.type === 'resync') {
        store.setState({ loaded: false });
        if (timer) clearTimeout(timer);
        attempt();
      }
    },
    socketParams() {
      const s = store.getState();
      return s.loaded ? `&requestsRev=${s.rev}` : '';
    },
    stop() {
      stopped = true;
      unwatch();
      if (timer) clearTimeout(timer);
      if (table) setDoorReads(undefined);
    },
  };
}

/** The table's window over the server's list of door records. */
function windowOver(read: NonNullable<DoorApi['requestsWindow']>): ListWindow<DoorRecord, number> {
  return new ListWindow<DoorRecord, number>(async (filter, at, limit) => {
    const page = await read(filter, at, limit);
    return { offset: page.offset, rows: page.requests, total: page.total, complete: page.complete, ...(page.position !== undefined ? { position: page.position } : {}) };
  });
}

/** Re-reads how many records the door holds (unfiltered), one read at a time. */
function windowCount(api: DoorApi, store: DoorStore): () => void {
  let counting = false;
  return () => {
    if (counting || !api.requestsWindow) return;
    counting = true;
    api
      .requestsWindow('', { end: true }, 1)
      .then((page) => store.setState({ total: page.total }))
      .catch(() => {})
      .finally(() => (counting = false));
  };
}
