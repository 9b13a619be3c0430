/**
 * `mcpscope verify FILE --target URL`: a capture as a regression test. Re-runs the captured
 * client's calls against a live server, prints one row per call and exits 0 (nothing
 * regressed), 1 (something did) or 2 (could not run). Parsing is pure.
 */
import { writeFileSync } from 'node:fs';
import { DEFAULT_IGNORED_PATHS, parseFilter, parseIgnore, terminalLine, VOLATILE_KEYS, type Filter, type PathPattern } from '@mcpscope/protocol';
import { verifyCapture } from '../compose/verify-capture.js';
import { DEFAULT_MAX_ANSWER_MB, DEFAULT_MAX_SERVER_REQUESTS } from '../verify/call-scope.js';
import { EXIT_COULD_NOT_RUN, exitCode, formatSummary, formatTable, jsonReport, junitReport, type ReportMeta } from '../verify/verify-report.js';
import { githubAnnotations, jsonlFrameLines } from '../verify/github-annotations.js';
import { headerValues, UsageError } from './cli-args.js';
import { terminalWriter, type CliIo } from './cli-io.js';
import { parseFileCommandArgs } from './command-args.js';

export const VERIFY_USAGE = `Usage:
  mcpscope verify FILE --target URL [options]

Re-runs every client→server call of a capture (a capture database, a .jsonl or a .har export)
against a live server: session by session in capture order, initialize first with the captured
capabilities, server requests (sampling, elicitation, roots) answered as the captured client
answered them. Compares each answer with the captured one: status (ok, protocol error, tool
error, transport error), result shape, then content with volatile parts set aside.

Options:
  --target URL        the live server's MCP endpoint
  --only FILTER       re-run only the calls this filter selects (the dashboard's filter language),
                      e.g. --only 'status:err' or --only 'tool:get_*'
  --expect ok         every selected call must now succeed ("did my fix work")
  --strict            a field the answer gained is a regression (by default it is
                      "changed (additive)", which does not fail the run)
  --ignore '$.PATH'   leave this JSON path out of the comparison (repeatable), e.g.
                      '$.result.content[*].text' or '$..generatedAt'
  --report FILE       also write a report: FILE.xml is JUnit XML, FILE.json is JSON (repeatable)
  --format github     also print each regression as a GitHub Actions workflow command
                      (::error file=FILE,line=N,title=…::…), which a CI run shows as an annotation
                      on the pull request, at the golden file's line of the call (format:
                      docs.github.com/actions/reference/workflow-commands-for-github-actions)
  --header 'N: V'     send this header on every request, e.g. a token the capture redacted
  --timeout SECONDS   how long one call may take, its answer and the server requests during it
                      included (default 60)
  --max-time SECONDS  how long the whole run may take; calls still open then are aborted and
                      reported as not finished (exit 2) (default: no limit but --timeout per call)
  --max-answer-mb N   megabytes one call may read from the server before verify stops reading
                      and fails the call (default ${DEFAULT_MAX_ANSWER_MB})

A server that sends more than ${DEFAULT_MAX_SERVER_REQUESTS} requests (sampling, elicitation, ping…) during one call
gets no answer to the rest, and verify says so.

Volatile by default: ISO date-times and UUIDs inside strings; members named ${VOLATILE_KEYS.slice(0, 8).join(', ')}, …;
${DEFAULT_IGNORED_PATHS.join(', ')}.

Exit codes: 0 nothing regressed (additive changes included), 1 a call regressed (or still fails
with --expect ok, or gained a field with --strict), 2 could not run
(or --max-time ran out).
`;

export interface VerifyCli {
  file: string;
  target: URL;
  only: Filter | null;
  onlyText?: string;
  expectOk: boolean;
  /** `--strict`: an added field is a regression. */
  strict: boolean;
  ignore: PathPattern[];
  ignoreText: string[];
  reports: { file: string; format: 'junit' | 'json' }[];
  /** `--format github`: workflow-command annotations after the table. */
  github: boolean;
  headers: Record<string, string>;
  timeoutMs: number;
  maxTimeMs?: number;
  maxAnswerBytes: number;
}

export function parseVerifyArgs(argv: string[]): VerifyCli {
  const { values, file } = parseFileCommandArgs(
    argv,
    {
      target: { type: 'string' },
      only: { type: 'string' },
      expect: { type: 'string' },
      strict: { type: 'boolean' },
      ignore: { type: 'string', multiple: true },
      report: { type: 'string', multiple: true },
      format: { type: 'string' },
      header: { type: 'string', multiple: true },
      timeout: { type: 'string' },
      'max-time': { type: 'string' },
      'max-answer-mb': { type: 'string' },
    },
    'verify takes one FILE (a capture database, a .jsonl or a .har export)',
  );
  if (!values.target) throw new UsageError('verify needs --target URL, the live server to check');
  let target: URL;
  try {
    target = new URL(values.target);
  } catch {
    throw new UsageError(`--target must be a URL such as http://localhost:3000/mcp (got "${values.target}")`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new UsageError('--target must be an http:// or https:// URL');
  let only: Filter | null = null;
  if (values.only !== undefined) {
    const f = parseFilter(values.only);
    if (!f.ok) throw new UsageError(`--only: ${f.error.message} (at position ${f.error.position} of "${values.only}")`);
    only = f.filter;
  }
  if (values.expect !== undefined && values.expect !== 'ok') throw new UsageError(`--expect takes "ok" (got "${values.expect}")`);
  const ignore = parseIgnore(values.ignore ?? []);
  if (!ignore.ok) throw new UsageError(`--ignore: ${ignore.message}`);
  const reports = (values.report ?? []).map((file) => {
    if (/\.xml$/i.test(file)) return { file, format: 'junit' as const };
    if (/\.json$/i.test(file)) return { file, format: 'json' as const };
    throw new UsageError(`--report ${file}: name a .xml file (JUnit) or a .json file`);
  });
  if (values.format !== undefined && values.format !== 'github' && values.format !== 'table') throw new UsageError(`--format takes "github" (or "table", the default) (got "${values.format}")`);
  const headers = headerValues(values.header ?? []);
  const timeout = values.timeout === undefined ? 60 : Number(values.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0) throw new UsageError(`--timeout must be a positive number of seconds (got "${values.timeout}")`);
  const maxTime = values['max-time'] === undefined ? undefined : Number(values['max-time']);
  if (maxTime !== undefined && (!Number.isFinite(maxTime) || maxTime <= 0)) throw new UsageError(`--max-time must be a positive number of seconds (got "${values['max-time']}")`);
  const maxAnswerMb = values['max-answer-mb'] === undefined ? DEFAULT_MAX_ANSWER_MB : Number(values['max-answer-mb']);
  if (!Number.isFinite(maxAnswerMb) || maxAnswerMb <= 0) throw new UsageError(`--max-answer-mb must be a positive number of megabytes (got "${values['max-answer-mb']}")`);
  return {
    file,
    target,
    only,
    ...(values.only !== undefined ? { onlyText: values.only } : {}),
    expectOk: values.expect === 'ok',
    strict: values.strict === true,
    ignore: ignore.patterns,
    ignoreText: values.ignore ?? [],
    reports,
    github: values.format === 'github',
    headers,
    timeoutMs: timeout * 1000,
    ...(maxTime !== undefined ? { maxTimeMs: maxTime * 1000 } : {}),
    maxAnswerBytes: Math.round(maxAnswerMb * 1024 * 1024),
  };
}

/** Runs `mcpscope verify`; resolves with the exit code. */
export async function runVerify(argv: string[], io: CliIo): Promise<number> {
  // What verify prints quotes the live server and the capture: escaped, never raw.
  const out = terminalWriter(io.stdout);
  const err = terminalWriter(io.stderr);
  if (argv.includes('--help') || argv.includes('-h')) {
    out(VERIFY_USAGE);
    return 0;
  }
  let cli: VerifyCli;
  try {
    cli = parseVerifyArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`mcpscope verify: ${terminalLine(e.message)}\n\n${VERIFY_USAGE}`);
    return EXIT_COULD_NOT_RUN;
  }
  const startedAt = new Date().toISOString();
  const run = await verifyCapture({ file: cli.file, target: cli.target, only: cli.only, compare: { expectOk: cli.expectOk, strict: cli.strict, ignore: cli.ignore }, headers: cli.headers, timeoutMs: cli.timeoutMs, maxAnswerBytes: cli.maxAnswerBytes, ...(cli.maxTimeMs !== undefined ? { maxTimeMs: cli.maxTimeMs } : {}) });
  if (!run.ok) {
    err(`mcpscope verify: ${terminalLine(run.message)}\n`);
    if (cli.github) out(`${githubAnnotations({ rows: [], warnings: [], sessions: 0, durationMs: 0, couldNotRun: run.message }, cli.file)[0]}\n`);
    return EXIT_COULD_NOT_RUN;
  }
  const { result, cassette, report } = run;
  for (const p of [...report.problems, ...cassette.problems]) err(`mcpscope verify: note: ${terminalLine(p.where)}: ${terminalLine(p.message)}\n`);
  if (result.rows.length > 0) out(`\n${formatTable(result.rows)}\n`);
  // Each annotation is one line (its own escaping); the writer still neutralises control characters.
  if (cli.github) for (const line of githubAnnotations(result, cli.file, jsonlFrameLines(cli.file))) out(`${line}\n`);
  for (const w of result.warnings) err(`mcpscope verify: ${terminalLine(w)}\n`);
  out(`${formatSummary(result).split('\n').map(terminalLine).join('\n')}\n`);
  const meta: ReportMeta = { file: cli.file, target: cli.target.href, ...(cli.onlyText !== undefined ? { only: cli.onlyText } : {}), expectOk: cli.expectOk, strict: cli.strict, ignore: cli.ignoreText, startedAt };
  for (const r of cli.reports) {
    try {
      writeFileSync(r.file, r.format === 'junit' ? junitReport(result, meta) : jsonReport(result, meta));
    } catch (e) {
      err(`mcpscope verify: could not write the report ${r.file}: ${(e as Error).message}\n`);
      return EXIT_COULD_NOT_RUN;
    }
  }
  return exitCode(result);
}
