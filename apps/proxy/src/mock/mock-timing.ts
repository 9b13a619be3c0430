/** The mock's clock: captured delays scaled by `--speed`, and waits that end early when the client goes. */

/** A captured delay at `speed` (1 as captured, 2 twice as fast, 0 none at all). */
export function scaled(ms: number, speed: number): number {
  return speed <= 0 ? 0 : ms / speed;
}

/** Waits until the `performance.now()` time `at`; returns at once when it has passed or `signal` aborts. */
export function sleepUntil(at: number, signal: AbortSignal): Promise<void> {
  const wait = at - performance.now();
  if (wait <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, wait);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
