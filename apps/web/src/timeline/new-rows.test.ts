import { describe, expect, it } from 'vitest';
import { nextBaseline, type NewRowsBaseline } from './new-rows.js';

const local: NewRowsBaseline = { key: '\n', windowed: false, total: 0 };

describe('the "N new" count of a windowed list', () => {
  it('keeps the rows counted as new when the capture outgrows the browser while not following', () => {
    // 10 rows arrived since following stopped; the list held whole (16,676 rows) becomes the window.
    const now = { key: '\nstatus:err', windowed: true, total: 16_676 };
    const base = nextBaseline(local, now, false, () => 10);
    expect(now.total - base.total).toBe(10);
    // Under the same filter text too (the key did not change).
    const same = nextBaseline(local, { ...now, key: '\n' }, false, () => 10);
    expect(now.total - same.total).toBe(10);
  });

  it('starts again from the list\'s length for another filter, and follows it while following', () => {
    const shown: NewRowsBaseline = { key: '\nstatus:err', windowed: true, total: 500 };
    expect(nextBaseline(shown, { key: '\n', windowed: true, total: 9_000 }, false, () => 0).total).toBe(9_000);
    expect(nextBaseline(shown, { ...shown, total: 520 }, false, () => 0).total).toBe(500);
    expect(nextBaseline(shown, { ...shown, total: 520 }, true, () => 0).total).toBe(520);
  });
});
