/**
 * `mcpscope load FILE --target URL`: a capture's client traffic as a load test. Parsing is pure
 * (argv in, options or a usage error out); running prints a live progress line on stderr, the
 * table per method and tool on stdout, writes `--report FILE` (JSON) and returns the exit code.
 * An interrupt (Ctrl-C) stops the run and prints the table of what was measured.
 */
import { writeFileSync } from 'node:fs';
import { terminalLine } from '@mcpscope/protocol';
import { loadCapture } from '../compose/load-capture.js';
import type { LoadResult, LoadRunOptions } from '../load/load-run.js';
import { formatLoadTable, formatProgress, loadReport } from '../load/load-report.js';
import { headerValues, UsageError } from './cli-args.js';
import { terminalWriter, type CliIo } from './cli-io.js';
import { parseFileCommandArgs } from './command-args.js';

export const LOAD_USAGE = `Usage:
  mcpscope load FILE --target URL [--concurrency N] [--requests N | --duration D] [options]

Replays the client→server traffic of a capture (a capture database, a .jsonl or a .har export)
against a live server as a load test. Each captured session becomes a virtual client: initialize
first with the captured revision, capabilities and clientInfo (2026-07-28 sessions have no
handshake), then its calls and notifications in capture order; the next virtual client plays
the next session. Server requests during a call (sampling, elicitation) are answered as the
captured client answered them.

Options:
  --target URL          the live server's MCP endpoint (redirects are not followed)
  --concurrency N       virtual clients at once (default 10)
  --requests N          stop after N calls (sessions start over, round robin)
  --duration D          stop after D (30s, 2m, 500ms; a bare number is seconds)
                        (default, with neither: every captured session once)
  --pace captured|none  captured: wait each step's captured think time first; none: back to back
                        (default none)
  --auth captured|none  captured: send the captured clients' headers too (their credentials were
                        redacted at capture: give them with --header); none: only --header
                        (default none)
  --header 'N: V'       send this header on every request (repeatable)
  --timeout SECONDS     how long one call may take (default 30)
  --max-errors PERCENT  exit 1 when more than this share of calls erred (default 0): a call errs
                        when it did not end ok and its captured call did not end that way either
  --report FILE         also write the results as JSON
  --record              send the load through a tap of its own: its traffic becomes a capture
  --db FILE             with --record: the capture file (default: in memory)

The table: per method (and per tool for tools/call) the count, calls per second, latency p50,
p95, p99 and max, the outcomes (ok / protocol error / business error / transport error), where
latency grew (the last quarter's p50 against the first quarter's) and the first answers that
differ from the captured ones.

Exit codes: 0 the error rate is within --max-errors, 1 it is not, 2 could not run (bad input,
a target that refuses connections or redirects), 130 interrupted (the table so far is printed).
`;

export interface LoadCli extends Pick<LoadRunOptions, 'target' | 'concurrency' | 'requests' | 'durationMs' | 'pace' | 'auth' | 'headers' | 'timeoutMs'> {
  file: string;
  maxErrors: number;
  report?: string;
  record: boolean;
  db?: string;
}

const EXIT_OK = 0;
const EXIT_ERRORS = 1;
const EXIT_COULD_NOT_RUN = 2;
const EXIT_INTERRUPTED = 130;

export function parseLoadArgs(argv: string[]): LoadCli {
  const { values, file } = parseFileCommandArgs(
    argv,
    {
      target: { type: 'string' },
      concurrency: { type: 'string' },
      requests: { type: 'string' },
      duration: { type: 'string' },
      pace: { type: 'string' },
      auth: { type: 'string' },
      header: { type: 'string', multiple: true },
      timeout: { type: 'string' },
      'max-errors': { type: 'string' },
      report: { type: 'string' },
      record: { type: 'boolean' },
      db: { type: 'string' },
    },
    'load takes one FILE (a capture database, a .jsonl or a .har export)',
  );
  if (values.target === undefined) throw new UsageError('--target URL is required: the live server to load');
  let target: URL;
  try {
    target = new URL(values.target);
  } catch {
    throw new UsageError(`--target must be a URL (got "${values.target}")`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new UsageError(`--target must be an http(s) URL (got "${values.target}")`);
  if (values.requests !== undefined && values.duration !== undefined) throw new UsageError('give --requests or --duration, not both');
  const pace = values.pace ?? 'none';
  if (pace !== 'captured' && pace !== 'none') throw new UsageError(`--pace must be captured or none (got "${pace}")`);
  const auth = values.auth ?? 'none';
  if (auth !== 'captured' && auth !== 'none') throw new UsageError(`--auth must be captured or none (got "${auth}")`);
  if (values.db !== undefined && !values.record) throw new UsageError('--db goes with --record (the capture of the load\'s traffic)');
  const headers = headerValues(values.header ?? []);
  const maxErrors = values['max-errors'] === undefined ? 0 : Number(values['max-errors'].replace(/%$/, ''));
  if (!Number.isFinite(maxErrors) || maxErrors < 0 || maxErrors > 100) throw new UsageError(`--max-errors must be a percentage from 0 to 100 (got "${values['max-errors']}")`);
  return {
    file,
    target,
    concurrency: whole(values.concurrency, 10, '--concurrency'),
    ...(values.requests !== undefined ? { requests: whole(values.requests, 1, '--requests') } : {}),
    ...(values.duration !== undefined ? { durationMs: duration(values.duration) } : {}),
    pace,
    auth,
    headers,
    timeoutMs: whole(values.timeout, 30, '--timeout') * 1000,
    maxErrors,
    ...(values.report !== undefined ? { report: values.report } : {}),
    record: values.record ?? false,
    ...(values.db !== undefined ? { db: values.db } : {}),
  };
}

function whole(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a whole number ≥ 1 (got "${value}")`);
  return n;
}

/** `30s`, `2m`, `500ms`, `1h`, or a bare number of seconds, in ms. */
export function duration(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  const ms = m ? Number(m[1]) * { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'] : NaN;
  if (!(ms > 0)) throw new UsageError(`--duration must be a time such as 30s, 2m or 500ms (got "${text}")`);
  return ms;
}

/** Runs `mcpscope load`; resolves with the exit code. `signal` is the interrupt (the CLI wires Ctrl-C to it). */
export async function runLoadCommand(argv: string[], io: CliIo & { progressIsTty?: boolean }, signal?: AbortSignal): Promise<number> {
  const out = terminalWriter(io.stdout);
  const err = terminalWriter(io.stderr);
  if (argv.includes('--help') || argv.includes('-h')) {
    out(LOAD_USAGE);
    return EXIT_OK;
  }
  let cli: LoadCli;
  try {
    cli = parseLoadArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`mcpscope load: ${terminalLine(e.message)}\n\n${LOAD_USAGE}`);
    return EXIT_COULD_NOT_RUN;
  }
  const tty = io.progressIsTty ?? false;
  let progressShown = false;
  const startedAt = new Date().toISOString();
  const { file: _file, report: _report, maxErrors: _maxErrors, ...options } = cli;
  const run = await loadCapture({
    ...options,
    file: cli.file,
    ...(signal ? { signal } : {}),
    onPlan: (plan) => err(`mcpscope load: ${plan.sessions} captured session(s), ${plan.calls} calls a pass, against ${terminalLine(cli.target.href)} at concurrency ${cli.concurrency}${cli.record ? ', through a tap of its own' : ''}\n`),
    // On a terminal the line is redrawn in place; elsewhere (CI logs) one line every 5 s.
    progressEveryMs: tty ? 500 : 5_000,
    onProgress: (p) => {
      progressShown = true;
      err(tty ? `\r${formatProgress(p)}\u001b[K` : `${formatProgress(p)}\n`);
    },
  });
  if (progressShown && tty) err('\n');
  if (!run.ok) {
    err(`mcpscope load: could not run: ${terminalLine(run.message)}\n`);
    return EXIT_COULD_NOT_RUN;
  }
  const { result, cassette, report } = run;
  for (const p of [...report.problems, ...cassette.problems].slice(0, 10)) err(`mcpscope load: note: ${terminalLine(p.where)}: ${terminalLine(p.message)}\n`);
  if (result.missingCredentials.length > 0) err(`mcpscope load: the captured clients sent ${result.missingCredentials.join(', ')} (redacted in the capture); pass it with --header to send it again\n`);
  if (result.ended === 'could-not-run') {
    err(`mcpscope load: could not run: ${terminalLine(result.couldNotRun ?? 'the target did not answer')}\n`);
    return EXIT_COULD_NOT_RUN;
  }
  out(`${formatLoadTable(result).split('\n').map(terminalLine).join('\n')}\n`);
  if (cli.report !== undefined) {
    try {
      writeFileSync(cli.report, loadReport(result, { file: cli.file, target: cli.target.href, concurrency: cli.concurrency, pace: cli.pace, maxErrors: cli.maxErrors, startedAt }));
    } catch (e) {
      err(`mcpscope load: could not write the report ${cli.report}: ${(e as Error).message}\n`);
      return EXIT_COULD_NOT_RUN;
    }
  }
  if (run.recordedTo !== undefined) err(`mcpscope load: the load's traffic was captured${run.recordedTo === ':memory:' ? ' in memory (give --db FILE to keep it)' : ` in ${terminalLine(run.recordedTo)}`}\n`);
  return exitCode(result, cli.maxErrors);
}

function exitCode(result: LoadResult, maxErrors: number): number {
  if (result.ended === 'interrupted') return EXIT_INTERRUPTED;
  const rate = result.total.count > 0 ? (result.total.errors * 100) / result.total.count : 0;
  return rate > maxErrors ? EXIT_ERRORS : EXIT_OK;
}
