/**
 * What a message built in the Drive panel breaks before it is sent: a `tools/call`'s arguments
 * against the tool's `inputSchema`, a `prompts/get`'s against the prompt's arguments, from the
 * session's latest list (the same validator the capture flags tool arguments with). Nothing is
 * checked when the session never listed them; a name the list lacks is itself a violation.
 */
import { isJsonObject, promptArgumentsSchema, type DriveViolation, type JsonObject, type JsonValue } from '@mcpscope/protocol';
import { ToolSchemaCompiler } from '@mcpscope/protocol/validate';

export type Listed = (method: 'tools/list' | 'prompts/list', field: 'tools' | 'prompts') => { exchangeId?: string; items: JsonObject[] };

const KINDS = {
  'tools/call': { list: 'tools/list', field: 'tools', what: 'tool', schema: (item: JsonObject) => (isJsonObject(item.inputSchema) ? item.inputSchema : undefined) },
  'prompts/get': { list: 'prompts/list', field: 'prompts', what: 'prompt', schema: (item: JsonObject) => promptArgumentsSchema(item) },
} as const;

export class DriveCheck {
  private readonly compiler = new ToolSchemaCompiler();

  violations(message: JsonObject, listed: Listed): DriveViolation[] {
    const kind = KINDS[message.method as keyof typeof KINDS];
    if (!kind || !isJsonObject(message.params)) return [];
    const { items, exchangeId } = listed(kind.list, kind.field);
    if (exchangeId === undefined) return [];
    const name = message.params.name;
    const item = items.find((i) => i.name === name);
    if (!item) return [{ path: '$.params.name', message: `no ${kind.what} ${JSON.stringify(name)} in the session's latest ${kind.list} (#${exchangeId})` }];
    const schema = kind.schema(item);
    if (!schema) return [];
    const compiled = this.compiler.compile(schema);
    if (!compiled.ok) return [];
    const args = (message.params.arguments ?? {}) as JsonValue;
    return compiled.check(args).map((issue) => ({ path: `$.params.arguments${issue.path}`, message: issue.message }));
  }
}
