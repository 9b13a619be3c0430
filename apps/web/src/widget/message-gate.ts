/**
 * The dashboard's gate in front of the widget bridge: every `message` event from the widget's
 * origin passes here first (a capturing listener on window runs before the bridge's own), and is
 * stopped unless it comes from the sandbox frame itself (a widget can post to the dashboard
 * window directly, `top.postMessage`). The sandbox page throttles what it relays; a widget can
 * reach around that too (it shares the sandbox's origin), so this gate also counts everything.
 *
 * Even a counter is too much at tens of thousands of messages a second: every cross-process
 * message is a task on the dashboard's main thread. A widget that sends more than `stopAt` in one
 * second is stopped (`onRunaway`) — the circuit breaker a browser applies to a runaway page —
 * rather than left to make the dashboard stutter.
 */

export interface GateOptions {
  /** The widget's origin (unique per preview). */
  origin: string;
  /** The sandbox iframe's window: the only legitimate sender. */
  source: () => MessageEventSource | null;
  /** Called once a second with how many messages were posted from outside the sandbox frame, when any were. */
  onForeign(count: number): void;
  /** Messages in one second (from anywhere in the widget) past which the widget is stopped. */
  stopAt: number;
  /** Called once, the moment the widget passes `stopAt`. */
  onRunaway(seen: number): void;
}

export function installMessageGate(options: GateOptions): () => void {
  let count = 0;
  let foreign = 0;
  const tick = setInterval(() => {
    if (foreign > 0) options.onForeign(foreign);
    count = 0;
    foreign = 0;
  }, 1000);
  let stopped = false;
  const gate = (event: MessageEvent) => {
    if (event.origin !== options.origin) return;
    // Every message of this second from the widget's origin, whichever way it came.
    if (++count >= options.stopAt && !stopped) {
      stopped = true;
      options.onRunaway(count);
    }
    if (event.source !== options.source()) {
      foreign++;
      event.stopImmediatePropagation();
    }
  };
  window.addEventListener('message', gate, true);
  return () => {
    clearInterval(tick);
    window.removeEventListener('message', gate, true);
  };
}
