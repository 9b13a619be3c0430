/**
 * The command line, as DESIGN.md's contract names it. Parsing is pure: argv in, options or a
 * usage error out.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { splitCommand } from '../upstream/split-command.js';
import { isWildcardAddress } from '../core/addresses.js';
import type { McpscopeOptions } from '../compose/options.js';
import { resolveOtlpConfig } from '../otlp/otlp-config.js';
import { readFileSync } from 'node:fs';
import { parseRule } from '@mcpscope/protocol';
import { normaliseOrigin } from '../tap/http/tap-guard.js';
import { TUNNEL_KINDS, type TunnelKind } from '../compose/tunnel.js';
import { parseServerAnswers } from '../replay/index.js';
import type { ServerAnswerDefaults } from '@mcpscope/protocol';

export const DEFAULT_TAP_PORT = 7788;
export const DEFAULT_UI_PORT = 7789;

/** What `mcpscope [options]` runs with: mcpscope's options plus what only the command uses. */
export interface CliOptions extends McpscopeOptions {
  port: number;
  uiPort: number;
  host: string;
  uiHost: string;
  open: boolean;
  /** Print one JSON line with the URLs once listening (for scripts and tests; see run.ts). */
  readyJson: boolean;
  help: boolean;
  version: boolean;
  dangerouslyExposeDashboard: boolean;
  allowHosts: string[];
  allowOrigins: string[];
  /** Start this tunnel program to the tap and use its URL as the public URL. */
  tunnel?: TunnelKind;
}

export const USAGE = `mcpscope — see every MCP frame between a client and a server

Usage:
  mcpscope [--target URL | --stdio "CMD ARGS"] [options]
  mcpscope export --db FILE --format har|jsonl|curl [--filter EXPR] [--redact K|$.PATH ...] [--unredacted]
  mcpscope open FILE           the dashboard over a .jsonl, .har or capture file, no proxy (read-only)
  mcpscope rebuild --db FILE   recompute exchanges, sessions and diagnostics from the stored frames
  mcpscope export --db FILE --format otlp --otlp URL   send a stored capture's exchanges as spans
  mcpscope mcp [--db FILE] [--dashboard URL]   the capture as an MCP server (stdio) for coding agents
  mcpscope mock FILE           serve a capture's server side as an MCP server (mcpscope mock --help)
  mcpscope verify FILE --target URL   re-run a capture against a live server; exit 0 same, 1 regressed, 2 could not run
  mcpscope load FILE --target URL [--concurrency N] [--requests N | --duration D]
                               a capture's client traffic as a load test (mcpscope load --help)
  mcpscope evidence FILE --exchange ID | --conversation KEY [--format md|html] [--out PATH] [--unredacted]
                               one redacted file for a bug report: verdict, frames with SHA-256, timings

With neither --target nor --stdio, mcpscope starts its embedded demo MCP server.

Options:
  --target URL        upstream MCP endpoint, e.g. http://localhost:3000/mcp
  --stdio "CMD ARGS"  spawn a stdio MCP server and expose it at /mcp on the tap
  --port N            tap port, the URL clients use (default ${DEFAULT_TAP_PORT})
  --ui-port N         dashboard port (default ${DEFAULT_UI_PORT})
  --widget-port N     widget sandbox port, its own origin for widget previews (default: random)
  --widget-file [URI=]PATH  serve this local .html file as the widget URI's HTML (every widget's
                      without URI=) in widget previews, read-only and watched: each save
                      re-renders the widget (repeatable)
  --host ADDR         tap bind address (default 127.0.0.1; a tunnel connects locally; beyond
                      loopback the tap takes IP addresses, and names only by --allow-host)
  --ui-host ADDR      dashboard bind address (default 127.0.0.1; wildcards refused)
  --db FILE           capture database (default in your data directory; :memory: allowed)
  --max-frames N      keep at most N frames; older ones are removed (the dashboard says how many)
  --max-bytes N       keep at most N bytes of captured text (suffixes kb, mb, gb)
  --token T           dashboard token (default: kept in <db>.token, owner-only, so restarts keep
                      open tabs working; or MCPSCOPE_TOKEN)
  --public-url URL    the tunnel URL clients reach the tap by (rewrites OAuth metadata)
  --tunnel PROGRAM    cloudflared or ngrok: start that tunnel to the tap and use its URL as --public-url
  --allow-host HOST   another Host the tap accepts (repeatable)
  --allow-origin URL  a web page origin that may use the tap from a browser, e.g. http://localhost:6274
                      (repeatable; by default only the tap's own origin, never "null")
  --otlp URL          send one span per exchange to this OTLP/HTTP endpoint (e.g. http://localhost:4318);
                      OTEL_EXPORTER_OTLP_ENDPOINT / _HEADERS / _PROTOCOL / _TIMEOUT and OTEL_BSP_* apply
  --otlp-bodies       put request and response bodies on the spans, redacted (off by default)
  --server-answers JSON  answer the server's requests to sessions mcpscope drives when nobody is
                      at the dashboard, e.g. '{"sampling":{"text":"ok"},"elicitation":"accept",
                      "roots":[{"uri":"file:///work"}]}' ("accept" submits the form's defaults;
                      a kind left out waits for the dashboard user)
  --rule 'FILTER => ACTION [COUNT]'  intercept and fault injection (repeatable), e.g.
                      'tool:search => delay 90s', 'method:tools/call => pause', 'tool:x => http 429 retry-after=5 once';
                      actions: pause, delay, error, is-error, replace, inflate, drop, http, cut-stream, notify
  --rules FILE        more rules, one a line (# starts a comment)
  --allow-agent-replay  offer replay_exchange to agents at the dashboard's /mcp (it sends
                      requests with the captured session's credentials; off by default)
  --no-open           do not open the dashboard in a browser
  --ready-json        once listening, also print one JSON line with the URLs (for scripts)
  --dangerously-expose-dashboard  allow a wildcard --ui-host (anyone on the network with the token)
  --version           print the version
  --help              this text
`;

export class UsageError extends Error {}

export function parseCli(argv: string[], env: Record<string, string | undefined> = {}): CliOptions {
  // `pnpm mcpscope -- --target …` passes the `--` through.
  const args = argv[0] === '--' ? argv.slice(1) : argv;
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        target: { type: 'string' },
        stdio: { type: 'string' },
        port: { type: 'string' },
        'ui-port': { type: 'string' },
        'widget-port': { type: 'string' },
        'widget-file': { type: 'string', multiple: true },
        host: { type: 'string' },
        'ui-host': { type: 'string' },
        db: { type: 'string' },
        'max-frames': { type: 'string' },
        'max-bytes': { type: 'string' },
        token: { type: 'string' },
        'public-url': { type: 'string' },
        tunnel: { type: 'string' },
        'allow-host': { type: 'string', multiple: true },
        'allow-origin': { type: 'string', multiple: true },
        otlp: { type: 'string' },
        'otlp-bodies': { type: 'boolean' },
        'allow-agent-replay': { type: 'boolean' },
        'server-answers': { type: 'string' },
        rule: { type: 'string', multiple: true },
        rules: { type: 'string' },
        'no-open': { type: 'boolean' },
        'ready-json': { type: 'boolean' },
        'dangerously-expose-dashboard': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.target && values.stdio) throw new UsageError('give --target or --stdio, not both');
  if (values.target) {
    let url: URL;
    try {
      url = new URL(values.target);
    } catch {
      throw new UsageError(`--target must be a URL such as http://localhost:3000/mcp (got "${values.target}")`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--target must be an http:// or https:// URL');
  }
  if (values.stdio !== undefined) {
    try {
      splitCommand(values.stdio);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  if (values['public-url']) {
    try {
      new URL(values['public-url']);
    } catch {
      throw new UsageError(`--public-url must be a URL (got "${values['public-url']}")`);
    }
  }
  if (values.tunnel !== undefined) {
    if (!TUNNEL_KINDS.includes(values.tunnel as TunnelKind)) throw new UsageError(`--tunnel must be ${TUNNEL_KINDS.join(' or ')} (got "${values.tunnel}")`);
    if (values['public-url']) throw new UsageError('give --tunnel or --public-url, not both: --tunnel sets the public URL from the tunnel it starts');
  }
  const uiHost = values['ui-host'] ?? '127.0.0.1';
  const dangerous = values['dangerously-expose-dashboard'] ?? false;
  if (isWildcardAddress(uiHost) && !dangerous) {
    throw new UsageError(`refusing to bind the dashboard to ${uiHost}: anyone on the network could reach your capture. Add --dangerously-expose-dashboard if you mean it.`);
  }
  const token = values.token ?? env.MCPSCOPE_TOKEN;
  if (token !== undefined && token.length < 16) throw new UsageError('--token must be at least 16 characters');
  const options: CliOptions = {
    port: port(values.port, DEFAULT_TAP_PORT, '--port'),
    uiPort: port(values['ui-port'], DEFAULT_UI_PORT, '--ui-port'),
    host: values.host ?? '127.0.0.1',
    uiHost,
    open: !values['no-open'],
    readyJson: values['ready-json'] ?? false,
    help: values.help ?? false,
    version: values.version ?? false,
    dangerouslyExposeDashboard: dangerous,
    allowHosts: values['allow-host'] ?? [],
    allowOrigins: allowOrigins(values['allow-origin'] ?? []),
  };
  if (values.target) options.target = values.target;
  if (values.stdio) options.stdio = values.stdio;
  if (values.db) options.db = values.db;
  if (values['max-frames'] !== undefined) options.maxFrames = positiveSize(values['max-frames'], '--max-frames', false);
  if (values['max-bytes'] !== undefined) options.maxBytes = positiveSize(values['max-bytes'], '--max-bytes', true);
  if (token) options.token = token;
  const otlp = resolveOtlpConfig({ ...(values.otlp !== undefined ? { otlp: values.otlp } : {}), otlpBodies: values['otlp-bodies'] ?? false }, env);
  if (!otlp.ok) throw new UsageError(otlp.message);
  if (otlp.config) options.otlp = otlp.config;
  if (values['allow-agent-replay']) options.allowAgentReplay = true;
  if (values['server-answers'] !== undefined) options.serverAnswers = serverAnswers(values['server-answers']);
  if (values['public-url']) options.publicUrl = values['public-url'];
  if (values.tunnel !== undefined) options.tunnel = values.tunnel as TunnelKind;
  if (values['widget-port'] !== undefined) options.widgetPort = port(values['widget-port'], 0, '--widget-port');
  const rules = [...(values.rule ?? []), ...(values.rules !== undefined ? rulesFile(values.rules) : [])];
  for (const text of rules) checkRule(text);
  if (rules.length > 0) {
    if (values.stdio) throw new UsageError('--rule acts at the HTTP tap: it is not available with --stdio yet');
    options.rules = rules;
  }
  if (values['widget-file'] !== undefined) options.widgetFiles = values['widget-file'].map(widgetFile);
  return options;
}

/** A rules file's rules: one a line; blank lines and lines starting with # are skipped. */
function rulesFile(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`--rules ${file}: ${(err as Error).message}`);
  }
  return text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
}

function checkRule(text: string): void {
  const parsed = parseRule(text);
  if (parsed.ok) return;
  const { position, length, message } = parsed.error;
  throw new UsageError(`bad rule: ${message}\n  ${text}\n  ${' '.repeat(position)}${'^'.repeat(Math.max(1, Math.min(length, text.length - position)))}`);
}

/** `--widget-file [URI=]PATH`: a URI (it has a scheme) before the first `=` after it, else the path for every widget. */
export function widgetFile(value: string): { uri: string; path: string } {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(value);
  const equals = scheme ? value.indexOf('=', scheme[0].length) : -1;
  const [uri, path] = equals > 0 ? [value.slice(0, equals), value.slice(equals + 1)] : ['*', value];
  if (path === '') throw new UsageError(`--widget-file needs a file path (got "${value}")`);
  return { uri, path: resolve(path) };
}

/** `--allow-origin` values as browsers send them; "null" and non-URLs are usage errors. */
export function allowOrigins(values: string[]): string[] {
  return values.map((value) => {
    const n = normaliseOrigin(value);
    if (!n.ok) throw new UsageError(`--allow-origin: ${n.message}`);
    return n.origin;
  });
}

export function port(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`${flag} must be a port number (got "${value}")`);
  return n;
}

const UNITS: Record<string, number> = { '': 1, k: 1e3, kb: 1e3, m: 1e6, mb: 1e6, g: 1e9, gb: 1e9 };

/** A positive integer, with kb/mb/gb suffixes when `units` (decimal: 1kb = 1000 bytes). */
export function positiveSize(value: string, flag: string, units: boolean): number {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value.trim());
  const factor = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  const n = m && factor !== undefined && (units || factor === 1) ? Math.floor(Number(m[1]) * factor) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`${flag} must be a positive ${units ? 'size such as 500mb' : 'whole number'} (got "${value}")`);
  }
  return n;
}

function serverAnswers(text: string): ServerAnswerDefaults {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--server-answers must be JSON: ${(err as Error).message}`);
  }
  const parsed = parseServerAnswers(value);
  if (!parsed.ok) throw new UsageError(`--server-answers: ${parsed.error.message}`);
  return parsed.value;
}

/** `--header 'Name: value'` values as lower-cased names to values. */
export function headerValues(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of values) {
    const colon = h.indexOf(':');
    if (colon < 1) throw new UsageError(`--header must be "Name: value" (got "${h}")`);
    headers[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
  }
  return headers;
}
