/**
 * The floor for this stack: a bare Hono reverse proxy (hono/proxy on @hono/node-server) with no
 * capture at all. Whatever mcpscope adds above this row is the cost of capture and of our own
 * forwarding code, not of Hono or Node. Exported as a path starter so any benchmark can add it.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { proxy } from 'hono/proxy';

export interface BenchPath {
  /** The MCP endpoint a client connects to through this path. */
  url: string;
  close(): Promise<void>;
}

export async function startHonoPassthrough(targetUrl: string): Promise<BenchPath> {
  const target = new URL(targetUrl);
  const app = new Hono();
  app.all('*', (c) => {
    const url = new URL(c.req.url);
    return proxy(target.origin + url.pathname + url.search, c.req);
  });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    close: () =>
      new Promise((resolve) => {
        (server as import('node:http').Server).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
