/**
 * Door records in step with the proxy: every page of `GET /api/requests`, oldest first, then the
 * `requests/update` events of the dashboard's one WebSocket (live-sync hands them over). The
 * socket resumes from the door cursor (`requestsRev`) once the pages are in, so a reconnect misses
 * no change; events that overlap the pages are harmless (records are replaced whole, by `rev`).
 * A failed load is retried; a `resync` (the dashboard fell behind) reloads the pages, and until
 * they are in the socket asks for no door catch-up (so a far-behind cursor cannot resync again).
 */
import type { DashboardInfo, RequestsPage, ServerEvent } from '@mcpscope/protocol';
import { useDoor, type DoorStore } from '../store/door-store.js';

export interface DoorApi {
  requests(after: number, limit: number): Promise<RequestsPage>;
  info?(): Promise<DashboardInfo>;
}

const PAGE = 5000;

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

  const load = async (mine: number) => {
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
      if (event.type === 'requests/update') store.getState().apply(event.requests, event.rev);
      else if (event.type === 'resync') {
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
      if (timer) clearTimeout(timer);
    },
  };
}
