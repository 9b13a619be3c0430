/**
 * An exchange's detail with its bodies whole. `GET /api/exchanges/:id` cuts each body at
 * DETAIL_RAW_LIMIT (1 MiB) so opening a row stays quick; anything that parses, checks or edits a
 * body needs all of it (a cut request is "not JSON", its arguments "undefined", and Edit & replay
 * would send the cut). Cut bodies up to WHOLE_BODY_LIMIT are fetched from `/api/frames/:seq/raw`;
 * larger ones stay cut, `truncated` still says so, and their users say they are too large here.
 */
import type { ExchangeDetail } from '@mcpscope/protocol';
import type { ApiClient } from './client.js';

/** Largest body the dashboard parses, checks and edits (Monaco stays usable at this size). */
export const WHOLE_BODY_LIMIT = 16 * 1024 * 1024;

export async function wholeExchange(api: Pick<ApiClient, 'exchange' | 'rawFrame'>, id: string, signal?: AbortSignal): Promise<ExchangeDetail> {
  const detail = await api.exchange(id, signal);
  const cut = detail.frames.filter((f) => f.truncated && f.size <= WHOLE_BODY_LIMIT);
  if (cut.length === 0) return detail;
  const whole = new Map(await Promise.all(cut.map(async (f) => [f.seq, await api.rawFrame(f.seq, signal)] as const)));
  return { ...detail, frames: detail.frames.map((f) => (whole.has(f.seq) ? { ...f, raw: whole.get(f.seq)!, truncated: false } : f)) };
}

/** Says why a body still cut after wholeExchange cannot be parsed here. */
export function tooLargeHere(size: number): string {
  return `${(size / 1024 / 1024).toFixed(1)} MB, over the ${WHOLE_BODY_LIMIT / 1024 / 1024} MB the dashboard parses`;
}
