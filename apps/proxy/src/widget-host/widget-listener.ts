/**
 * The widget sandbox listener: the third listener of DESIGN.md, on loopback and its own port, so
 * that widget code — the server under test's code — never runs on the dashboard's origin. It
 * serves exactly one page, the sandbox (sandbox-page.ts), at `/sandbox`, and nothing else: no
 * API, no token, no capture data (the widget's HTML reaches the sandbox by postMessage from the
 * dashboard page, as in ext-apps' double-iframe pattern).
 *
 * Every preview uses its own origin, `http://<label>.localhost:PORT` (browsers resolve
 * `*.localhost` to loopback, RFC 6761), so no widget can read another's frame or storage, and a
 * widget stuck in a loop runs in another process than the dashboard (another site). Requests for
 * any other Host name are refused (no DNS rebinding onto the listener).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sandboxPage, type SandboxScript } from './sandbox-page.js';

export interface WidgetListenerOptions {
  /** 0 (the default): any free port. */
  port?: number;
  /** The dashboard origins allowed to frame the sandbox (filled once the dashboard listens). */
  dashboardOrigins: ReadonlySet<string>;
  script: SandboxScript;
}

export interface WidgetListener {
  port: number;
  /** The CSP source the dashboard's frame-src needs: every preview origin on this port. */
  frameSources: string[];
  close(): Promise<void>;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function isWidgetHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const m = /^(.+):(\d+)$/.exec(host.toLowerCase());
  if (!m || Number(m[2]) !== port) return false;
  const name = m[1]!;
  if (name === '127.0.0.1' || name === 'localhost') return true;
  return name.endsWith('.localhost') && LABEL.test(name.slice(0, -'.localhost'.length));
}

export async function startWidgetListener(options: WidgetListenerOptions): Promise<WidgetListener> {
  let port = 0;
  const server = createServer((req, res) => handle(req, res));
  function handle(req: IncomingMessage, res: ServerResponse): void {
    const common = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };
    if (!isWidgetHost(req.headers.host, port)) {
      res.writeHead(403, { ...common, 'content-type': 'text/plain' }).end('mcpscope widget sandbox: unknown Host.');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    if (req.method !== 'GET' || url.pathname !== '/sandbox') {
      res.writeHead(404, { ...common, 'content-type': 'text/plain' }).end('mcpscope widget sandbox: the only page here is /sandbox.');
      return;
    }
    const page = sandboxPage(url.searchParams, options.dashboardOrigins, options.script);
    res.writeHead(page.status, { ...common, ...page.headers }).end(page.body);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    port,
    frameSources: [`http://*.localhost:${port}`],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
