/**
 * Replay for `mcpscope mcp --db FILE --dashboard URL`: the stdio server reads the capture file,
 * but only the mcpscope that writes it holds the upstream connection, the session credentials
 * (kept in its memory only) and the pipeline a replay is captured by. So a replay is asked of
 * that mcpscope's dashboard API (`POST /api/replay`, with its token), exactly as the dashboard
 * asks, and its answer read back from the file.
 *
 * Before the first replay the dashboard is checked to record this very file: the exchange to
 * replay must be the same there (same method, session and start), or ids would name different
 * exchanges and the wrong request would go out.
 */
import type { ExchangeSummary, ReplayFailure, ReplayResponse } from '@mcpscope/protocol';
import type { CaptureReader } from '../capture/capture-reader.js';
import type { AgentReplay } from './replay-tool.js';

export interface DashboardAddress {
  /** The dashboard's origin, e.g. `http://127.0.0.1:7789`. */
  url: string;
  token: string;
}

/** `--dashboard URL` as the banner prints it (`http://127.0.0.1:7789/?token=…`) or a bare origin plus a token. */
export function dashboardAddress(url: string, token: string | undefined): DashboardAddress | string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `--dashboard must be the dashboard URL mcpscope printed, e.g. http://127.0.0.1:7789/?token=… (got "${url}")`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return '--dashboard must be an http:// URL';
  const given = token ?? parsed.searchParams.get('token') ?? undefined;
  if (!given) return 'replay through --dashboard needs its token: the URL mcpscope printed (with ?token=), --token T, or MCPSCOPE_TOKEN';
  return { url: parsed.origin, token: given };
}

export function remoteReplay(reader: CaptureReader, dashboard: DashboardAddress): AgentReplay {
  const call = async (path: string, signal: AbortSignal, body?: unknown): Promise<{ status: number; json: unknown }> => {
    const res = await fetch(dashboard.url + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${dashboard.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal,
    });
    return { status: res.status, json: await res.json().catch(() => null) };
  };
  return async (request, signal) => {
    const unreachable = (why: string) => ({ ok: false as const, error: { code: 'dashboard_unreachable', message: `the mcpscope at ${dashboard.url} could not be asked: ${why}. Is it running, with this capture file as its --db?` } });
    try {
      const mine = reader.exchange(request.exchangeId)!;
      const theirs = await call(`/api/exchanges/${encodeURIComponent(request.exchangeId)}`, signal);
      if (theirs.status === 401) return { ok: false, error: { code: 'unauthorized', message: `the mcpscope at ${dashboard.url} refused the token` } };
      const other = (theirs.json as { exchange?: ExchangeSummary } | null)?.exchange;
      if (theirs.status !== 200 || !other || other.method !== mine.method || other.sessionKey !== mine.sessionKey || other.startTs !== mine.startTs) {
        return { ok: false, error: { code: 'other_capture', message: `the mcpscope at ${dashboard.url} records another capture than this file (its exchange ${request.exchangeId} is not this one), so it cannot replay it` } };
      }
      const { status, json } = await call('/api/replay', signal, request);
      if (status === 200) return { ok: true, value: json as ReplayResponse };
      const failure = json as ReplayFailure | null;
      if (!failure?.error) return unreachable(`HTTP ${status}`);
      return { ok: false, error: { ...failure.error, ...(failure.exchange ? { exchange: failure.exchange } : {}), ...(failure.retryWith ? { retryWith: failure.retryWith } : {}) } };
    } catch (err) {
      if (signal.aborted) throw err;
      return unreachable((err as Error).message);
    }
  };
}
