/**
 * `mcpscope verify`: every captured session played against a live server, in capture order,
 * one after the other (a server's state after one session is what the next one met in the
 * capture too). `--only` keeps the calls its filter (the dashboard's filter language) selects;
 * the handshake of their sessions still runs.
 *
 * The outcome is data: rows, warnings, and whether the run could happen at all. Exit codes and
 * report formats are the command's and verify-report.ts's business.
 *
 * Bounded against a hostile server: each call by its limits (call-scope.ts), the whole run by
 * `maxTimeMs`: when it is up, the call in flight is aborted, no other starts, and `timedOut`
 * says so.
 */
import { compileFilter, type Cassette, type CassetteCall, type CompareOptions, type Filter } from '@mcpscope/protocol';
import type { UpstreamRequest } from '../upstream/upstream-request.js';
import { followingRedirects, type Redirect } from '../upstream/follow-redirects.js';
import { DEFAULT_MAX_ANSWER_MB, DEFAULT_MAX_SERVER_REQUESTS } from './call-scope.js';
import { VerifyClient } from './verify-client.js';
import { verifySession, type VerifyRow } from './verify-session.js';

export interface VerifyOptions {
  cassette: Cassette;
  /** The live server's MCP endpoint. */
  target: URL;
  request: UpstreamRequest;
  /** `--only`: the calls to re-run (all when null). */
  only: Filter | null;
  compare: CompareOptions;
  /** `--header NAME: VALUE`, sent on every request. */
  headers: Record<string, string>;
  /** How long one call may take before it is a transport error. */
  timeoutMs: number;
  /** Bytes one call may read (default DEFAULT_MAX_ANSWER_MB). */
  maxAnswerBytes?: number;
  /** Server requests answered during one call (default DEFAULT_MAX_SERVER_REQUESTS). */
  maxServerRequests?: number;
  /** How long the whole run may take (default: no limit but the calls' own). */
  maxTimeMs?: number;
  onRow?(row: VerifyRow): void;
}

export interface VerifyResult {
  rows: VerifyRow[];
  /** Set when the run could not happen: the target was unreachable, or nothing was selected. */
  couldNotRun?: string;
  warnings: string[];
  /** Set when the run's time (`maxTimeMs`) ran out before every call ran: what did not finish. */
  timedOut?: string;
  sessions: number;
  durationMs: number;
}

export async function runVerify(options: VerifyOptions): Promise<VerifyResult> {
  const started = performance.now();
  const rows: VerifyRow[] = [];
  const warnings: string[] = [];
  const matches = compileFilter(options.only);
  const summaries = new Map(options.cassette.sessions.map((s) => [s.sessionKey, s.summary]));
  const selected = (call: CassetteCall) =>
    matches(call.exchange, {
      ...(summaries.get(call.sessionKey) ? { session: summaries.get(call.sessionKey)! } : {}),
      bodyText: () => `${JSON.stringify(call.request)}\n${call.answer ? JSON.stringify(call.answer) : ''}`,
      diagnosticCodes: call.diagnosticCodes,
    });
  // Redirects are followed as the captured client followed them; the first is told once.
  let redirected: Redirect | undefined;
  const request = followingRedirects(options.request, (r) => (redirected ??= r));
  const done = (extra: Partial<VerifyResult> = {}): VerifyResult => {
    if (redirected) warnings.push(`the server answered ${redirected.from} with HTTP ${redirected.status} to ${redirected.to}; verify followed it, as the MCP SDK's client does. Point --target at ${redirected.to} to skip the round trip`);
    return { rows, warnings, sessions: options.cassette.sessions.length, durationMs: Math.round(performance.now() - started), ...extra };
  };
  if (!options.cassette.calls.some(selected)) {
    return done({ couldNotRun: options.only ? 'the --only filter selects no call of the capture' : 'the capture holds no client call to re-run' });
  }
  if (options.cassette.redirectsLeftOut > 0) warnings.push(`${options.cassette.redirectsLeftOut} message(s) the server redirected were sent again by the client; each is sent once, as it was sent again`);
  const limits = { timeoutMs: options.timeoutMs, maxAnswerBytes: options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_MB * 1024 * 1024, maxServerRequests: options.maxServerRequests ?? DEFAULT_MAX_SERVER_REQUESTS };
  const runSignal = options.maxTimeMs !== undefined ? AbortSignal.timeout(options.maxTimeMs) : undefined;
  const timedOut = (): Partial<VerifyResult> => {
    if (!runSignal?.aborted) return {};
    const unfinished = rows.filter((r) => r.runOut).length;
    return { timedOut: `the run reached --max-time ${options.maxTimeMs! / 1000} s: ${unfinished} call(s) did not finish` };
  };
  for (const session of options.cassette.sessions) {
    const client = new VerifyClient({ url: options.target, request, headers: options.headers, limits, ...(runSignal ? { runSignal } : {}) });
    const run = await verifySession(session, { client, selected, compare: options.compare, ...(options.onRow ? { onRow: options.onRow } : {}) });
    // Unreachable before any call ran: the target is down or wrong, not the server regressed.
    if (run.unreachable !== undefined && !rows.some((r) => r.after !== undefined)) return done({ couldNotRun: `${options.target.href} is unreachable (${run.unreachable})` });
    rows.push(...run.rows);
    warnings.push(...run.warnings);
    if (run.unreachable !== undefined) warnings.push(`session ${session.sessionKey}: the server became unreachable (${run.unreachable}); its calls did not run`);
  }
  return done(timedOut());
}
