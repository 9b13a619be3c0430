/**
 * Where the timeline's columns go: fixed tracks (a long target never pushes Id or Status along),
 * and, when the table is narrow (a 1024 px window, the detail pane open), the columns that fit
 * in priority order: what a row is and how it ended first, bookkeeping last. Pure, so the rule
 * is tested without a browser; Timeline.tsx measures the width and column-prefs.ts remembers
 * the user's choices.
 */

export type ColumnId = 'time' | 'session' | 'direction' | 'method' | 'target' | 'id' | 'status' | 'latency' | 'size' | 'diagnostics' | 'waterfall';

export interface ColumnSpec {
  id: ColumnId;
  label: string;
  /** Width in px (for the target column, its least width: it takes the room left). */
  width: number;
  /** Least width a drag may set. */
  min: number;
  /** 0 is kept longest when room runs out. */
  priority: number;
  /** Says what the column shows, in the chooser. */
  help: string;
}

/** In display order. Direction ranks high: without it a server's request reads as a client's. */
export const COLUMN_SPECS: readonly ColumnSpec[] = [
  { id: 'time', label: 'Time', width: 112, min: 60, priority: 5, help: 'When the exchange started' },
  { id: 'session', label: 'Session', width: 150, min: 60, priority: 8, help: 'Client name and session key' },
  { id: 'direction', label: 'Dir', width: 64, min: 56, priority: 2, help: 'Who sent it: C → S or S → C' },
  { id: 'method', label: 'Method', width: 180, min: 96, priority: 0, help: 'The JSON-RPC method' },
  { id: 'target', label: 'Target', width: 140, min: 60, priority: 3, help: 'Tool, resource or prompt' },
  { id: 'id', label: 'Id', width: 56, min: 32, priority: 6, help: 'The JSON-RPC id' },
  { id: 'status', label: 'Status', width: 180, min: 80, priority: 1, help: 'How it ended' },
  { id: 'latency', label: 'Latency', width: 72, min: 48, priority: 4, help: 'Request to answer' },
  { id: 'size', label: 'Size', width: 68, min: 44, priority: 9, help: 'Bytes of all its frames' },
  { id: 'diagnostics', label: 'Diag', width: 52, min: 36, priority: 7, help: 'Findings (△ N: N diagnostics)' },
  // Stretches like the target; left out before Size when room runs short (the latency stays).
  { id: 'waterfall', label: 'Waterfall', width: 120, min: 80, priority: 8.5, help: 'Timing across the rows in view: a bar from request to answer, ticks for progress; bars side by side ran at once' },
];

/** Columns whose track takes a share of the room left (at least their width). */
const STRETCHES: ReadonlySet<ColumnId> = new Set(['target', 'waterfall']);

export const specOf = (id: ColumnId): ColumnSpec => COLUMN_SPECS.find((c) => c.id === id)!;

/**
 * Columns up to this priority (method, status, direction, target) narrow the others rather than
 * go: without the target, every tools/call row reads the same beside an open widget preview.
 */
const ESSENTIAL = 3;

export interface ColumnLayout {
  /** Shown columns, in display order. */
  shown: ColumnId[];
  /** Chosen columns left out for want of room, highest priority first. */
  squeezed: ColumnId[];
  /** The CSS grid-template-columns value. */
  template: string;
  /** Least total width of the shown columns. */
  minWidth: number;
}

/**
 * The columns of `chosen` that fit in `available` px, taken by priority (the method always, so
 * a row never renders empty), with `widths` overriding the defaults. The essential columns
 * narrow the ones already placed rather than be left out.
 */
export function layoutColumns(available: number, chosen: ReadonlySet<ColumnId>, widths: Partial<Record<ColumnId, number>> = {}): ColumnLayout {
  const preferred = (id: ColumnId) => Math.max(specOf(id).min, widths[id] ?? specOf(id).width);
  const byPriority = COLUMN_SPECS.filter((c) => chosen.has(c.id) || c.id === 'method').sort((a, b) => a.priority - b.priority);
  const kept = new Map<ColumnId, number>();
  const squeezed: ColumnId[] = [];
  let used = 0;
  for (const spec of byPriority) {
    const need = preferred(spec.id);
    if (kept.size === 0 || used + need <= available) {
      kept.set(spec.id, need);
      used += need;
      continue;
    }
    // An essential column makes room by narrowing those kept (to their least widths), itself too.
    const slack = [...kept].reduce((n, [id, w]) => n + w - specOf(id).min, 0) + need - spec.min;
    if (spec.priority <= ESSENTIAL && used + need - slack <= available) {
      kept.set(spec.id, need);
      used += need;
      const factor = (used - available) / slack;
      for (const [id, w] of kept) {
        const narrowed = Math.floor(w - (w - specOf(id).min) * factor);
        used -= w - narrowed;
        kept.set(id, narrowed);
      }
      continue;
    }
    squeezed.push(spec.id);
  }
  const shown = COLUMN_SPECS.filter((c) => kept.has(c.id)).map((c) => c.id);
  const template = shown.map((id) => (STRETCHES.has(id) ? `minmax(${kept.get(id)}px, 1fr)` : `${kept.get(id)}px`)).join(' ');
  return { shown, squeezed, template, minWidth: used };
}
