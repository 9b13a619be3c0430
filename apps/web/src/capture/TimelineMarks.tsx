/**
 * The capture's marks drawn across the timeline: a line between the rows stored before a mark and
 * those after, with its label (the user's words, or the pause and its end). An overlay, not rows:
 * the view index and the fixed row height stay as they are, and each render costs one binary
 * search per mark (marks are clicks, so few). Marks inside the cleared part stay hidden with it.
 * A line after the newest row puts its labels under the line, in the room the timeline keeps
 * below its rows (MARK_ROOM), so they never cover that row.
 */
import type { CaptureMark } from '@mcpscope/protocol';
import { lowerBound } from '../store/exchange-index.js';
import { useUi } from '../store/ui-store.js';
import { useCapture } from './capture-state.js';

const ICON: Record<CaptureMark['kind'], string> = { mark: '▸', pause: '‖', resume: '▶' };

const clock = (ts: number) => new Date(ts).toLocaleTimeString();

/** Pixels the timeline keeps under its last row for the labels of a line drawn there. */
export const MARK_ROOM = 20;

interface Props {
  first: number;
  last: number;
  /** The rows held, in list order: the whole view, or a window of it starting at position `base`. */
  ids: readonly string[];
  base: number;
  /** Length of the list. */
  size: number;
  /** Where the row at a position is drawn (the timeline's scaled scroll). */
  top(position: number): number;
}

export function TimelineMarks({ first, last, ids, base, size, top }: Props) {
  const marks = useCapture((s) => s.marks);
  const since = useUi((s) => s.since);
  // No tick subscription of its own: the Timeline re-renders it on every batch.
  // Marks at one place (a pause, then its resume with nothing stored between) share one line.
  const lines = new Map<number, CaptureMark[]>();
  for (const m of marks) {
    if (since !== undefined && m.afterSeq < since) continue;
    const inHeld = lowerBound(ids, m.afterSeq + 1);
    // At an edge of a window the mark may lie anywhere beyond it: drawn only where it is known.
    if ((inHeld === 0 && base > 0) || (inHeld === ids.length && base + ids.length < size)) continue;
    const at = base + inHeld;
    if (at < first - 1 || at > last + 2) continue;
    lines.set(at, [...(lines.get(at) ?? []), m]);
  }
  return (
    <>
      {[...lines].map(([at, group]) => (
        <div key={group[0]!.id} className={`timeline-mark mark-${group[group.length - 1]!.kind}${at >= size ? ' at-end' : ''}`} role="separator" data-testid="timeline-mark" data-kinds={group.map((m) => m.kind).join(' ')} style={{ transform: `translateY(${top(at)}px)` }}>
          {group.map((m) => (
            <span key={m.id} className={`timeline-mark-label mark-${m.kind}`} data-testid="timeline-mark-label" data-kind={m.kind} title={`${clock(m.ts)}: ${m.label}`}>
              {ICON[m.kind]} {m.label} <span className="timeline-mark-time">{clock(m.ts)}</span>
            </span>
          ))}
        </div>
      ))}
    </>
  );
}
