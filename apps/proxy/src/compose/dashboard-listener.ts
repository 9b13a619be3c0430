/**
 * The dashboard listener, for `mcpscope` and `mcpscope open` alike: the API app over the services
 * it is handed, the WebSocket server, the Host allow-list filled in once the port is known.
 */
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { WebSocketServer } from 'ws';
import { createDashboardApp, type DashboardServices } from '../api/dashboard-app.js';
import { loopbackHosts, newToken } from '../api/access.js';
import { closeServer, listen } from './listen.js';

export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

export interface DashboardListenerOptions {
  services: DashboardServices;
  port?: number;
  host?: string;
  /** Random per launch when absent. */
  token?: string;
  webRoot?: string;
}

export interface DashboardListener {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** The URL with the token, as printed in the banner. */
  loginUrl: string;
  token: string;
  close(): Promise<void>;
}

export async function startDashboardListener(options: DashboardListenerOptions): Promise<DashboardListener> {
  const token = options.token ?? newToken();
  const host = options.host ?? '127.0.0.1';
  // The allowed Host set needs the real port, known only after listen: filled in afterwards.
  const allowedHosts = new Set<string>();
  const app = createDashboardApp({ services: options.services, token, allowedHosts, webRoot: options.webRoot ?? DEFAULT_WEB_ROOT });
  const wss = new WebSocketServer({ noServer: true });
  const server = await listen(serve({ fetch: app.fetch, port: options.port ?? 0, hostname: host, websocket: { server: wss } }));
  const port = (server.address() as AddressInfo).port;
  for (const h of loopbackHosts(port)) allowedHosts.add(h);
  if (host !== '127.0.0.1' && host !== 'localhost') allowedHosts.add(`${host}:${port}`.toLowerCase());
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    loginUrl: `${url}/?token=${encodeURIComponent(token)}`,
    token,
    close: async () => {
      // A dashboard that stopped reading would hold the listener open: cut it.
      for (const socket of wss.clients) socket.terminate();
      await closeServer(server);
      wss.close();
    },
  };
}
