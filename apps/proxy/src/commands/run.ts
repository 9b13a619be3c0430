/**
 * `mcpscope [options]`: starts the tap and the dashboard (over the demo, a --target or a --stdio
 * server), prints the banner, opens the browser, and stops cleanly on Ctrl-C or SIGTERM.
 */
import type { Mcpscope } from '../compose/start-mcpscope.js';
import { freeTapPort, startTunnel, type Tunnel } from '../compose/tunnel.js';
import { VERSION } from '../core/version.js';
import { parseCli, USAGE, type CliOptions } from './cli-args.js';
import type { CliIo } from './cli-io.js';
import { openBrowser } from './open-browser.js';
import { isLoopbackAddress } from '../core/addresses.js';

export async function runMcpscope(argv: string[], env: Record<string, string | undefined>, io: CliIo): Promise<void> {
  const options = parseCli(argv, env);
  if (options.help) {
    io.stdout.write(USAGE);
    return;
  }
  if (options.version) {
    io.stdout.write(`mcpscope ${VERSION}\n`);
    return;
  }
  // Loaded only now: `--help` and `--version` answer without the tap, the store and the SDKs.
  const { startMcpscope } = await import('../compose/start-mcpscope.js');
  // A tunnel first: its URL is the public URL the tap starts with (the guard takes its Host).
  const tunnel = options.tunnel ? await startTunnelFor(options) : undefined;
  let app: Mcpscope;
  try {
    app = await startMcpscope({ ...options, ...(tunnel ? { publicUrl: tunnel.url } : {}), notice: (line) => void io.stderr.write(`${line}\n`) });
  } catch (err) {
    await tunnel?.close();
    throw err;
  }
  io.stdout.write(banner(app, options));
  if (tunnel && app.publicMcpUrl) io.stdout.write(tunnelNotice(tunnel, app.publicMcpUrl));
  if (options.readyJson) io.stdout.write(`${JSON.stringify(readyLine(app))}\n`);
  if (options.open) openBrowser(app.dashboardLoginUrl);
  let stopping = false;
  const stop = async () => {
    if (stopping) process.exit(130);
    stopping = true;
    await app.close();
    await tunnel?.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** The tunnel to the tap's port (a free one when the port is 0: the tunnel needs it before the tap listens). */
async function startTunnelFor(options: CliOptions): Promise<Tunnel> {
  if (options.port === 0) options.port = await freeTapPort(options.host);
  return startTunnel(options.tunnel!, options.port);
}

/** The exact URL to paste into a connector: the tunnel's origin with the server's MCP path. */
function tunnelNotice(tunnel: Tunnel, publicMcpUrl: string): string {
  return [
    `  Tunnel: ${tunnel.kind} (pid ${tunnel.child.pid}) → ${tunnel.url}; it stops with mcpscope.`,
    `  Paste into ChatGPT (Settings → Apps & Connectors → Create) or Claude.ai (Connectors):`,
    '',
    `      ${publicMcpUrl}`,
    '',
    '',
  ].join('\n');
}

/**
 * What a script (or a test) needs to talk to a running mcpscope, as one JSON line on stdout after
 * the banner: `{"mcpscope":"ready", …}`. Read this instead of scraping the banner's wording.
 */
export interface ReadyLine {
  mcpscope: 'ready';
  mcpUrl: string;
  tapUrl: string;
  publicMcpUrl?: string;
  dashboardUrl: string;
  dashboardLoginUrl: string;
  token: string;
  upstreamUrl: string;
  dbFile: string;
  /** The widget sandbox listener's port (previews run on `http://<label>.localhost:PORT`). */
  widgetPort: number;
  pid: number;
}

function readyLine(app: Mcpscope): ReadyLine {
  const line: ReadyLine = {
    mcpscope: 'ready',
    mcpUrl: app.mcpUrl,
    tapUrl: app.tapUrl,
    dashboardUrl: app.dashboardUrl,
    dashboardLoginUrl: app.dashboardLoginUrl,
    token: app.token,
    upstreamUrl: app.upstreamUrl,
    dbFile: app.dbFile,
    widgetPort: app.widgetPort,
    pid: process.pid,
  };
  if (app.publicMcpUrl) line.publicMcpUrl = app.publicMcpUrl;
  return line;
}

function banner(app: Mcpscope, options: Pick<CliOptions, 'maxFrames' | 'maxBytes' | 'otlp' | 'host' | 'allowHosts'>): string {
  const upstream = app.demo
    ? `${app.upstreamUrl} (embedded demo server)`
    : app.stdio
      ? `${app.stdio.argv.join(' ')} (stdio, pid ${app.stdio.child.pid})`
      : app.upstreamUrl;
  const retention = [options.maxFrames && `${options.maxFrames} frames`, options.maxBytes && `${options.maxBytes} bytes`].filter(Boolean).join(', ');
  return (
    [
      '',
      '  mcpscope is running',
      '',
      `  Tap (point your MCP client here):  ${app.mcpUrl}`,
      ...(app.publicMcpUrl ? [`  Public (connector URL):            ${app.publicMcpUrl}`] : []),
      `  Upstream:                          ${upstream}`,
      `  Dashboard:                         ${app.dashboardLoginUrl}`,
      `  Capture file:                      ${app.dbFile}`,
      ...(retention ? [`  Retention:                         ${retention} (oldest removed first)`] : []),
      ...(options.otlp ? [`  OTLP traces:                       ${options.otlp.url} (${options.otlp.protocol}, from ${options.otlp.from}${options.otlp.bodies ? '; redacted bodies' : ''})`] : []),
      '',
      '  The dashboard URL carries a secret token; do not share it.',
      '',
      ...networkWarning(options),
    ].join('\n') + '\n'
  );
}

/**
 * Said when the tap listens beyond this machine: who can reach it, and which Host names it takes
 * (a DNS-rebinding page comes by a name, so names need --allow-host; addresses are accepted).
 */
function networkWarning(options: Pick<CliOptions, 'host' | 'allowHosts'>): string[] {
  if (options.host === undefined || isLoopbackAddress(options.host)) return [];
  const names = options.allowHosts.length > 0 ? `Host names accepted: ${options.allowHosts.join(', ')}.` : 'No Host name is accepted yet.';
  return [
    `  Warning: the tap listens on ${options.host}, beyond this machine: anyone who can reach this port`,
    '  can drive your MCP server through it, and a web page could by DNS rebinding (a name of its own',
    '  that resolves here). The tap accepts IP addresses and loopback names; add --allow-host NAME for',
    `  each name your clients use. ${names}`,
    '',
  ];
}
