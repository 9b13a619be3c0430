/**
 * When the Readiness view asks the API for the audit again: once at the start, then only after
 * something new was captured (the caller pokes it when the live head or the door records move).
 * Pokes within `delayMs` of the first one share one request, so a burst of traffic costs one
 * audit, not one per frame; a poke while a request is in flight asks once more after it. Nothing
 * poked, nothing asked: there is no timer of its own. A failed request is not retried by itself;
 * the next poke tries again.
 */

/** Runs `run` after `ms`; answers a function that cancels it. */
export type Schedule = (run: () => void, ms: number) => () => void;

export const timeoutSchedule: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

export interface AuditRefreshOptions<T> {
  load(signal: AbortSignal): Promise<T>;
  onResult(value: T): void;
  onError(error: Error): void;
  delayMs: number;
  schedule?: Schedule;
}

export interface AuditRefresh {
  /** Something new was captured: ask again soon. */
  poke(): void;
  stop(): void;
}

export function startAuditRefresh<T>(options: AuditRefreshOptions<T>): AuditRefresh {
  const schedule = options.schedule ?? timeoutSchedule;
  let stopped = false;
  let cancelWait: (() => void) | undefined;
  let inFlight: AbortController | undefined;
  let askAgain = false;

  const ask = () => {
    cancelWait = undefined;
    if (stopped) return;
    const abort = new AbortController();
    inFlight = abort;
    askAgain = false;
    options
      .load(abort.signal)
      .then((value) => !stopped && options.onResult(value))
      .catch((error: Error) => !stopped && !abort.signal.aborted && options.onError(error))
      .finally(() => {
        if (inFlight === abort) inFlight = undefined;
        if (!stopped && askAgain) wait();
      });
  };
  const wait = () => {
    if (cancelWait || stopped) return;
    cancelWait = schedule(ask, options.delayMs);
  };

  ask();
  return {
    poke() {
      if (stopped) return;
      if (inFlight) askAgain = true;
      else wait();
    },
    stop() {
      stopped = true;
      cancelWait?.();
      inFlight?.abort();
    },
  };
}
