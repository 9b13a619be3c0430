/**
 * A small JSON Schema checker for tool arguments (`inputSchema`) and `structuredContent`
 * (`outputSchema`), covering the keywords tool schemas use in practice: type, properties,
 * required, additionalProperties, items, enum, const, bounds, lengths, pattern, anyOf/oneOf/allOf.
 *
 * Why not ajv: ajv compiles schemas with `new Function`, which the dashboard's CSP
 * (script-src 'self', no unsafe-eval) forbids, and that CSP is what keeps captured content from
 * ever running. Keywords it does not know (e.g. `$ref`) are reported as unchecked, never guessed.
 */
import { childPath } from '@mcpscope/protocol';

export interface Violation {
  path: string;
  message: string;
}

export interface SchemaCheck {
  violations: Violation[];
  /** Keywords present in the schema that this checker does not evaluate. */
  unchecked: string[];
}

type Schema = Record<string, unknown>;

const KNOWN = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum',
  'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'anyOf', 'oneOf', 'allOf', 'title', 'description',
  'default', 'examples', '$schema', 'format', 'annotations', 'uniqueItems', 'deprecated', 'readOnly', 'writeOnly', '$id', '$comment',
]);

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function typeMatches(expected: string, v: unknown): boolean {
  switch (expected) {
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    default:
      return typeOf(v) === expected;
  }
}

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

export function checkSchema(schema: unknown, value: unknown, rootPath = '$'): SchemaCheck {
  const violations: Violation[] = [];
  const unchecked = new Set<string>();
  collectUnknown(schema, unchecked, 0);
  walk(schema, value, rootPath, violations, unchecked);
  return { violations, unchecked: [...unchecked] };
}

/** Keywords anywhere in the schema that the checker does not evaluate (depth-bounded). */
function collectUnknown(schema: unknown, into: Set<string>, depth: number): void {
  if (!isSchema(schema) || depth > 32) return;
  for (const key of Object.keys(schema)) if (!KNOWN.has(key)) into.add(key);
  const subs: unknown[] = [schema.items, schema.additionalProperties];
  if (isSchema(schema.properties)) subs.push(...Object.values(schema.properties));
  for (const k of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(schema[k])) subs.push(...(schema[k] as unknown[]));
  for (const sub of subs) collectUnknown(sub, into, depth + 1);
}

function walk(schema: unknown, v: unknown, path: string, out: Violation[], unchecked: Set<string>): void {
  if (schema === false) {
    out.push({ path, message: 'not allowed here' });
    return;
  }
  if (!isSchema(schema)) return;

  const type = schema.type;
  if (type !== undefined) {
    const types = Array.isArray(type) ? (type as string[]) : [type as string];
    if (!types.some((t) => typeMatches(t, v))) {
      out.push({ path, message: `expected ${types.join(' or ')}, got ${typeOf(v)}` });
      return;
    }
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) {
    out.push({ path, message: `must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}` });
  }
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(v)) out.push({ path, message: `must be ${JSON.stringify(schema.const)}` });

  if (typeof v === 'number') {
    const n = (k: string) => (typeof schema[k] === 'number' ? (schema[k] as number) : undefined);
    const min = n('minimum'), max = n('maximum'), xmin = n('exclusiveMinimum'), xmax = n('exclusiveMaximum');
    if (min !== undefined && v < min) out.push({ path, message: `must be ≥ ${min}` });
    if (max !== undefined && v > max) out.push({ path, message: `must be ≤ ${max}` });
    if (xmin !== undefined && v <= xmin) out.push({ path, message: `must be > ${xmin}` });
    if (xmax !== undefined && v >= xmax) out.push({ path, message: `must be < ${xmax}` });
  }
  if (typeof v === 'string') {
    if (typeof schema.minLength === 'number' && v.length < schema.minLength) out.push({ path, message: `must have at least ${schema.minLength} characters` });
    if (typeof schema.maxLength === 'number' && v.length > schema.maxLength) out.push({ path, message: `must have at most ${schema.maxLength} characters` });
    if (typeof schema.pattern === 'string') {
      let re: RegExp | undefined;
      try {
        re = new RegExp(schema.pattern, 'u');
      } catch {
        unchecked.add('pattern');
      }
      if (re && !re.test(v)) out.push({ path, message: `must match /${schema.pattern}/` });
    }
  }
  if (Array.isArray(v)) {
    if (typeof schema.minItems === 'number' && v.length < schema.minItems) out.push({ path, message: `must have at least ${schema.minItems} items` });
    if (typeof schema.maxItems === 'number' && v.length > schema.maxItems) out.push({ path, message: `must have at most ${schema.maxItems} items` });
    if (isSchema(schema.items) || typeof schema.items === 'boolean') v.forEach((item, i) => walk(schema.items, item, childPath(path, i), out, unchecked));
  }
  if (isSchema(v) && typeOf(v) === 'object') {
    const props = isSchema(schema.properties) ? schema.properties : {};
    if (Array.isArray(schema.required)) {
      for (const key of schema.required as string[]) if (!(key in v)) out.push({ path, message: `missing required property "${key}"` });
    }
    for (const [key, child] of Object.entries(v)) {
      if (key in props) walk(props[key], child, childPath(path, key), out, unchecked);
      else if (schema.additionalProperties === false) out.push({ path: childPath(path, key), message: `unexpected property "${key}" (additionalProperties is false)` });
      else if (isSchema(schema.additionalProperties)) walk(schema.additionalProperties, child, childPath(path, key), out, unchecked);
    }
  }
  if (Array.isArray(schema.allOf)) for (const s of schema.allOf) walk(s, v, path, out, unchecked);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (!Array.isArray(options)) continue;
    const passing = options.filter((s) => {
      const sub: Violation[] = [];
      walk(s, v, path, sub, unchecked);
      return sub.length === 0;
    }).length;
    if (key === 'anyOf' && passing === 0) out.push({ path, message: 'matches none of the allowed shapes (anyOf)' });
    if (key === 'oneOf' && passing !== 1) out.push({ path, message: `must match exactly one shape (oneOf), matches ${passing}` });
  }
}
