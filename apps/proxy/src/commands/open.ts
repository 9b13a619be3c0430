/**
 * `mcpscope open FILE`: the dashboard over a JSONL, HAR or capture database file, with no proxy
 * and no upstream (read-only). Parsing is pure (argv in, options or a usage message out).
 */
import { parseArgs } from 'node:util';
import { openCapture } from '../compose/open-capture.js';
import { terminalLine } from '@mcpscope/protocol';
import { terminalWriter, type CliIo } from './cli-io.js';
import { openBrowser } from './open-browser.js';

export const OPEN_USAGE = `Usage:
  mcpscope open FILE [--ui-port N] [--token T] [--no-open] [--ready-json]

Serves the dashboard over a capture database or a .jsonl or .har export, with no proxy running,
and opens it in the browser (--no-open: print its URL only). The file is read, never written:
- a capture database is read in place (ready at once, whatever its size). One written by an older
  mcpscope is refused with how to upgrade it; one another mcpscope is recording is read alongside.
- an export is imported into a temporary capture file, removed when mcpscope open exits.
The dashboard is read-only: replay, imports, marks and pausing capture are refused, saying so.
--ready-json also prints one JSON line once serving: {"mcpscope":"ready","mode":"open",…}.
`;

export type OpenCli = { kind: 'open'; file: string; uiPort: number; token?: string; open: boolean; readyJson: boolean } | { kind: 'usage'; message: string } | { kind: 'help' };

/** The `--ready-json` line, as `mcpscope --ready-json` prints one: read it instead of the banner. */
export interface OpenReadyLine {
  mcpscope: 'ready';
  mode: 'open';
  file: string;
  dashboardUrl: string;
  dashboardLoginUrl: string;
  token: string;
  pid: number;
  /** An export's temporary capture file, removed at exit (absent for a capture database). */
  importedInto?: string;
}

export function parseOpenArgs(argv: string[], env: Record<string, string | undefined> = {}): OpenCli {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, strict: true, allowPositionals: true, options: { 'ui-port': { type: 'string' }, token: { type: 'string' }, 'no-open': { type: 'boolean' }, 'ready-json': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    return { kind: 'usage', message: (err as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (positionals.length !== 1) return { kind: 'usage', message: 'open takes one FILE (.jsonl, .har or a capture database)' };
  const uiPort = values['ui-port'] === undefined ? 7789 : Number(values['ui-port']);
  if (!Number.isInteger(uiPort) || uiPort < 0 || uiPort > 65535) return { kind: 'usage', message: `--ui-port must be a port number (got "${values['ui-port']}")` };
  const token = values.token ?? env.MCPSCOPE_TOKEN;
  if (token !== undefined && token.length < 16) return { kind: 'usage', message: '--token must be at least 16 characters' };
  return { kind: 'open', file: positionals[0]!, uiPort, ...(token ? { token } : {}), open: !values['no-open'], readyJson: values['ready-json'] ?? false };
}

/** Runs `mcpscope open`; resolves with a stop function once the dashboard is up, or an exit code. */
export async function runOpen(argv: string[], env: Record<string, string | undefined>, io: CliIo): Promise<number | (() => Promise<void>)> {
  // The report quotes the file (problems name what it held): escaped, never raw.
  const out = terminalWriter(io.stdout);
  const err = terminalWriter(io.stderr);
  const cli = parseOpenArgs(argv, env);
  if (cli.kind === 'help') {
    out(OPEN_USAGE);
    return 0;
  }
  if (cli.kind === 'usage') {
    err(`mcpscope open: ${terminalLine(cli.message)}\n\n${OPEN_USAGE}`);
    return 2;
  }
  const opened = await openCapture({ file: cli.file, uiPort: cli.uiPort, ...(cli.token ? { token: cli.token } : {}) });
  if (!opened.ok) {
    err(`mcpscope open: ${terminalLine(opened.message)}\n`);
    return 1;
  }
  const { report, recordedElsewhere, importedInto } = opened.value;
  const sessions = `${report.sessionKeys.length} session(s)`;
  const lines = ['', `  mcpscope is showing ${cli.file} (read-only, no proxy running)`, ''];
  if (importedInto === undefined) {
    lines.push(`  Capture file:                      ${report.frames} frames in ${sessions}${report.links ? `, ${report.links} replay link(s)` : ''}`);
  } else {
    lines.push(`  Imported:                          ${report.frames} frames in ${sessions}${report.links ? `, ${report.links} replay link(s)` : ''}${report.skipped ? `, ${report.skipped} non-MCP HAR entries skipped` : ''}`);
    lines.push(`  Into (removed at exit):            ${importedInto}`);
  }
  if (recordedElsewhere) lines.push('  Another mcpscope is recording this file: shown as it stands when the dashboard asks; that mcpscope\'s own dashboard shows it live.');
  lines.push(`  Dashboard:                         ${opened.value.dashboardLoginUrl}`, '');
  for (const p of report.problems.slice(0, 20)) lines.push(`  Not imported: ${terminalLine(p.where)}: ${terminalLine(p.message)}`);
  if (report.problems.length > 20) lines.push(`  … and ${report.problems.length - 20} more problems`);
  out(`${lines.join('\n')}\n`);
  if (cli.readyJson) {
    const { dashboardUrl, dashboardLoginUrl, token } = opened.value;
    const ready: OpenReadyLine = { mcpscope: 'ready', mode: 'open', file: cli.file, dashboardUrl, dashboardLoginUrl, token, pid: process.pid, ...(importedInto ? { importedInto } : {}) };
    out(`${JSON.stringify(ready)}\n`);
  }
  if (cli.open) openBrowser(opened.value.dashboardLoginUrl);
  return opened.value.close;
}
