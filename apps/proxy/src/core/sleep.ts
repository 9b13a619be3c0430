/** Waits that end early: a mock's captured delays, a load's think times. */

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
