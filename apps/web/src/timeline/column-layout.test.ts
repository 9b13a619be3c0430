import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { COLUMN_SPECS, layoutColumns, type ColumnId } from './column-layout.js';

const all = new Set(COLUMN_SPECS.map((c) => c.id));
const total = COLUMN_SPECS.reduce((n, c) => n + c.width, 0);

describe('timeline columns', () => {
  it('shows every column in fixed tracks when there is room; only the target and the waterfall stretch', () => {
    const layout = layoutColumns(total + 200, all);
    expect(layout.shown).toEqual(COLUMN_SPECS.map((c) => c.id));
    expect(layout.squeezed).toEqual([]);
    expect(layout.template).toBe('112px 150px 64px 180px minmax(140px, 1fr) 56px 180px 72px 68px 52px minmax(120px, 1fr)');
  });

  it('drops the least important columns first when narrow, keeping method, status and direction', () => {
    const layout = layoutColumns(560, all);
    expect(layout.shown).toEqual(expect.arrayContaining<ColumnId>(['method', 'status', 'direction']));
    expect(layout.squeezed[layout.squeezed.length - 1]).toBe('size');
    expect(layout.minWidth).toBeLessThanOrEqual(560);
    // Display order stays the registry's whatever the priority.
    expect(layout.shown).toEqual(COLUMN_SPECS.map((c) => c.id).filter((id) => layout.shown.includes(id)));
  });

  it('honours chosen columns and dragged widths, never below a column\'s least width', () => {
    const chosen = new Set<ColumnId>(['time', 'method', 'status']);
    const layout = layoutColumns(2000, chosen, { method: 300, time: 5 });
    expect(layout.shown).toEqual(['time', 'method', 'status']);
    expect(layout.template).toBe('60px 300px 180px');
  });

  it('always keeps the method, even when nothing fits', () => {
    expect(layoutColumns(10, new Set()).shown).toEqual(['method']);
  });
});

describe('narrow tables', () => {
  it('narrows method and status to keep the direction rather than drop it (1024 px, detail open)', () => {
    const layout = layoutColumns(414, all);
    expect(layout.shown).toEqual(expect.arrayContaining<ColumnId>(['method', 'status', 'direction']));
    expect(layout.minWidth).toBeLessThanOrEqual(414);
  });
});

describe('column layout properties', () => {
  it('never overflows once the essentials fit at their least widths, and keeps them', () => {
    const essentials = ['method', 'status', 'direction'] as const;
    const least = COLUMN_SPECS.filter((c) => (essentials as readonly string[]).includes(c.id)).reduce((n, c) => n + c.min, 0);
    const ids = COLUMN_SPECS.map((c) => c.id);
    fc.assert(
      fc.property(
        fc.integer({ min: least, max: 3000 }),
        fc.subarray(ids),
        fc.dictionary(fc.constantFrom(...ids), fc.integer({ min: 0, max: 600 })),
        (available, picked, widths) => {
          const chosen = new Set<ColumnId>([...picked, ...essentials]);
          const layout = layoutColumns(available, chosen, widths);
          expect(layout.minWidth).toBeLessThanOrEqual(available);
          for (const id of essentials) expect(layout.shown).toContain(id);
          for (const id of layout.shown) expect(id === 'method' || chosen.has(id)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
