/**
 * `mcpscope audit FILE` / `mcpscope audit --target URL`: is the app ready for ChatGPT, Claude,
 * Claude Code, Cursor and VS Code? Runs the readiness checks over a capture, or over what a probe
 * of the live server captures, prints one row per check and exits 0 (ready), 1 (a check fails)
 * or 2 (could not run). Parsing is pure.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AUDIT_CHECKS, terminalLine, type AuditReport } from '@mcpscope/protocol';
import { auditFile, auditTarget, type AuditRun } from '../compose/audit-capture.js';
import { auditJson, auditJunit, auditMarkdown, EXIT_COULD_NOT_RUN, exitCodeOf, formatAuditTable, type AuditMeta } from '../audit/audit-report.js';
import { UsageError } from './cli-args.js';
import { terminalWriter, type CliIo } from './cli-io.js';

export const AUDIT_USAGE = `Usage:
  mcpscope audit FILE [options]          audit a capture (a capture database, a .jsonl or a .har)
  mcpscope audit --target URL [options]  connect to a live server through a tap and audit that

Is the app ready for ChatGPT, Claude, Claude Code, Cursor and VS Code? ${AUDIT_CHECKS.length} checks, each with
its source, read the captured evidence: tools/list, initialize, resources/read of each widget,
tool results, and every HTTP request at the tap (OAuth discovery, 401s, CORS). A check whose
evidence is not in the capture says "not seen" and which traffic would show it.

--target connects as a host would: initialize, tools/list, resources/list, a read of every widget
template, and the OAuth discovery a host does when the server asks for sign-in.

Options:
  --report FILE       also write a report: .json, .xml (JUnit) or .md (Markdown) (repeatable)
  --submit            you will submit to ChatGPT's app directory: run the submission checks too
  --server-url URL    the URL hosts are given for the server (widget origins derive from it);
                      default: the --target URL, or the https URL hosts reached in the capture
  --header 'N: V'     with --target: send this header on every request (e.g. a token)
  --timeout SECONDS   with --target: how long one request may take (default 30)

Exit codes: 0 ready (no check fails), 1 a check fails, 2 could not run.
`;

export interface AuditCli {
  file?: string;
  target?: URL;
  serverUrl?: string;
  submitting: boolean;
  reports: { file: string; format: 'json' | 'junit' | 'markdown' }[];
  headers: Record<string, string>;
  timeoutMs: number;
}

function urlOption(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${name} must be a URL such as https://example.com/mcp (got "${value}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${name} must be an http:// or https:// URL`);
  return url;
}

export function parseAuditArgs(argv: string[]): AuditCli {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, strict: true, allowPositionals: true, options: { target: { type: 'string' }, report: { type: 'string', multiple: true }, submit: { type: 'boolean' }, 'server-url': { type: 'string' }, header: { type: 'string', multiple: true }, timeout: { type: 'string' } } });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new UsageError('audit takes one FILE');
  if (positionals.length === 1 && values.target) throw new UsageError('give a capture FILE or --target URL, not both');
  if (positionals.length === 0 && !values.target) throw new UsageError('audit needs a capture FILE or --target URL');
  const reports = (values.report ?? []).map((file) => {
    if (/\.json$/i.test(file)) return { file, format: 'json' as const };
    if (/\.xml$/i.test(file)) return { file, format: 'junit' as const };
    if (/\.md$/i.test(file)) return { file, format: 'markdown' as const };
    throw new UsageError(`--report ${file}: name a .json, .xml (JUnit) or .md (Markdown) file`);
  });
  const headers: Record<string, string> = {};
  for (const h of values.header ?? []) {
    const colon = h.indexOf(':');
    if (colon < 1) throw new UsageError(`--header must be "Name: value" (got "${h}")`);
    headers[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
  }
  const timeout = values.timeout === undefined ? 30 : Number(values.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0) throw new UsageError(`--timeout must be a positive number of seconds (got "${values.timeout}")`);
  return {
    ...(positionals[0] !== undefined ? { file: positionals[0] } : {}),
    ...(values.target ? { target: urlOption('--target', values.target) } : {}),
    ...(values['server-url'] ? { serverUrl: urlOption('--server-url', values['server-url']).href } : {}),
    submitting: values.submit === true,
    reports,
    headers,
    timeoutMs: timeout * 1000,
  };
}

/** Runs `mcpscope audit`; resolves with the exit code. */
export async function runAudit(argv: string[], io: CliIo): Promise<number> {
  // What audit prints quotes the server (tool names, URIs): escaped, never raw.
  const out = terminalWriter(io.stdout);
  const err = terminalWriter(io.stderr);
  if (argv.includes('--help') || argv.includes('-h')) {
    out(AUDIT_USAGE);
    return 0;
  }
  let cli: AuditCli;
  try {
    cli = parseAuditArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`mcpscope audit: ${terminalLine(e.message)}\n\n${AUDIT_USAGE}`);
    return EXIT_COULD_NOT_RUN;
  }
  const options = { submitting: cli.submitting, ...(cli.serverUrl ? { serverUrl: cli.serverUrl } : {}) };
  let run: AuditRun;
  try {
    run = cli.target ? await auditTarget({ ...options, target: cli.target, headers: cli.headers, timeoutMs: cli.timeoutMs }) : auditFile(cli.file!, options);
  } catch (e) {
    err(`mcpscope audit: could not run: ${terminalLine((e as Error).message)}\n`);
    return EXIT_COULD_NOT_RUN;
  }
  if (!run.ok) {
    err(`mcpscope audit: ${terminalLine(run.message)}\n`);
    return EXIT_COULD_NOT_RUN;
  }
  for (const note of run.notes) err(`mcpscope audit: note: ${terminalLine(note)}\n`);
  out(`${formatAuditTable(run.report).split('\n').map(terminalLine).join('\n')}\n`);
  const meta: AuditMeta = { source: cli.target?.href ?? cli.file! };
  for (const r of cli.reports) {
    try {
      writeFileSync(r.file, render(r.format, run.report, meta));
    } catch (e) {
      err(`mcpscope audit: could not write the report ${r.file}: ${(e as Error).message}\n`);
      return EXIT_COULD_NOT_RUN;
    }
  }
  return exitCodeOf(run.report);
}

function render(format: 'json' | 'junit' | 'markdown', report: AuditReport, meta: AuditMeta): string {
  if (format === 'json') return auditJson(report, meta);
  if (format === 'junit') return auditJunit(report, meta);
  return auditMarkdown(report, meta);
}
