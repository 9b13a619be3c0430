/**
 * Keeps the store in step with the proxy: an HTTP snapshot, then the WebSocket from the
 * snapshot's head. On a drop it reconnects with `after=<head>`, so nothing is missed, and the
 * idempotent index absorbs any overlap (no gap, no duplicate).
 *
 * The snapshot comes newest first in pages: the first, small page paints at once and opens the
 * WebSocket; older pages then stream in behind it. Older pages cannot hide a live change: a
 * summary held in the index is only ever replaced by a copy with a higher `updatedSeq`.
 */
import type { ConversationSummary, ConversationsPage, ExchangesPage, ServerEvent, SessionSummary, SessionsPage } from '@mcpscope/protocol';
import type { LiveStore } from './live-store.js';
import { LOCAL_LIMIT, useWindow, type WindowApi } from './window-store.js';
import { SESSIONS_HELD, SESSIONS_WHOLE, useSessionsWindow, type SessionWindowRead } from './session-windows.js';
import { CONVERSATIONS_HELD, CONVERSATIONS_WHOLE, useConversationsWindow, type ConversationWindowRead } from './conversation-windows.js';

/** What sync needs from the API client (a narrow seam, so tests can pass a fake). */
export interface SyncApi {
  exchanges(limit?: number, before?: number): Promise<ExchangesPage>;
  sessions(): Promise<SessionsPage>;
  /** Absent on proxies (and test fakes) without conversations. */
  conversations?(): Promise<ConversationsPage>;
  /** Absent on proxies (and test fakes) without the window API: the capture is then held whole. */
  exchangeWindow?: WindowApi['exchangeWindow'];
  /** Absent on proxies (and test fakes) without it: every session is then held. */
  sessionWindow?: SessionWindowRead;
  /** Absent on proxies (and test fakes) without it: every conversation is then held. */
  conversationWindow?: ConversationWindowRead;
  socketUrl(after: number): string;
  /** Subprotocols to offer (they carry the token); none when absent. */
  socketProtocols?(): string[];
}

/** The subset of the browser WebSocket that sync uses. */
export interface SyncSocket {
  onopen: ((this: SyncSocket, ev: unknown) => unknown) | null;
  onmessage: ((this: SyncSocket, ev: { data: unknown }) => unknown) | null;
  onclose: ((this: SyncSocket, ev: unknown) => unknown) | null;
  close(): void;
}

export interface SyncOptions {
  openSocket?: (url: string, protocols: string[]) => SyncSocket;
  /** Sees every event too (the door records' store takes `requests/update`). */
  onEvent?: (event: ServerEvent) => void;
  /** More query parameters for the socket URL (`&requestsRev=N`), read at each (re)connect. */
  socketParams?: () => string;
  /** Delay before the nth reconnect attempt. */
  backoff?: (attempt: number) => number;
}

const defaultBackoff = (attempt: number) => Math.min(5000, 250 * 2 ** attempt);

/** The API refused the token: mcpscope restarted with another one (ApiError carries the status). */
const tokenRejected = (err: unknown) => (err as { status?: unknown } | null)?.status === 401;
/** The first page: enough rows to fill any screen, small enough to paint at once. */
export const FIRST_PAGE = 500;
const OLDER_PAGE = 25_000;

/** Resolves once the store has applied a snapshot page. */
function whenLoaded(store: LiveStore): Promise<void> {
  if (store.getState().loaded) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = store.subscribe((s) => {
      if (!s.loaded) return;
      stop();
      resolve();
    });
  });
}

export function startLiveSync(api: SyncApi, store: LiveStore, options: SyncOptions = {}): () => void {
  const openSocket = options.openSocket ?? ((url: string, protocols: string[]) => new WebSocket(url, protocols) as unknown as SyncSocket);
  const backoff = options.backoff ?? defaultBackoff;
  let socket: SyncSocket | undefined;
  let stopped = false;
  let retry = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The cursor: the head of the last snapshot or `frames/add` received (the hub sends it last in each flush). */
  let cursor = 0;

  const loadOlder = async (before: number | undefined) => {
    // A capture that outgrew the browser meanwhile is read by windows: older rows are not held.
    while (before !== undefined && !stopped && !useWindow.getState().windowed) {
      const page = await api.exchanges(OLDER_PAGE, before);
      store.queueDelta({ exchanges: page.exchanges });
      if (page.retention) store.setState({ retention: page.retention });
      before = page.nextBefore;
    }
  };

  /**
   * The sessions the store starts with: every one, or past SESSIONS_WHOLE the newest
   * SESSIONS_HELD, the rest read by windows (session-windows.ts).
   */
  const loadSessions = async (): Promise<SessionSummary[]> => {
    if (!api.sessionWindow) return (await api.sessions()).sessions;
    const newest = await api.sessionWindow({}, { offset: 0 }, SESSIONS_HELD);
    if (newest.total <= newest.sessions.length) return newest.sessions;
    if (newest.total <= SESSIONS_WHOLE && !useSessionsWindow.getState().windowed) return (await api.sessions()).sessions;
    useSessionsWindow.setState({ windowed: true, total: newest.total });
    return newest.sessions;
  };

  /**
   * The conversations the store starts with: every one, or past CONVERSATIONS_WHOLE the newest
   * CONVERSATIONS_HELD, the sidebar reading the rest by windows (conversation-windows.ts).
   */
  const loadConversations = async (): Promise<ConversationSummary[]> => {
    if (!api.conversationWindow) return (await api.conversations?.())?.conversations ?? [];
    const newest = await api.conversationWindow({ offset: 0 }, CONVERSATIONS_HELD);
    if (newest.total <= newest.conversations.length && !useConversationsWindow.getState().windowed) return newest.conversations;
    if (newest.total <= CONVERSATIONS_WHOLE && !useConversationsWindow.getState().windowed) return (await api.conversations?.())?.conversations ?? newest.conversations;
    useConversationsWindow.setState({ windowed: true, total: newest.total });
    return newest.conversations;
  };

  const loadSnapshot = async () => {
    // The capture's size decides whether it is held whole or read by windows (window-store.ts).
    const size = api.exchangeWindow?.({ filter: '' }, { end: true }, 1).then((w) => w.total) ?? Promise.resolve(0);
    const [page, sessions, conversations, total] = await Promise.all([api.exchanges(FIRST_PAGE), loadSessions(), loadConversations(), size]);
    // Sessions read by windows read the exchanges so too: filters on a session's facts
    // (`client:`, `rev:`, `conversation:`) then run where every session is, on the server.
    const windowed = useWindow.getState().windowed || total > LOCAL_LIMIT || (api.exchangeWindow !== undefined && useSessionsWindow.getState().windowed);
    if (windowed) useWindow.setState({ windowed: true, captureTotal: total });
    store.queueDelta({ head: page.head, exchanges: page.exchanges, sessions, conversations });
    if (page.retention) store.setState({ retention: page.retention });
    cursor = Math.max(cursor, page.head);
    // A windowed capture keeps only the newest page and what arrives live: the timeline reads the rest.
    if (windowed) return page.head;
    // Older pages wait until the first one is on screen, so their parsing cannot delay first paint.
    void whenLoaded(store)
      .then(() => loadOlder(page.nextBefore))
      .catch((err: Error) => store.setConnection(store.getState().connection, err.message));
    return page.head;
  };

  /** Down, or refused: a browser hides why a WebSocket handshake failed, so the API is asked. */
  const failed = (err?: unknown) => {
    if (tokenRejected(err)) store.setConnection('rejected');
    else store.setConnection('down', err instanceof Error ? err.message : store.getState().error);
  };

  const reconnectLater = () => {
    if (stopped) return;
    if (store.getState().connection !== 'rejected') store.setConnection('down', store.getState().error);
    timer = setTimeout(() => {
      // Ask the API first: a refused token must say so, not look like a network that stays down.
      (api.sessionWindow ? api.sessionWindow({}, { offset: 0 }, 1) : api.sessions()).then(connect, (err: unknown) => (failed(err), reconnectLater()));
    }, backoff(retry++));
  };

  const connect = () => {
    if (stopped) return;
    const current = openSocket(api.socketUrl(cursor) + (options.socketParams?.() ?? ''), api.socketProtocols?.() ?? []);
    socket = current;
    current.onopen = () => {
      retry = 0;
      store.setConnection('live');
    };
    current.onmessage = (message) => {
      const event = JSON.parse(String(message.data)) as ServerEvent;
      options.onEvent?.(event);
      switch (event.type) {
        case 'hello':
          break;
        case 'retention':
          store.setState({ retention: { removedFrames: event.removedFrames, oldestSeq: event.oldestSeq } });
          break;
        case 'exchanges/update':
          store.queueDelta({ head: event.head, exchanges: event.exchanges });
          break;
        case 'sessions/update':
          store.queueDelta({ sessions: event.sessions });
          break;
        case 'conversations/update':
          store.queueDelta({ conversations: event.conversations });
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
    .catch((err: unknown) => {
      failed(err);
      // The proxy may be restarting (or restart again with this token): keep trying the snapshot.
      const again = () => {
        if (stopped) return;
        loadSnapshot().then(connect, (e: unknown) => (failed(e), (timer = setTimeout(again, backoff(retry++)))));
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
