/**
 * Keeps the store in step with the proxy: an HTTP snapshot, then the WebSocket from the
 * snapshot's head. On a drop it reconnects with `after=<head>`, so nothing is missed, and the
 * idempotent index absorbs any overlap (no gap, no duplicate).
 */
import type { ExchangesPage, ServerEvent, SessionsPage } from '@mcpscope/protocol';
import type { LiveStore } from './live-store.js';

/** What sync needs from the API client (a narrow seam, so tests can pass a fake). */
export interface SyncApi {
  exchanges(): Promise<ExchangesPage>;
  sessions(): Promise<SessionsPage>;
  socketUrl(after: number): string;
}

/** The subset of the browser WebSocket that sync uses. */
export interface SyncSocket {
  onopen: ((this: SyncSocket, ev: unknown) => unknown) | null;
  onmessage: ((this: SyncSocket, ev: { data: unknown }) => unknown) | null;
  onclose: ((this: SyncSocket, ev: unknown) => unknown) | null;
  close(): void;
}

export interface SyncOptions {
  openSocket?: (url: string) => SyncSocket;
  /** Delay before the nth reconnect attempt. */
  backoff?: (attempt: number) => number;
}

const defaultBackoff = (attempt: number) => Math.min(5000, 250 * 2 ** attempt);

export function startLiveSync(api: SyncApi, store: LiveStore, options: SyncOptions = {}): () => void {
  const openSocket = options.openSocket ?? ((url: string) => new WebSocket(url) as unknown as SyncSocket);
  const backoff = options.backoff ?? defaultBackoff;
  let socket: SyncSocket | undefined;
  let stopped = false;
  let retry = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The cursor: the head of the last snapshot or `frames/add` received (the hub sends it last in each flush). */
  let cursor = 0;

  const loadSnapshot = async () => {
    const [page, sessions] = await Promise.all([api.exchanges(), api.sessions()]);
    store.queueDelta({ head: page.head, exchanges: page.exchanges, sessions: sessions.sessions });
    cursor = Math.max(cursor, page.head);
    return page.head;
  };

  const reconnectLater = () => {
    if (stopped) return;
    store.setConnection('down', store.getState().error);
    timer = setTimeout(() => connect(), backoff(retry++));
  };

  const connect = () => {
    if (stopped) return;
    const current = openSocket(api.socketUrl(cursor));
    socket = current;
    current.onopen = () => {
      retry = 0;
      store.setConnection('live');
    };
    current.onmessage = (message) => {
      const event = JSON.parse(String(message.data)) as ServerEvent;
      switch (event.type) {
        case 'hello':
        case 'retention':
          break;
        case 'exchanges/update':
          store.queueDelta({ head: event.head, exchanges: event.exchanges });
          break;
        case 'sessions/update':
          store.queueDelta({ sessions: event.sessions });
          break;
        case 'frames/add':
          store.queueDelta({ frames: event.frames });
          // Sent last in each flush: only this advances the resume cursor, so a drop mid-flush
          // repeats data (harmless, the store is idempotent) and never skips it.
          cursor = Math.max(cursor, event.head);
          break;
        case 'resync':
          current.onclose = null;
          current.close();
          void loadSnapshot().then(connect, reconnectLater);
          break;
      }
    };
    current.onclose = () => {
      if (socket === current) reconnectLater();
    };
  };

  loadSnapshot()
    .then(connect)
    .catch((err: Error) => {
      store.setConnection('down', err.message);
      // The proxy may be restarting: keep trying the snapshot.
      const again = () => {
        if (stopped) return;
        loadSnapshot().then(connect, () => (timer = setTimeout(again, backoff(retry++))));
      };
      timer = setTimeout(again, backoff(retry++));
    });

  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    if (socket) socket.onclose = null;
    socket?.close();
  };
}
