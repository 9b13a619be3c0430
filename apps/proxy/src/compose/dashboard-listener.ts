/**
 * The dashboard listener, for `mcpscope` and `mcpscope open` alike: the API app over the services
 * it is handed, the WebSocket server, the Host allow-list filled in once the port is known.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { WebSocketServer } from 'ws';
import { createDashboardApp, type DashboardServices } from '../api/dashboard-app.js';
import { loopbackHosts, newToken, WS_PROTOCOL } from '../api/access.js';
import { resolveWebRoot } from '../core/web-root.js';
import { canonicalHost, isWildcardAddress, urlHostOf } from '../core/addresses.js';
import { closeServer, listen } from './listen.js';
import { startWidgetListener } from '../widget-host/widget-listener.js';
import { sandboxScriptFrom } from '../widget-host/sandbox-page.js';
import type { WidgetService } from '../widget-host/widget-service.js';
import type { WidgetFiles } from '../widget-host/widget-files.js';

export const DEFAULT_WEB_ROOT = resolveWebRoot();

export interface DashboardListenerOptions {
  services: DashboardServices;
  port?: number;
  host?: string;
  /** Random per launch when absent. */
  token?: string;
  webRoot?: string;
  /** The widget sandbox listener's port (0 or absent: any free port). */
  widgetPort?: number;
  /** Widget previews of captured calls (served at /api/widget/…). */
  widgets?: WidgetService;
  /** The local widget files the previews serve (their change events at /api/widget-files/events). */
  widgetFiles?: WidgetFiles;
}

export interface DashboardListener {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** The URL with the token, as printed in the banner. */
  loginUrl: string;
  token: string;
  /** The widget sandbox listener's port. */
  widgetPort: number;
  close(): Promise<void>;
}

export async function startDashboardListener(options: DashboardListenerOptions): Promise<DashboardListener> {
  const token = options.token ?? newToken();
  const host = options.host ?? '127.0.0.1';
  // The allowed Host set needs the real port, known only after listen: filled in afterwards.
  const allowedHosts = new Set<string>();
  const webRoot = options.webRoot ?? DEFAULT_WEB_ROOT;
  // The sandbox first: the dashboard's CSP names its port; it learns the dashboard's origins below.
  const dashboardOrigins = new Set<string>();
  const sandbox = await startWidgetListener({ dashboardOrigins, script: sandboxScriptFrom(webRoot), ...(options.widgetPort !== undefined ? { port: options.widgetPort } : {}) });
  const services = options.widgets ? { ...options.services, widget: { service: options.widgets, sandboxPort: sandbox.port, ...(options.widgetFiles ? { files: options.widgetFiles } : {}) } } : options.services;
  const app = createDashboardApp({ services, token, allowedHosts, webRoot, frameSources: sandbox.frameSources });
  // The handshake answers WS_PROTOCOL when offered, else no subprotocol: never the token one, so
  // the secret is not echoed back in the response headers.
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (offered) => (offered.has(WS_PROTOCOL) ? WS_PROTOCOL : false) });
  const server = await listen(serve({ fetch: app.fetch, port: options.port ?? 0, hostname: host, websocket: { server: wss } })).catch(async (err: unknown) => {
    await sandbox.close();
    throw err;
  });
  const bound = server.address() as AddressInfo;
  const port = bound.port;
  const urlHost = urlHostOf(bound.address);
  for (const h of loopbackHosts(port)) allowedHosts.add(h);
  if (!isWildcardAddress(host)) allowedHosts.add(`${canonicalHost(host) ?? host.toLowerCase()}:${port}`);
  allowedHosts.add(`${urlHost}:${port}`);
  for (const h of allowedHosts) dashboardOrigins.add(`http://${h}`);
  // Named by the address actually bound (`--ui-host ::1` listens on [::1] only).
  const url = `http://${urlHost}:${port}`;
  return {
    url,
    loginUrl: `${url}/?token=${encodeURIComponent(token)}`,
    token,
    widgetPort: sandbox.port,
    close: async () => {
      // A dashboard that stopped reading would hold the listener open: cut it.
      for (const socket of wss.clients) socket.terminate();
      options.widgetFiles?.close();
      await Promise.all([closeServer(server), sandbox.close()]);
      wss.close();
    },
  };
}
