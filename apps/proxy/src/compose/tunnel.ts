/**
 * `--tunnel cloudflared|ngrok`: starts the tunnel program towards the tap's port, reads the public
 * URL it prints, and hands it back so mcpscope starts with it as `--public-url`. The program runs
 * as mcpscope's child and is killed when mcpscope stops (or exits any other way).
 *
 * What each program prints (read line by line, never scraped from a terminal UI):
 * - `cloudflared tunnel --url http://127.0.0.1:PORT` (a quick tunnel) logs to stderr a box whose
 *   second line holds the URL: `… INF |  https://<random>.trycloudflare.com  |`, after
 *   "Your quick Tunnel has been created! Visit it at …" (cloudflare/cloudflared,
 *   cmd/cloudflared/tunnel/quick_tunnel.go: RunQuickTunnel logs AsciiBox([…, url]) line by line).
 * - `ngrok http PORT --log stdout --log-format json` writes one JSON object per line to stdout;
 *   the tunnel's is `{"lvl":"info","msg":"started tunnel","obj":"tunnels","name":"command_line",
 *   "addr":"http://localhost:PORT","url":"https://<id>.ngrok-free.app"}` (ngrok agent `--log` and
 *   `--log-format term|logfmt|json`: `ngrok http --help`; the line's shape as ngrok v3 prints it,
 *   e.g. inconshreveable/ngrok#634 for reading the URL from `--log stdout`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { terminalLine } from '@mcpscope/protocol';
import { InspectorError } from '../core/errors.js';

export type TunnelKind = 'cloudflared' | 'ngrok';
export const TUNNEL_KINDS: readonly TunnelKind[] = ['cloudflared', 'ngrok'];

/** How long a tunnel program may take to print its URL. */
const URL_WAIT_MS = 45_000;

const INSTALL: Record<TunnelKind, string> = {
  cloudflared: 'install it from https://developers.cloudflare.com/cloudflare-one/connections/connect-networks/downloads/ (macOS: brew install cloudflared; Debian/Ubuntu: the cloudflared .deb from that page)',
  ngrok: 'install it from https://ngrok.com/download (macOS: brew install ngrok) and run `ngrok config add-authtoken TOKEN` once',
};

export interface Tunnel {
  kind: TunnelKind;
  /** The public origin, e.g. `https://brave-otter.trycloudflare.com`. */
  url: string;
  child: ChildProcess;
  close(): Promise<void>;
}

export function tunnelArgs(kind: TunnelKind, port: number): string[] {
  return kind === 'cloudflared' ? ['tunnel', '--url', `http://127.0.0.1:${port}`] : ['http', String(port), '--log', 'stdout', '--log-format', 'json'];
}

const CLOUDFLARED_URL = /https:\/\/[a-z0-9-]+\.trycloudflare\.com\b/i;

/** The public URL in one line a tunnel program printed, if it holds one. */
export function tunnelUrlIn(kind: TunnelKind, line: string): string | undefined {
  if (kind === 'cloudflared') return CLOUDFLARED_URL.exec(line)?.[0].toLowerCase();
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { msg, url } = entry as { msg?: unknown; url?: unknown };
  if (msg !== 'started tunnel' || typeof url !== 'string' || !url.startsWith('https://')) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** Starts `kind` towards `port` and resolves once it printed its public URL. */
export function startTunnel(kind: TunnelKind, port: number, env: NodeJS.ProcessEnv = process.env): Promise<Tunnel> {
  const child = spawn(kind, tunnelArgs(kind, port), { stdio: ['ignore', 'pipe', 'pipe'], env });
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const close = async () => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise<Tunnel>((resolve, reject) => {
    const tail: string[] = [];
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void close();
      reject(new InspectorError('tunnel_failed', message));
    };
    const timer = setTimeout(() => fail(`${kind} printed no public URL within ${URL_WAIT_MS / 1000} s.${lastWords(tail)}`), URL_WAIT_MS);
    const read = (stream: NodeJS.ReadableStream) => {
      let partial = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop()!;
        for (const line of lines) {
          tail.push(line);
          if (tail.length > 5) tail.shift();
          const url = settled ? undefined : tunnelUrlIn(kind, line);
          if (url) {
            settled = true;
            clearTimeout(timer);
            resolve({ kind, url, child, close });
          }
        }
      });
    };
    read(child.stdout!);
    read(child.stderr!);
    child.once('error', (err: NodeJS.ErrnoException) => {
      fail(err.code === 'ENOENT' ? `--tunnel ${kind}: ${kind} is not installed (not found on PATH): ${INSTALL[kind]}. Or start a tunnel yourself and give its URL with --public-url.` : `--tunnel ${kind}: could not start ${kind}: ${err.message}`);
    });
    child.once('exit', (code, signal) => fail(`${kind} exited (${signal ?? `code ${code}`}) before printing a public URL.${lastWords(tail)}`));
  });
}

function lastWords(tail: readonly string[]): string {
  const said = tail.filter((l) => l.trim() !== '');
  return said.length > 0 ? ` It said:\n${said.map((l) => `  ${terminalLine(l.slice(0, 300))}`).join('\n')}` : '';
}

/** A port free on `host` now, for a tap whose tunnel must know its port before it listens. */
export function freeTapPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
