/**
 * Evaluates a filter against door records (HTTP requests at the tap), with the same grammar and
 * field registry as exchanges: each field's `compileDoor` decides, a field without one matches no
 * door record, and free text looks at the method, path, status, User-Agent, note and bodies.
 */
import type { DoorRecord } from '../door/door-record.js';
import { fieldSpec, type DoorPredicate } from './fields.js';
import type { Filter } from './types.js';

export function compileDoorFilter(filter: Filter | null): DoorPredicate {
  if (filter === null) return () => true;
  return compile(filter);
}

function compile(filter: Filter): DoorPredicate {
  switch (filter.type) {
    case 'and': {
      const parts = filter.items.map(compile);
      return (r) => parts.every((p) => p(r));
    }
    case 'or': {
      const parts = filter.items.map(compile);
      return (r) => parts.some((p) => p(r));
    }
    case 'not': {
      const inner = compile(filter.item);
      return (r) => !inner(r);
    }
    case 'field': {
      const spec = fieldSpec(filter.field);
      return spec?.compileDoor ? spec.compileDoor(filter.op, filter.value) : () => false;
    }
    case 'text': {
      const needle = filter.value.toLowerCase();
      return (r) => doorText(r).some((t) => t.toLowerCase().includes(needle));
    }
  }
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
