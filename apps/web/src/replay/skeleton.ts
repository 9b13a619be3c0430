/**
 * A valid starting point from a JSON Schema: required properties filled with their default,
 * first enum value, or the simplest value of their type. Used by the tool picker to write a
 * `tools/call` whose arguments already pass the tool's inputSchema.
 */

type Schema = { [key: string]: unknown };

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

export function skeletonOf(schema: unknown, depth = 0): unknown {
  if (!isSchema(schema) || depth > 8) return null;
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return skeletonOf(options[0], depth + 1);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = isSchema(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
      for (const name of required) out[name] = skeletonOf(properties[name], depth + 1);
      return out;
    }
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return Array.from({ length: Math.min(min, 3) }, () => skeletonOf(schema.items, depth + 1));
    }
    case 'string':
      return typeof schema.minLength === 'number' && schema.minLength > 0 ? 'x'.repeat(schema.minLength) : '';
    case 'integer':
    case 'number': {
      if (typeof schema.minimum === 'number') return schema.minimum;
      if (typeof schema.exclusiveMinimum === 'number') return type === 'integer' ? Math.floor(schema.exclusiveMinimum) + 1 : schema.exclusiveMinimum + 1;
      return 0;
    }
    case 'boolean':
      return false;
    default:
      return isSchema(schema.properties) ? skeletonOf({ ...schema, type: 'object' }, depth) : null;
  }
}

/** A whole `tools/call` message for a tool from `tools/list`. */
export function toolCallSkeleton(tool: { name?: unknown; inputSchema?: unknown }, id: string | number = 1): string {
  const message = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool.name, arguments: skeletonOf(tool.inputSchema) ?? {} } };
  return JSON.stringify(message, null, 2);
}
