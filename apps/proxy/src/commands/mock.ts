/**
 * `mcpscope mock FILE`: the server side of a capture served as an MCP server, optionally behind
 * a tap of its own (`--record`). Parsing is pure (argv in, options or a usage error out); running
 * prints the banner and returns a stop function.
 */
import { terminalLine, type MatchMode } from '@mcpscope/protocol';
import { startMock, type MockStartOptions, type RunningMock } from '../compose/start-mock.js';
import { allowOrigins, DEFAULT_TAP_PORT, DEFAULT_UI_PORT, port, UsageError } from './cli-args.js';
import { terminalWriter, type CliIo } from './cli-io.js';
import { parseFileCommandArgs } from './command-args.js';
import { openBrowser } from './open-browser.js';

export const MOCK_USAGE = `Usage:
  mcpscope mock FILE [--port N] [--host ADDR] [--match strict|loose] [--speed N] [--record]

Serves the server side of a capture (a capture database, an mcpscope JSONL or a HAR export) as an
MCP server over Streamable HTTP, at the paths the captured server used: the stand-in for a server
that is down, slow or costs money. Both eras: sessions with Mcp-Session-Id up to 2025-11-25,
stateless for 2026-07-28.

Options:
  --port N          port clients connect to (default ${DEFAULT_TAP_PORT})
  --host ADDR       bind address (default 127.0.0.1)
  --match MODE      strict (default): the same method and params (JSON-RPC ids and params._meta,
                    such as progress tokens, ignored); loose: the same method and tool, resource or
                    prompt, the closest captured arguments
  --speed N         timing of what the server sent during a call (progress, sampling, elicitation):
                    1 as captured (default), 2 twice as fast, 0 at once
  --record          put a tap in front: the mock's traffic is captured and shown in a dashboard
  --db FILE         with --record: the capture file (default: in memory)
  --ui-port N       with --record: dashboard port (default ${DEFAULT_UI_PORT})
  --token T         with --record: dashboard token
  --allow-host HOST another Host the listener accepts (repeatable)
  --allow-origin URL a web page origin that may use the mock from a browser (repeatable)
  --no-open         with --record: do not open the dashboard
  --quiet           no line per request
  --ready-json      once serving, also print one JSON line with the URLs (for scripts)

A request the capture cannot answer gets a JSON-RPC error naming what was asked and the nearest
captured requests (never a hang).
`;

export interface MockCli extends MockStartOptions {
  open: boolean;
  quiet: boolean;
  readyJson: boolean;
}

/** The `--ready-json` line: `{"mcpscope":"ready", "mcpUrl": …}`, as `mcpscope --ready-json` prints. */
export interface MockReadyLine {
  mcpscope: 'ready';
  mode: 'mock';
  mcpUrl: string;
  mockUrl: string;
  dashboardLoginUrl?: string;
  token?: string;
  pid: number;
}

export function parseMockArgs(argv: string[], env: Record<string, string | undefined> = {}): MockCli {
  const { values, file } = parseFileCommandArgs(
    argv,
    {
      port: { type: 'string' },
      host: { type: 'string' },
      match: { type: 'string' },
      speed: { type: 'string' },
      record: { type: 'boolean' },
      db: { type: 'string' },
      'ui-port': { type: 'string' },
      token: { type: 'string' },
      'allow-host': { type: 'string', multiple: true },
      'allow-origin': { type: 'string', multiple: true },
      'no-open': { type: 'boolean' },
      quiet: { type: 'boolean' },
      'ready-json': { type: 'boolean' },
    },
    'mock takes one FILE (a capture database, a .jsonl or a .har export)',
  );
  const mode = (values.match ?? 'strict') as MatchMode;
  if (mode !== 'strict' && mode !== 'loose') throw new UsageError(`--match must be strict or loose (got "${values.match}")`);
  const speed = values.speed === undefined ? 1 : Number(values.speed);
  if (!Number.isFinite(speed) || speed < 0) throw new UsageError(`--speed must be a number ≥ 0: 1 as captured, 2 twice as fast, 0 at once (got "${values.speed}")`);
  if (!values.record && (values.db !== undefined || values['ui-port'] !== undefined)) throw new UsageError('--db and --ui-port go with --record (the capture of the mock\'s traffic)');
  const token = values.token ?? env.MCPSCOPE_TOKEN;
  if (token !== undefined && token.length < 16) throw new UsageError('--token must be at least 16 characters');
  return {
    file,
    port: port(values.port, DEFAULT_TAP_PORT, '--port'),
    host: values.host ?? '127.0.0.1',
    mode,
    speed,
    record: values.record ?? false,
    ...(values.db !== undefined ? { db: values.db } : {}),
    ...(values.record ? { uiPort: port(values['ui-port'], DEFAULT_UI_PORT, '--ui-port') } : {}),
    ...(token !== undefined ? { token } : {}),
    allowHosts: values['allow-host'] ?? [],
    allowOrigins: allowOrigins(values['allow-origin'] ?? []),
    open: !values['no-open'],
    quiet: values.quiet ?? false,
    readyJson: values['ready-json'] ?? false,
  };
}

/** Runs `mcpscope mock`; resolves with a stop function once it serves, or an exit code. */
export async function runMock(argv: string[], env: Record<string, string | undefined>, io: CliIo): Promise<number | (() => Promise<void>)> {
  // The log quotes what clients send and the banner what the capture holds: escaped, never raw.
  const out = terminalWriter(io.stdout);
  const err = terminalWriter(io.stderr);
  if (argv.includes('--help') || argv.includes('-h')) {
    out(MOCK_USAGE);
    return 0;
  }
  let cli: MockCli;
  try {
    cli = parseMockArgs(argv, env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`mcpscope mock: ${terminalLine(e.message)}\n\n${MOCK_USAGE}`);
    return 2;
  }
  const started = await startMock({ ...cli, ...(cli.quiet ? {} : { log: (line: string) => out(`  ${terminalLine(line)}\n`) }) });
  if (!started.ok) {
    err(`mcpscope mock: ${terminalLine(started.message)}\n`);
    return 1;
  }
  out(banner(cli, started.value));
  if (cli.readyJson) {
    const { mcpUrl, mockUrl, recorder } = started.value;
    const ready: MockReadyLine = { mcpscope: 'ready', mode: 'mock', mcpUrl, mockUrl, pid: process.pid, ...(recorder ? { dashboardLoginUrl: recorder.dashboardLoginUrl, token: recorder.token } : {}) };
    out(`${JSON.stringify(ready)}\n`);
  }
  if (cli.record && cli.open && started.value.recorder) openBrowser(started.value.recorder.dashboardLoginUrl);
  return started.value.close;
}

function banner(cli: MockCli, mock: RunningMock): string {
  const { cassette, report } = mock;
  const versions = [...new Set(cassette.sessions.map((s) => s.protocolVersion).filter((v): v is string => v !== undefined))];
  const answered = cassette.calls.filter((c) => c.answer !== undefined || c.status === 'transport_error').length;
  const lines = [
    '',
    `  mcpscope mock is serving ${cli.file}${report.format === 'har' ? ' (HAR)' : ''}`,
    '',
    `  MCP endpoint (point your client here):  ${mock.mcpUrl}`,
    `  Answers:                                ${answered} captured calls from ${cassette.sessions.length} session(s)${versions.length ? ` (${versions.join(', ')})` : ''}`,
    `  Matching:                               ${cli.mode}, timing ${cli.speed === 0 ? 'at once' : cli.speed === 1 ? 'as captured' : `${cli.speed}× as fast`}`,
  ];
  if (mock.recorder) {
    lines.push(`  Dashboard (the mock's traffic):          ${mock.recorder.dashboardLoginUrl}`, `  Capture file:                           ${mock.recorder.dbFile}`);
  }
  const problems = [...report.problems, ...cassette.problems];
  if (cassette.replaysLeftOut > 0) lines.push(`  Left out:                               ${cassette.replaysLeftOut} calls mcpscope replayed itself`);
  if (cassette.redirectsLeftOut > 0) lines.push(`  Left out:                               ${cassette.redirectsLeftOut} messages the server redirected, which the client sent again`);
  if (report.skipped > 0) lines.push(`  Skipped:                                ${report.skipped} HAR entries without MCP traffic`);
  lines.push('');
  for (const p of problems.slice(0, 20)) lines.push(`  Note: ${terminalLine(p.where)}: ${terminalLine(p.message)}`);
  if (problems.length > 20) lines.push(`  … and ${problems.length - 20} more`);
  if (problems.length > 0) lines.push('');
  return `${lines.join('\n')}\n`;
}
