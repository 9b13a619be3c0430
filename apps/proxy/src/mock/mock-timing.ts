/** The mock's clock: captured delays scaled by `--speed`. */
export { sleepUntil } from '../core/sleep.js';

/** A captured delay at `speed` (1 as captured, 2 twice as fast, 0 none at all). */
export function scaled(ms: number, speed: number): number {
  return speed <= 0 ? 0 : ms / speed;
}
