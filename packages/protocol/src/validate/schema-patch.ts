/**
 * A few small edits on JSON Schema objects, used to layer mcpscope's per-revision rules over the
 * SDK-derived definitions. Each edit returns a new schema; nothing is mutated in place.
 */
import type { JsonSchema } from './sdk-definitions.js';

/** `{ $mcpRef: 'Name' }` stands for another definition of the same revision, inlined on resolve. */
export const ref = (name: string): JsonSchema => ({ $mcpRef: name });

export const str: JsonSchema = { type: 'string' };
export const bool: JsonSchema = { type: 'boolean' };
export const int: JsonSchema = { type: 'integer' };
export const obj = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
});
export const requestId: JsonSchema = { type: ['string', 'integer'] };

function clone(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema)) as JsonSchema;
}

/** Walks `path` through `properties` (or the first object branch of an allOf) to the target. */
function at(schema: JsonSchema, path: readonly string[]): JsonSchema {
  let node = schema;
  for (const key of path) {
    const props = node.properties as Record<string, JsonSchema> | undefined;
    if (!props) throw new Error(`schema-patch: no properties on the way to ${path.join('.')}`);
    if (!props[key]) props[key] = { type: 'object' };
    node = props[key]!;
  }
  return node;
}

/** Sets (adds or replaces) properties of the object at `path`. */
export function setProps(schema: JsonSchema, path: readonly string[], props: Record<string, JsonSchema>): JsonSchema {
  const out = clone(schema);
  const node = at(out, path);
  if (node.type === undefined) node.type = 'object';
  node.properties = { ...((node.properties as object) ?? {}), ...props };
  return out;
}

/** Marks properties of the object at `path` as required (creating them as `{}` when absent). */
export function requireProps(schema: JsonSchema, path: readonly string[], names: readonly string[]): JsonSchema {
  const out = clone(schema);
  const node = at(out, path);
  const required = new Set<string>((node.required as string[]) ?? []);
  for (const n of names) required.add(n);
  node.required = [...required];
  const props = (node.properties ?? (node.properties = {})) as Record<string, JsonSchema>;
  for (const n of names) if (!props[n]) props[n] = {};
  return out;
}

/** Drops properties of the object at `path` (the revision does not define them: anything goes). */
export function dropProps(schema: JsonSchema, path: readonly string[], names: readonly string[]): JsonSchema {
  const out = clone(schema);
  const node = at(out, path);
  const props = node.properties as Record<string, JsonSchema> | undefined;
  if (props) for (const n of names) delete props[n];
  node.required = ((node.required as string[]) ?? []).filter((n) => !names.includes(n));
  return out;
}
