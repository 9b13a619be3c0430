/**
 * Evaluates a filter against door records (HTTP requests at the tap), with the same grammar and
 * field registry as exchanges: each field's `compileDoor` decides, a field without one matches no
 * door record, and free text looks at the method, path, status, User-Agent, note and bodies.
 */
import type { DoorRecord } from '../door/door-record.js';
import { fieldSpec, type DoorPredicate } from './fields.js';
import { compileTree } from './match.js';
import type { Filter, FilterField } from './types.js';

export function compileDoorFilter(filter: Filter | null): DoorPredicate {
  if (filter === null) return () => true;
  const predicate = compileTree<DoorRecord, undefined>(
    filter,
    (term) => fieldSpec(term.field)?.compileDoor?.(term.op, term.value) ?? (() => false),
    (value) => {
      const needle = value.toLowerCase();
      return (r) => doorText(r).some((t) => t.toLowerCase().includes(needle));
    },
  );
  return (r) => predicate(r, undefined);
}

/**
 * The fields of a filter that door records cannot answer (they belong to exchanges: `method:`,
 * `tool:`, `status:` …), in order of first use; empty when every term applies to requests.
 */
export function fieldsDoorCannotMatch(filter: Filter | null): FilterField[] {
  const out = new Set<FilterField>();
  const stack: Filter[] = filter ? [filter] : [];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (f.type === 'field' && !fieldSpec(f.field)?.compileDoor) out.add(f.field);
    else if (f.type === 'not') stack.push(f.item);
    else if (f.type === 'and' || f.type === 'or') stack.push(...[...f.items].reverse());
  }
  return [...out];
}

/** What free text searches in a door record, each part on its own (no match across parts). */
export function doorText(r: DoorRecord): string[] {
  const out = [r.method, r.path];
  if (r.status !== undefined) out.push(String(r.status));
  if (r.userAgent !== undefined) out.push(r.userAgent);
  if (r.note !== undefined) out.push(r.note);
  if (r.requestBody) out.push(r.requestBody.text);
  if (r.responseBody) out.push(r.responseBody.text);
  return out;
}
