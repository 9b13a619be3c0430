/**
 * Resolves a definition name for a revision to a self-contained JSON Schema: mcpscope's own
 * definitions first, else the SDK-derived one with the revision's overlay applied; `$mcpRef`
 * placeholders are inlined. Results are cached per revision and name.
 */
import { overlayFor } from './overlays.js';
import { ownDefinition } from './own-definitions.js';
import { revisionAtLeast, type Revision } from '../revisions/revisions.js';
import { requestId } from './schema-patch.js';
import { sdkDefinition, type JsonSchema } from './sdk-definitions.js';

const cache = new Map<string, JsonSchema | null>();

export function resolveDefinition(rev: Revision, name: string): JsonSchema | undefined {
  const key = `${rev}/${name}`;
  if (!cache.has(key)) cache.set(key, build(rev, name, new Set()) ?? null);
  return cache.get(key) ?? undefined;
}

function build(rev: Revision, name: string, seen: Set<string>): JsonSchema | undefined {
  if (seen.has(name)) return {}; // a cycle: accept anything below this point rather than loop
  let schema = ownDefinition(rev, name);
  if (!schema) {
    const base = sdkDefinition(name);
    if (!base) return undefined;
    const overlay = overlayFor(rev, name);
    schema = withEnvelope(rev, name, overlay ? overlay(base) : base);
  }
  const inner = new Set(seen).add(name);
  return inline(schema, rev, inner) as JsonSchema;
}

/** Requests that 2026-07-28 embeds in inputRequests: they have no envelope there. */
const EMBEDDED_REQUESTS = new Set(['CreateMessageRequest', 'ListRootsRequest', 'ElicitRequest']);

/**
 * From 2025-11-25 a typed request or notification definition includes the JSON-RPC envelope
 * (`jsonrpc`, and `id` for requests); the SDK's method schemas leave it out.
 */
function withEnvelope(rev: Revision, name: string, schema: JsonSchema): JsonSchema {
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (!props?.method || props.method.const === undefined || !revisionAtLeast(rev, '2025-11-25')) return schema;
  if (rev === '2026-07-28' && EMBEDDED_REQUESTS.has(name)) return schema;
  const isRequest = name.endsWith('Request');
  const envelope: Record<string, JsonSchema> = { jsonrpc: { const: '2.0' }, ...(isRequest ? { id: requestId } : {}) };
  const required = new Set([...((schema.required as string[]) ?? []), 'jsonrpc', ...(isRequest ? ['id'] : [])]);
  return { ...schema, properties: { ...props, ...envelope }, required: [...required] };
}

function inline(node: unknown, rev: Revision, seen: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((n) => inline(n, rev, seen));
  if (typeof node !== 'object' || node === null) return node;
  const target = (node as JsonSchema).$mcpRef;
  if (typeof target === 'string') return build(rev, target, seen) ?? {};
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node as JsonSchema)) out[k] = inline(v, rev, seen);
  return out;
}
