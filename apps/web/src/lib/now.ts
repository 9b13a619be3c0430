/**
 * One shared clock for running timers (pending badges, "down for 3 s"). It ticks only while some
 * component listens, so an idle dashboard schedules nothing.
 */
import { useSyncExternalStore } from 'react';

const TICK_MS = 200;
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** Wall-clock milliseconds, re-rendering the caller about five times a second. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now, () => now);
}
