// A list's length at a new head moves by the rows stored since (capture/list-count.ts): exact for a
// list of fields a row never changes; a long list whose rows may change catches up once its
// recount is due; a short one, or one whose oldest row went, is counted whole.
import { describe, expect, it } from 'vitest';
import { ListCounts, type CountOf } from '../src/capture/list-count.js';

/** Rows by key, each with a field that may change; `counts` tallies how the list was counted. */
function table() {
  const rows = new Map<number, { flag: boolean }>();
  const counts = { whole: 0, after: 0 };
  const last = () => Math.max(0, ...rows.keys());
  const list = (key: string, settled: boolean, keep: (row: { flag: boolean }) => boolean): CountOf => ({
    key,
    settled,
    whole: () => (counts.whole++, { n: [...rows.values()].filter(keep).length, last: last() }),
    after: (from) => (counts.after++, { n: [...rows].filter(([k, r]) => k > from && keep(r)).length, last: last() }),
  });
  return { rows, counts, list, last };
}

describe('list counts', () => {
  it('a settled list adds the rows stored since at each head, never counting it whole again', () => {
    const t = table();
    const counts = new ListCounts(() => 0);
    const every = t.list('all', true, () => true);
    for (let k = 1; k <= 10; k++) t.rows.set(k, { flag: false });
    expect(counts.count(every, 10, 1)).toBe(10);
    for (let head = 11; head <= 30; head++) {
      t.rows.set(head, { flag: false });
      expect(counts.count(every, head, 1)).toBe(head);
    }
    expect(t.counts).toEqual({ whole: 1, after: 20 });
  });

  it('a long list whose rows change adds new rows until its recount is due, then is exact; a short one is counted whole', () => {
    const t = table();
    const clock = { ms: 0 };
    const flagged = (rows: number) => new ListCounts(() => clock.ms, rows);
    const long = flagged(0);
    const short = flagged(1000);
    const list = t.list('flagged', false, (r) => r.flag);
    for (let k = 1; k <= 10; k++) t.rows.set(k, { flag: k % 2 === 0 });
    expect(long.count(list, 10, 1)).toBe(5);
    expect(short.count(list, 10, 1)).toBe(5);
    // Row 1 changes and row 11 arrives flagged: the long list sees only the new row.
    t.rows.get(1)!.flag = true;
    t.rows.set(11, { flag: true });
    expect(short.count(list, 11, 1)).toBe(7);
    expect(long.count(list, 11, 1)).toBe(6);
    // No new head, but the recount is due: the long list is exact again.
    clock.ms += 60_000;
    expect(long.count(list, 11, 1)).toBe(7);
  });

  it('a list whose oldest row went is counted whole', () => {
    const t = table();
    const counts = new ListCounts(() => 0);
    const every = t.list('all', true, () => true);
    for (let k = 1; k <= 5; k++) t.rows.set(k, { flag: false });
    expect(counts.count(every, 5, 1)).toBe(5);
    t.rows.delete(1);
    t.rows.delete(2);
    t.rows.set(6, { flag: false });
    expect(counts.count(every, 6, 3)).toBe(4);
    expect(t.counts.whole).toBe(2);
  });
});
