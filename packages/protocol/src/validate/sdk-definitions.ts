/**
 * Schema definitions taken from the MCP SDK's published zod schemas (@modelcontextprotocol/sdk
 * types.js), turned into JSON Schema with zod's own converter and normalised to the strictness
 * of the official schema.json: the SDK's zod is stricter in places (strict envelopes, date-time
 * patterns, safe-integer bounds) and looser in others (defaults such as `content: []` make a
 * required field optional). The per-revision differences are layered on top in overlays.ts.
 */
import * as sdk from '@modelcontextprotocol/sdk/types.js';
import { toJSONSchema, type ZodType } from 'zod/v4';

export type JsonSchema = { [key: string]: unknown };

const cache = new Map<string, JsonSchema | null>();

/** The SDK's schema for definition `name` (`CallToolResult` → `CallToolResultSchema`), normalised. */
export function sdkDefinition(name: string): JsonSchema | undefined {
  if (!cache.has(name)) cache.set(name, convert(name));
  return cache.get(name) ?? undefined;
}

function convert(name: string): JsonSchema | null {
  const zodSchema = (sdk as Record<string, unknown>)[`${name}Schema`] as ZodType | undefined;
  if (!zodSchema || typeof zodSchema !== 'object') return null;
  try {
    const json = toJSONSchema(zodSchema, {
      io: 'input',
      unrepresentable: 'any',
      reused: 'inline',
      cycles: 'ref',
      // The SDK's only custom check asserts "a JSON object" (capabilities, schema properties).
      override: (ctx) => {
        if ((ctx.zodSchema as { _zod?: { def?: { type?: string } } })._zod?.def?.type === 'custom') ctx.jsonSchema.type = 'object';
      },
    }) as JsonSchema;
    return normalize(json) as JsonSchema;
  } catch {
    return null;
  }
}

/** Whether the SDK's own zod schema for `name` accepts `value` (undefined when it has none). */
export function sdkAccepts(name: string, value: unknown): boolean | undefined {
  const zodSchema = (sdk as Record<string, unknown>)[`${name}Schema`] as { safeParse?: (v: unknown) => { success: boolean } } | undefined;
  if (typeof zodSchema?.safeParse !== 'function') return undefined;
  return zodSchema.safeParse(value).success;
}

const SAFE = Number.MAX_SAFE_INTEGER;
const DROPPED = new Set(['$schema', 'default', 'format', 'pattern', 'propertyNames', 'exclusiveMinimum', 'exclusiveMaximum']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);
const SCHEMA_LISTS = new Set(['anyOf', 'allOf', 'oneOf', 'prefixItems']);
const SCHEMA_VALUES = new Set(['items', 'additionalProperties', 'not', 'contains', 'if', 'then', 'else']);

/** Formats the official schemas put on properties, by property name (uri-ish strings). */
const FORMAT_BY_PROPERTY: Record<string, string> = { uri: 'uri', uriTemplate: 'uri-template', url: 'uri', websiteUrl: 'uri', src: 'uri' };

/** Removes what the official schema does not say (see the module comment). Walks schema positions only. */
export function normalize(node: unknown): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node as JsonSchema)) {
    if (DROPPED.has(key)) continue;
    if (key === 'additionalProperties' && value === false) continue;
    if ((key === 'minimum' && value === -SAFE) || (key === 'maximum' && value === SAFE)) continue;
    if (SCHEMA_MAPS.has(key) && value && typeof value === 'object') {
      const map: JsonSchema = {};
      for (const [name, sub] of Object.entries(value as JsonSchema)) {
        const n = normalize(sub) as JsonSchema;
        const format = key === 'properties' && Object.hasOwn(FORMAT_BY_PROPERTY, name) ? FORMAT_BY_PROPERTY[name] : undefined;
        map[name] = format && n.type === 'string' ? { ...n, format } : n;
      }
      out[key] = map;
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map(normalize);
    } else if (SCHEMA_VALUES.has(key)) {
      out[key] = normalize(value);
    } else {
      out[key] = value;
    }
  }
  return out;
}
