/**
 * Where the timeline's "N new" count starts in a windowed list: the list's length when following
 * stopped (rows after it are new). A new list (another filter) starts again from its length; a
 * capture that outgrew the browser while not following keeps the rows it already counted as new
 * (`heldSince`: the rows of the view held whole captured since following stopped), so the count
 * neither drops to 0 nor jumps to the whole list.
 */
export interface NewRowsBaseline {
  key: string;
  windowed: boolean;
  total: number;
}

export function nextBaseline(prev: NewRowsBaseline, now: NewRowsBaseline, follow: boolean, heldSince: () => number): NewRowsBaseline {
  if (follow) return now;
  if (now.windowed && !prev.windowed) return { ...now, total: Math.max(0, now.total - heldSince()) };
  return prev.key === now.key && prev.windowed === now.windowed ? prev : now;
}
