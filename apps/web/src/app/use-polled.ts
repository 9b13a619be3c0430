/**
 * A status the top bar polls every few seconds (OTLP export, capture drops): one request per
 * interval is nothing, and these numbers change with every batch. Stops polling once `done` says
 * the answer can no longer change (a feature that is off); a failed request is tried again later
 * (a proxy that is restarting).
 */
import { useEffect, useState } from 'react';

const POLL_MS = 3000;

/** `source` is what `load` asks (the API client): polling starts again when it changes. */
export function usePolled<S, T>(source: S, load: (source: S) => Promise<T>, done: (value: T) => boolean): T | undefined {
  const [value, setValue] = useState<T | undefined>();
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const next = await load(source);
        if (stopped) return;
        setValue(next);
        if (done(next)) return;
      } catch {
        // Asked again below.
      }
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // `load` and `done` are plain functions of `source` (callers pass them inline).
  }, [source]);
  return value;
}
