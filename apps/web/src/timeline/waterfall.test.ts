import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { waterfallBar, waterfallScale } from './waterfall.js';

const row = (startTs: number, endTs?: number, more: { progressAt?: number[]; kind?: 'request' | 'notification'; status?: 'ok' | 'pending' } = {}) => ({
  kind: more.kind ?? 'request',
  status: more.status ?? (endTs === undefined ? 'pending' : 'ok'),
  startTs,
  ...(endTs === undefined ? {} : { endTs }),
  ...(more.progressAt ? { progressAt: more.progressAt } : {}),
});

describe('waterfall', () => {
  it('draws rows that ran at once side by side, with progress ticks inside the bar', () => {
    const rows = [row(1000, 2000, { progressAt: [500] }), row(1500, 3000), row(2500, undefined)];
    const scale = waterfallScale(rows)!;
    expect(scale).toEqual({ t0: 1000, t1: 3000 });
    expect(waterfallBar(rows[0]!, scale)).toMatchObject({ left: 0, width: 50, ticks: [25], open: false });
    expect(waterfallBar(rows[1]!, scale)).toMatchObject({ left: 25, width: 75 });
    // Pending: open to the scale's end, never to the wall clock.
    expect(waterfallBar(rows[2]!, scale)).toMatchObject({ left: 75, width: 25, open: true });
  });

  it('keeps every bar and tick within the column, whatever the rows', () => {
    const arb = fc.record({ startTs: fc.nat(10_000), length: fc.option(fc.nat(5_000), { nil: undefined }), progress: fc.array(fc.nat(6_000), { maxLength: 4 }) });
    fc.assert(
      fc.property(fc.array(arb, { minLength: 1, maxLength: 20 }), (specs) => {
        const rows = specs.map((s) => row(s.startTs, s.length === undefined ? undefined : s.startTs + s.length, { progressAt: s.progress }));
        const scale = waterfallScale(rows)!;
        for (const r of rows) {
          const bar = waterfallBar(r, scale);
          expect(bar.left).toBeGreaterThanOrEqual(0);
          expect(bar.width).toBeGreaterThanOrEqual(0);
          expect(bar.left + bar.width).toBeLessThanOrEqual(100.000001);
          for (const t of bar.ticks) expect(t >= bar.left - 1e-9 && t <= bar.left + bar.width + 1e-9).toBe(true);
        }
      }),
    );
  });
});
