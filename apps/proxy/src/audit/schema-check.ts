/**
 * The audit's JSON Schema check for structuredContent against a tool's outputSchema, with the
 * same compiler (dialects, budget) the capture uses for tool schemas.
 */
import type { AuditOptions } from '@mcpscope/protocol';
import { ToolSchemaCompiler } from '@mcpscope/protocol/validate';

export function auditSchemaCheck(): NonNullable<AuditOptions['schemaCheck']> {
  const compiler = new ToolSchemaCompiler();
  return (schema, value) => {
    const compiled = compiler.compile(schema);
    if (!compiled.ok) return { ok: false, message: `the outputSchema cannot be used (${compiled.detail})` };
    const issues = compiled.check(value);
    if (issues.length === 0) return { ok: true };
    return { ok: false, message: issues[0]!.message, path: issues[0]!.path };
  };
}
