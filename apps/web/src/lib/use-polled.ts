/**
 * A value the dashboard asks the API for every `intervalMs` (a status that changes with every
 * batch, or rarely: one small request every few seconds is nothing). A failed request (a proxy
 * that is restarting) is asked again later; `keepAsking(value) === false` stops the polling.
 */
import { useEffect, useState } from 'react';

const always = () => true;

export function usePolled<T>(fetchValue: () => Promise<T>, intervalMs: number, keepAsking: (value: T) => boolean = always): T | undefined {
  const [value, setValue] = useState<T | undefined>();
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const next = await fetchValue();
        if (stopped) return;
        setValue(next);
        if (!keepAsking(next)) return;
      } catch {
        // Ask again later.
      }
      if (!stopped) timer = setTimeout(poll, intervalMs);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // `fetchValue` must be stable (useCallback over `api`): a new one starts polling anew.
  }, [fetchValue, intervalMs, keepAsking]);
  return value;
}
