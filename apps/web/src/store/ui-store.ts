/**
 * View settings that are not captured data: the filter text, the chosen session, the open
 * exchange, the view mode, follow-tail and the theme. The first four mirror the URL (so a view
 * can be bookmarked and survives a reload); the theme is remembered in localStorage.
 */
import { create } from 'zustand';
import { formatUrlState, parseUrlState, type UrlState, type ViewMode } from './url-state.js';

export type Theme = 'light' | 'dark';

export interface UiState extends Omit<UrlState, 'exchange'> {
  /** The highlighted row (keyboard and mouse move it). */
  selected?: string;
  /** Whether the detail pane shows the selected row; the URL carries the row only when open. */
  detailOpen: boolean;
  /** Keep the newest row in view as rows arrive; turned off when the user scrolls up. */
  follow: boolean;
  theme: Theme;
  /** A JSON path the open exchange's frames mark (an audit finding's evidence); any other selection drops it. */
  evidence?: { exchange: string; path: string; note: string };
  setFilter(text: string): void;
  setSession(sessionKey: string | undefined): void;
  select(id: string | undefined, open?: boolean): void;
  closeDetail(): void;
  /** Opens an exchange in the Exchanges view's detail pane with `path` marked in its frames. */
  showEvidence(exchange: string, path: string | undefined, note: string): void;
  setMode(mode: ViewMode): void;
  setFollow(follow: boolean): void;
  /** Hides the rows of frames up to `seq` (undefined shows everything again). */
  setSince(seq: number | undefined): void;
  toggleTheme(): void;
}

const THEME_KEY = 'mcpscope.theme';

function initialTheme(): Theme {
  const saved = typeof localStorage !== 'undefined' ? localStorage.getItem(THEME_KEY) : null;
  if (saved === 'light' || saved === 'dark') return saved;
  return typeof matchMedia !== 'undefined' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

const fromUrl = typeof location !== 'undefined' ? parseUrlState(location.search) : { filter: '', mode: 'exchanges' as const };

const { exchange: openAtStart, ...restFromUrl } = fromUrl;

export const useUi = create<UiState>((set) => ({
  ...restFromUrl,
  ...(openAtStart ? { selected: openAtStart } : {}),
  detailOpen: openAtStart !== undefined,
  follow: true,
  theme: initialTheme(),
  setFilter: (filter) => set({ filter }),
  setSession: (session) => set(session ? { session } : { session: undefined }),
  select: (selected, open) => set((s) => ({ selected, detailOpen: selected !== undefined && (open ?? s.detailOpen), evidence: undefined })),
  showEvidence: (exchange, path, note) => set({ mode: 'exchanges', selected: exchange, detailOpen: true, evidence: path ? { exchange, path, note } : undefined }),
  closeDetail: () => set({ detailOpen: false }),
  setMode: (mode) => set({ mode }),
  setFollow: (follow) => set({ follow }),
  setSince: (since) => set(since === undefined ? { since: undefined } : { since }),
  toggleTheme: () =>
    set((s) => {
      const theme = s.theme === 'dark' ? 'light' : 'dark';
      localStorage.setItem(THEME_KEY, theme);
      return { theme };
    }),
}));

// Mirror the URL part of the state into the address bar (replace, not push: typing a filter
// should not flood the history).
if (typeof window !== 'undefined') {
  useUi.subscribe((s, prev) => {
    const open = (u: UiState) => (u.detailOpen ? u.selected : undefined);
    if (s.filter === prev.filter && s.session === prev.session && open(s) === open(prev) && s.mode === prev.mode && s.since === prev.since) return;
    const url: UrlState = { filter: s.filter, mode: s.mode };
    if (s.session) url.session = s.session;
    if (s.since !== undefined) url.since = s.since;
    const exchange = open(s);
    if (exchange) url.exchange = exchange;
    const query = formatUrlState(url, location.search);
    window.history.replaceState(null, '', location.pathname + query + location.hash);
  });
}
