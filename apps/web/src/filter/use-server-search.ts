/**
 * Keeps one ServerSearch running while the filter needs the capture, and feeds it head changes
 * so rows captured meanwhile are searched too. Returns the search's version, which moves when
 * matches arrive (the view filter reads the mutable match set, so it must be rebuilt then).
 */
import { useEffect } from 'react';
import type { ApiClient } from '../api/client.js';
import { useLive } from '../store/live-store.js';
import { ServerSearch, clearSearch, pendingSearch, useSearch } from './server-search.js';

/** Typing fires a change per keystroke; this pause keeps the capture from scanning each prefix. */
const TYPING_PAUSE_MS = 150;

let current: ServerSearch | undefined;

function stopCurrent(): void {
  current?.stop();
  current = undefined;
}

export function useServerSearch(api: ApiClient, text: string | undefined): number {
  useEffect(() => {
    if (text === undefined) {
      stopCurrent();
      clearSearch();
      return;
    }
    if (current?.text === text) return;
    stopCurrent();
    pendingSearch(text);
    const timer = setTimeout(() => {
      current = new ServerSearch(api, { found: (page) => useLive.queueDelta({ exchanges: page.exchanges }) }, text);
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [api, text]);
  useEffect(() => () => stopCurrent(), []);
  useEffect(() => useLive.subscribe((s, prev) => void (s.head !== prev.head && current?.headChanged())), []);
  return useSearch((s) => s.version);
}
