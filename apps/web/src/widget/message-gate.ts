/**
 * The dashboard's gate in front of the widget bridge: every `message` event from the widget's
 * origin passes here first (a capturing listener on window runs before the bridge's own), and is
 * stopped unless it comes from the sandbox frame itself and the widget is within its budget of
 * messages a second. A widget can post to the dashboard window directly (`top.postMessage`), and
 * can reach around mcpscope's sandbox page (they share an origin), so this is where a flood stops
 * costing the dashboard more than a counter per message.
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
  /** Messages a second let through. */
  limit: number;
  /** Called once a second with what was stopped in the second before, when anything was. */
  onDropped(dropped: number, foreign: number): void;
  /** Messages in one second past which the widget is stopped. */
  stopAt: number;
  /** Called once, the moment the widget passes `stopAt`. */
  onRunaway(seen: number): void;
}

export function installMessageGate(options: GateOptions): () => void {
  let count = 0;
  let dropped = 0;
  let foreign = 0;
  const tick = setInterval(() => {
    if (dropped > 0 || foreign > 0) options.onDropped(dropped, foreign);
    count = 0;
    dropped = 0;
    foreign = 0;
  }, 1000);
  let stopped = false;
  const gate = (event: MessageEvent) => {
    if (event.origin !== options.origin) return;
    // `count` is every message of this second from the widget's origin, dropped or not.
    if (++count >= options.stopAt && !stopped) {
      stopped = true;
      options.onRunaway(count);
    }
    if (event.source !== options.source()) {
      foreign++;
      event.stopImmediatePropagation();
    } else if (count - foreign > options.limit) {
      dropped++;
      event.stopImmediatePropagation();
    }
  };
  window.addEventListener('message', gate, true);
  return () => {
    clearInterval(tick);
    window.removeEventListener('message', gate, true);
  };
}
