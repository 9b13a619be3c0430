/**
 * Which exchanges the view shows, built in one place: the filter bar's text and the chosen session
 * compiled to a predicate, plus what the capture search found for a filter the summaries cannot
 * answer, minus the rows before "Clear". The predicate goes to the live store (and keeps a
 * conversation's timeline whole); the compiled filter goes back to the filter bar.
 */
import { useEffect, useMemo } from 'react';
import type { ApiClient } from '../api/client.js';
import { useConversationView } from '../conversations/use-conversation-view.js';
import { buildViewFilter, serverViewFilter } from '../filter/filter-lang.js';
import { useSearch } from '../filter/server-search.js';
import { useServerSearch } from '../filter/use-server-search.js';
import { orderKey } from '../store/exchange-index.js';
import { useLive } from '../store/live-store.js';
import { useUi } from '../store/ui-store.js';
import { useWindow, windowFetcher } from '../store/window-store.js';

export function useViewPredicate(api: ApiClient): ReturnType<typeof buildViewFilter> {
  const filter = useUi((s) => s.filter);
  const session = useUi((s) => s.session);
  const since = useUi((s) => s.since);
  // A filter summaries cannot answer is searched in the capture; the view admits what it found.
  const searchVersion = useSearch((s) => s.version);
  const compiled = useMemo(() => {
    const built = buildViewFilter(filter, session, (key) => useLive.getState().sessions.get(key), useSearch.getState().matches);
    if (since === undefined) return built;
    // "Clear": rows of frames up to `since` stay in the capture but leave the view.
    const { predicate } = built;
    return { ...built, predicate: (ex: Parameters<typeof predicate>[0]) => orderKey(ex.id) >= since + 1 && predicate(ex) };
  }, [filter, session, searchVersion, since]);
  // A windowed capture asks the server for the filtered list itself, bodies included.
  const windowed = useWindow((s) => s.windowed);
  useServerSearch(api, windowed ? undefined : compiled.serverText);
  useEffect(() => {
    // The list the server reads: the filter and the chosen session, and the rows after "Clear".
    // Kept while the capture is held whole too, for the moment it outgrows the browser.
    const scoped = serverViewFilter(filter, session);
    windowFetcher()?.setQuery(since === undefined ? { filter: scoped } : { filter: scoped, from: since + 1 });
  }, [windowed, compiled, filter, session, since]);
  useEffect(() => useLive.getState().setPredicate(compiled.predicate), [compiled]);
  useConversationView(compiled.predicate);
  return compiled;
}
