/**
 * What a shared or bookmarked dashboard link carries: the filter text, the chosen session, the
 * open exchange, the view mode and where the view was cleared. Pure parse/format, so the round trip is testable; the token
 * never goes in here (token.ts strips it from the address bar).
 */
export type ViewMode = 'exchanges' | 'frames' | 'connections' | 'readiness';

const MODES: readonly ViewMode[] = ['exchanges', 'frames', 'connections', 'readiness'];

export interface UrlState {
  filter: string;
  session?: string;
  exchange?: string;
  mode: ViewMode;
  /** "Clear": rows from frames up to this seq are hidden from the view (still in the capture). */
  since?: number;
}

export function parseUrlState(search: string): UrlState {
  const params = new URLSearchParams(search);
  const view = params.get('view') as ViewMode | null;
  const state: UrlState = { filter: params.get('q') ?? '', mode: view && MODES.includes(view) ? view : 'exchanges' };
  const session = params.get('session');
  if (session) state.session = session;
  const exchange = params.get('x');
  if (exchange) state.exchange = exchange;
  const since = Number(params.get('since') ?? NaN);
  if (Number.isSafeInteger(since) && since > 0) state.since = since;
  return state;
}

/** The query string for a state, keeping unrelated parameters of `base` as they are. */
export function formatUrlState(state: UrlState, base = ''): string {
  const params = new URLSearchParams(base);
  const put = (key: string, value: string | undefined) => (value ? params.set(key, value) : params.delete(key));
  put('q', state.filter);
  put('session', state.session);
  put('x', state.exchange);
  put('view', state.mode === 'exchanges' ? undefined : state.mode);
  put('since', state.since === undefined ? undefined : String(state.since));
  const text = params.toString();
  return text ? `?${text}` : '';
}
