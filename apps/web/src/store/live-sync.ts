/**
 * Keeps the store in step with the proxy: an HTTP snapshot, then the WebSocket from the
 * snapshot's head. On a drop it reconnects with `after=<head>`, so nothing is missed and the
 * idempotent index absorbs any overlap.
 */
import type { ServerEvent } from '@mcpscope/protocol';
import type { ApiClient } from '../api/client.js';
import { queueDelta, useLive } from './live-store.js';

export function startLiveSync(api: ApiClient): () => void {
  let socket: WebSocket | undefined;
  let stopped = false;
  let retry = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const loadSnapshot = async () => {
    const [page, sessions] = await Promise.all([api.exchanges(), api.sessions()]);
    queueDelta(page.head, page.exchanges, sessions.sessions);
    return page.head;
  };

  const connect = (after: number) => {
    if (stopped) return;
    useLive.setState({ connection: 'connecting' });
    socket = new WebSocket(api.socketUrl(after));
    socket.onopen = () => {
      retry = 0;
      useLive.setState({ connection: 'live', error: undefined });
    };
    socket.onmessage = (message) => {
      const event = JSON.parse(String(message.data)) as ServerEvent;
      switch (event.type) {
        case 'hello':
          break;
        case 'exchanges/update':
          queueDelta(event.head, event.exchanges);
          break;
        case 'sessions/update':
          // Only exchanges/update (sent last in each flush) advances the resume cursor.
          queueDelta(0, [], event.sessions);
          break;
        case 'frames/add':
          break;
        case 'resync':
          socket?.close();
          void loadSnapshot().then((head) => connect(head));
          break;
        case 'retention':
          break;
      }
    };
    socket.onclose = () => {
      if (stopped) return;
      useLive.setState({ connection: 'down' });
      const delay = Math.min(5000, 250 * 2 ** retry++);
      timer = setTimeout(() => connect(Math.max(useLive.getState().head, after)), delay);
    };
  };

  loadSnapshot()
    .then((head) => connect(head))
    .catch((err: Error) => useLive.setState({ connection: 'down', error: err.message }));

  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    socket?.close();
  };
}
