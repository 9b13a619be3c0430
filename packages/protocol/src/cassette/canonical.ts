/**
 * Canonical JSON: one text per value, whatever order its members were written in, so two
 * requests that mean the same thing compare equal as strings. Members are sorted by key (code
 * unit order), arrays keep their order, numbers print as JSON prints them (`1.0` and `1` are the
 * same number), and `undefined` members are dropped as JSON drops them.
 *
 * What a request *means* for matching leaves out what a client varies from call to call without
 * changing the question: the JSON-RPC `id` (the envelope is never compared) and `params._meta`
 * (progress tokens, the 2026-07-28 protocol envelope, host hints such as locale; the spec
 * reserves `_meta` for metadata, never for a call's arguments).
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../model/json-rpc.js';

/** Canonical text of a JSON value (sorted keys; any depth, no recursion limit). */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const tasks: Array<{ text: string } | { value: unknown }> = [{ value }];
  while (tasks.length > 0) {
    const task = tasks.pop()!;
    if ('text' in task) {
      out.push(task.text);
      continue;
    }
    const v = task.value;
    if (v === null || typeof v !== 'object') {
      out.push(JSON.stringify(v) ?? 'null');
      continue;
    }
    const parts: Array<{ text: string } | { value: unknown }> = [];
    if (Array.isArray(v)) {
      parts.push({ text: '[' });
      v.forEach((item, i) => parts.push(...(i > 0 ? [{ text: ',' }] : []), { value: item === undefined ? null : item }));
      parts.push({ text: ']' });
    } else {
      const keys = Object.keys(v).filter((k) => (v as Record<string, unknown>)[k] !== undefined).sort();
      parts.push({ text: '{' });
      keys.forEach((k, i) => parts.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(k)}:` }, { value: (v as Record<string, unknown>)[k] }));
      parts.push({ text: '}' });
    }
    for (let i = parts.length - 1; i >= 0; i--) tasks.push(parts[i]!);
  }
  return out.join('');
}

/** The params as matching sees them: without `_meta`. */
export function meaningfulParams(params: JsonObject | undefined): JsonObject {
  if (!params) return {};
  if (!('_meta' in params)) return params;
  const { _meta: _ignored, ...rest } = params;
  return rest;
}

/** The key two requests share exactly when they ask the same thing: method + canonical params. */
export function requestKey(method: string, params: JsonObject | undefined): string {
  return `${method} ${canonicalJson(meaningfulParams(params))}`;
}

/** Every leaf of a value with its path, for similarity (`[['name'], 'echo'], [['arguments','a'], 1]`). */
export function leaves(value: JsonValue | undefined, limit = 10_000): Map<string, string> {
  const out = new Map<string, string>();
  const stack: Array<{ path: string; value: JsonValue | undefined }> = [{ path: '', value }];
  while (stack.length > 0 && out.size < limit) {
    const { path, value: v } = stack.pop()!;
    if (Array.isArray(v) && v.length > 0) v.forEach((item, i) => stack.push({ path: `${path}[${i}]`, value: item }));
    else if (isJsonObject(v) && Object.keys(v).length > 0) for (const [k, item] of Object.entries(v)) stack.push({ path: `${path}.${JSON.stringify(k)}`, value: item });
    else out.set(path, canonicalJson(v));
  }
  return out;
}

/**
 * How alike two params are, from 0 (nothing shared) to 1 (the same leaves): shared equal leaves
 * over all distinct leaf paths. Used to rank the nearest captured requests.
 */
export function similarity(a: JsonObject | undefined, b: JsonObject | undefined): number {
  const la = leaves(meaningfulParams(a));
  const lb = leaves(meaningfulParams(b));
  const paths = new Set([...la.keys(), ...lb.keys()]);
  if (paths.size === 0) return 1;
  let same = 0;
  for (const p of paths) if (la.get(p) === lb.get(p)) same++;
  return same / paths.size;
}
