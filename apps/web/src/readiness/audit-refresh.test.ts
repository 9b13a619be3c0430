/**
 * The audit's refetching: one request at the start, one per burst of pokes, one more when a
 * poke lands while a request is in flight, none without a poke, none after stop. The schedule is
 * a hand-driven queue, so nothing here waits for time to pass.
 */
import { describe, expect, it } from 'vitest';
import { startAuditRefresh, type Schedule } from './audit-refresh.js';

function harness() {
  const waits: (() => void)[] = [];
  const schedule: Schedule = (run) => {
    waits.push(run);
    return () => waits.splice(waits.indexOf(run), 1);
  };
  const pending: { resolve(v: number): void; reject(e: Error): void; signal: AbortSignal }[] = [];
  const results: number[] = [];
  const errors: string[] = [];
  let loads = 0;
  const refresh = startAuditRefresh<number>({
    load: (signal) => {
      loads++;
      return new Promise((resolve, reject) => pending.push({ resolve, reject, signal }));
    },
    onResult: (v) => results.push(v),
    onError: (e) => errors.push(e.message),
    delayMs: 400,
    schedule,
  });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  const fire = () => waits.shift()!();
  return { refresh, waits, pending, results, errors, loads: () => loads, settle, fire };
}

describe('the audit refresh', () => {
  it('asks once at the start and never again without a poke', async () => {
    const h = harness();
    expect(h.loads()).toBe(1);
    h.pending.shift()!.resolve(1);
    await h.settle();
    expect(h.results).toEqual([1]);
    expect(h.waits).toHaveLength(0);
    expect(h.loads()).toBe(1);
  });

  it('answers a burst of pokes with one request after the delay', async () => {
    const h = harness();
    h.pending.shift()!.resolve(1);
    await h.settle();
    h.refresh.poke();
    h.refresh.poke();
    h.refresh.poke();
    expect(h.waits).toHaveLength(1);
    expect(h.loads()).toBe(1);
    h.fire();
    expect(h.loads()).toBe(2);
    h.pending.shift()!.resolve(2);
    await h.settle();
    expect(h.results).toEqual([1, 2]);
  });

  it('asks once more after a request that a poke arrived during', async () => {
    const h = harness();
    h.refresh.poke();
    h.refresh.poke();
    expect(h.waits).toHaveLength(0);
    h.pending.shift()!.resolve(1);
    await h.settle();
    expect(h.waits).toHaveLength(1);
    h.fire();
    expect(h.loads()).toBe(2);
  });

  it('reports a failure and tries again only on the next poke', async () => {
    const h = harness();
    h.pending.shift()!.reject(new Error('proxy down'));
    await h.settle();
    expect(h.errors).toEqual(['proxy down']);
    expect(h.waits).toHaveLength(0);
    h.refresh.poke();
    h.fire();
    expect(h.loads()).toBe(2);
  });

  it('stops: aborts the request in flight, drops the wait, says nothing more', async () => {
    const h = harness();
    const first = h.pending.shift()!;
    h.refresh.stop();
    expect(first.signal.aborted).toBe(true);
    first.resolve(1);
    h.refresh.poke();
    await h.settle();
    expect(h.results).toEqual([]);
    expect(h.waits).toHaveLength(0);
  });
});
