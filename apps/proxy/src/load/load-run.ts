/**
 * `mcpscope load`'s run: virtual clients, `concurrency` of them at a time, each playing one
 * captured session's script (load-plan.ts) in order against the target and then the next
 * session's (round robin), until the run's budget is spent: `requests` calls, or `durationMs`,
 * or (with neither) every session once. With `pace: 'captured'` each step waits the captured
 * think time first. Every answered request counts in its row (load-stats.ts); notifications and
 * the closing DELETE are sent but not counted.
 *
 * A run that cannot start says so instead of counting failures: when no request has been
 * answered yet and the target refuses the connection or answers with a redirect, the run stops
 * with `couldNotRun`. An interrupt (`signal`) stops at once: what was measured stays.
 */
import { isJsonObject, type JsonObject } from '@mcpscope/protocol';
import { sleepUntil } from '../core/sleep.js';
import { wireHeaders } from '../upstream/wire-headers.js';
import { LoadWire, type PostResult } from './load-client.js';
import type { LoadScript, LoadStep } from './load-plan.js';
import { LoadStats, type RowSummary } from './load-stats.js';

export interface LoadRunOptions {
  scripts: LoadScript[];
  target: URL;
  concurrency: number;
  requests?: number;
  durationMs?: number;
  pace: 'captured' | 'none';
  /** `captured`: the captured client's headers too (redacted secrets from `headers`); `none`: only `headers`. */
  auth: 'captured' | 'none';
  headers: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
  progressEveryMs?: number;
  onProgress?(progress: LoadProgress): void;
}

export interface LoadProgress {
  elapsedMs: number;
  requests: number;
  errors: number;
  /** Calls per second over the last interval. */
  recentPerSecond: number;
  sessions: number;
}

export interface LoadResult {
  rows: RowSummary[];
  total: RowSummary;
  elapsedMs: number;
  /** Virtual clients started. */
  sessions: number;
  ended: 'done' | 'requests' | 'duration' | 'interrupted' | 'could-not-run';
  couldNotRun?: string;
  /** Secret headers the captured clients sent (redacted in the capture) that no `--header` supplied. */
  missingCredentials: string[];
}

export async function runLoad(options: LoadRunOptions): Promise<LoadResult> {
  const wire = new LoadWire(options.target.href, options.timeoutMs, options.concurrency);
  const stats = new LoadStats();
  const missing = new Set<string>();
  const headerCache = new WeakMap<LoadStep, Record<string, string>>();
  const onePass = options.requests === undefined && options.durationMs === undefined;
  const budget = options.requests ?? (onePass ? options.scripts.reduce((n, s) => n + s.steps.filter((st) => st.request).length, 0) : Number.POSITIVE_INFINITY);
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  let issued = 0;
  let nextScript = 0;
  let answeredOnce = false;
  let ended: LoadResult['ended'] | undefined;
  let couldNotRun: string | undefined;
  const stopping = new AbortController();
  const stop = (why: LoadResult['ended']) => {
    ended ??= why;
    stopping.abort();
  };
  const onAbort = () => {
    stop('interrupted');
    void wire.close();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  const durationTimer = options.durationMs !== undefined ? setTimeout(() => stop('duration'), options.durationMs) : undefined;
  let lastProgress = { at: 0, requests: 0 };
  const progressTimer = options.onProgress
    ? setInterval(() => {
        const now = elapsed();
        const recent = ((stats.requests - lastProgress.requests) * 1000) / Math.max(1, now - lastProgress.at);
        lastProgress = { at: now, requests: stats.requests };
        options.onProgress!({ elapsedMs: now, requests: stats.requests, errors: stats.errors, recentPerSecond: recent, sessions: virtualClients });
      }, options.progressEveryMs ?? 1_000)
    : undefined;

  const headersFor = (step: LoadStep, sessionId: string | undefined, protocolVersion: string | undefined) => {
    let base = headerCache.get(step);
    if (!base) {
      const wired = wireHeaders(step.message, { credentials: options.headers, ...(options.auth === 'captured' && step.headers ? { captured: step.headers } : {}) });
      for (const name of wired.missingCredentials) missing.add(name);
      headerCache.set(step, (base = wired.headers));
    }
    if (sessionId === undefined && (protocolVersion === undefined || step.method === 'initialize' || base['mcp-protocol-version'] !== undefined)) return base;
    const headers = { ...base };
    if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
    if (protocolVersion !== undefined && step.method !== 'initialize') headers['mcp-protocol-version'] ??= protocolVersion;
    return headers;
  };

  /** True when the run must stop: the target cannot be loaded at all. */
  const refusal = (result: PostResult): boolean => {
    if (result.status !== undefined && result.status < 300) answeredOnce = true;
    if (answeredOnce) return false;
    if (result.refused) couldNotRun = `${options.target.href} refuses connections (${result.outcome.failure})`;
    else if (result.redirect !== undefined) couldNotRun = `${options.target.href} answers with a redirect (HTTP ${result.status}) to ${result.redirect}; load does not follow redirects: point --target at the MCP endpoint itself`;
    else return false;
    stop('could-not-run');
    return true;
  };

  let virtualClients = 0;
  const playSession = async (script: LoadScript) => {
    let sessionId: string | undefined;
    let protocolVersion: string | undefined;
    let begun = false;
    for (const step of script.steps) {
      if (stopping.signal.aborted) break;
      if (options.pace === 'captured' && step.thinkMs > 0) await sleepUntil(performance.now() + step.thinkMs, stopping.signal);
      if (stopping.signal.aborted) break;
      if (step.request) {
        if (issued >= budget) return stop(options.requests !== undefined ? 'requests' : 'done');
        issued++;
      }
      if (!begun) {
        begun = true;
        virtualClients++;
      }
      const t0 = performance.now();
      const result = await wire.post(step.body, headersFor(step, sessionId, protocolVersion), step.request, step.call);
      if (refusal(result)) return;
      if (!step.request) continue;
      // An answer cut by the interrupt is not a measurement.
      if (ended === 'interrupted') return;
      const now = performance.now();
      stats.add(step.key, result.outcome, now - t0, now - started, step.call);
      if (step.method === 'initialize') {
        if (result.outcome.status !== 'ok') return;
        sessionId = result.sessionId;
        const answer = result.outcome.answer;
        const version = isJsonObject(answer) && isJsonObject(answer.result) ? (answer.result as JsonObject).protocolVersion : undefined;
        protocolVersion = typeof version === 'string' ? version : undefined;
      }
    }
    if (sessionId !== undefined && ended !== 'interrupted') await wire.end(sessionId, protocolVersion, options.headers);
  };

  const worker = async () => {
    while (!stopping.signal.aborted) {
      if (onePass && nextScript >= options.scripts.length) return;
      const script = options.scripts[nextScript++ % options.scripts.length]!;
      await playSession(script);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    clearTimeout(durationTimer);
    clearInterval(progressTimer);
    options.signal?.removeEventListener('abort', onAbort);
    await wire.close();
  }
  const elapsedMs = elapsed();
  const { rows, total } = stats.summary(elapsedMs);
  return { rows, total, elapsedMs, sessions: virtualClients, ended: ended ?? 'done', ...(couldNotRun !== undefined ? { couldNotRun } : {}), missingCredentials: [...missing].sort() };
}
