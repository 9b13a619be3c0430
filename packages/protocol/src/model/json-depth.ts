/**
 * JSON that is deeper than a call stack. `JSON.parse` accepts documents nested 100,000 deep, but
 * `JSON.stringify` and every recursive walk overflow the stack at a few thousand levels. These
 * helpers use their own stack, so code that must never fail on traffic (redacted exports, the
 * capture store) can measure and serialise such values.
 */

/** True when `value` nests arrays/objects more than `limit` levels deep. Stops at the limit. */
export function deeperThan(value: unknown, limit: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

/**
 * `JSON.stringify(value)`, for values of any depth: the native serialiser first (fast), and when
 * it overflows the stack, an iterative one that writes the same text (key order, `undefined`
 * members skipped, `undefined` in arrays as `null`, as the native one does for plain data).
 */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return stringifyIteratively(value);
  }
}

type Task = { kind: 'text'; text: string } | { kind: 'value'; value: unknown };

/** The stack-free serialiser (exported for its property test). */
export function stringifyIteratively(root: unknown): string {
  const out: string[] = [];
  const tasks: Task[] = [{ kind: 'value', value: root }];
  while (tasks.length > 0) {
    const task = tasks.pop()!;
    if (task.kind === 'text') {
      out.push(task.text);
      continue;
    }
    const v = task.value;
    if (v === null || typeof v !== 'object') {
      const text = JSON.stringify(v) as string | undefined;
      out.push(text === undefined ? 'null' : text);
      continue;
    }
    // Children are pushed in reverse so they pop in order.
    const parts: Task[] = [];
    if (Array.isArray(v)) {
      parts.push({ kind: 'text', text: '[' });
      v.forEach((item, i) => {
        if (i > 0) parts.push({ kind: 'text', text: ',' });
        parts.push({ kind: 'value', value: item });
      });
      parts.push({ kind: 'text', text: ']' });
    } else {
      parts.push({ kind: 'text', text: '{' });
      let first = true;
      for (const [key, item] of Object.entries(v as Record<string, unknown>)) {
        if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
        parts.push({ kind: 'text', text: `${first ? '' : ','}${JSON.stringify(key)}:` });
        parts.push({ kind: 'value', value: item });
        first = false;
      }
      parts.push({ kind: 'text', text: '}' });
    }
    for (let i = parts.length - 1; i >= 0; i--) tasks.push(parts[i]!);
  }
  return out.join('');
}
