/**
 * Lints for the mistakes people really make with MCP (tutorial field names, notifications with
 * ids, results sent as notifications…) and hints where protocol errors and business errors look
 * confused. Each says what is wrong and how to fix it.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../model/json-rpc.js';
import { joinPath } from '../model/json-path.js';
import { type Finding, type ItemContext } from './item-context.js';

const STANDARD_REQUEST_ERRORS = new Set([-32700, -32600, -32601, -32602]);
/** Text of an isError result that reads like a failure of the request itself. */
const PROTOCOL_LIKE = /MCP error -32\d{3}|\btool\b.*\bnot found\b|\bunknown tool\b|\binvalid (params|arguments)\b|\bmethod not found\b/i;

export function lintFindings(ctx: ItemContext): Finding[] {
  const { item } = ctx;
  const out: Finding[] = [];
  const p = (path: string) => joinPath(ctx.base, path);
  if (item.kind === 'invalid') {
    const v = (item as { value?: JsonValue }).value;
    if (isJsonObject(v) && 'result' in v && 'error' in v) {
      out.push({ code: 'result-and-error', severity: 'error', path: p('$'), message: 'This response carries both "result" and "error". A response has exactly one of them: send the error alone when the request failed.' });
    }
    return out;
  }
  if (item.kind === 'request') {
    const params = item.params ?? {};
    if (item.method.startsWith('notifications/')) {
      out.push({ code: 'notification-with-id', severity: 'warning', path: p('$.id'), message: `"${item.method}" is a notification but carries an id, which makes it a request that waits for an answer that will never come. Remove the id.` });
    }
    if (item.method === 'tools/call') out.push(...toolCallFields(params, p));
    if (/^resources\/(read|subscribe|unsubscribe)$/.test(item.method) && 'resourceId' in params && !('uri' in params)) {
      out.push({ code: 'resource-id-instead-of-uri', severity: 'error', path: p('$.params.resourceId'), message: `${item.method} takes the resource as params.uri; "resourceId" is not an MCP field. Rename it to "uri".` });
    }
    if ('progressToken' in params && !(isJsonObject(params._meta) && 'progressToken' in params._meta)) {
      out.push({ code: 'progress-token-misplaced', severity: 'warning', path: p('$.params.progressToken'), message: 'progressToken belongs in params._meta.progressToken; at params.progressToken no progress notifications will be linked to this request.' });
    }
  }
  if (item.kind === 'notification' && looksLikeToolResult(item.method, item.params)) {
    out.push({ code: 'tool-result-as-notification', severity: 'warning', path: p('$'), message: 'This notification carries what looks like a tool result. The result of tools/call must be the JSON-RPC response to that request (same id), not a notification.' });
  }
  if (ctx.request?.method === 'tools/call') out.push(...errorKindHints(ctx, p));
  return out;
}

function toolCallFields(params: JsonObject, p: (path: string) => string): Finding[] {
  const out: Finding[] = [];
  for (const wrong of ['tool', 'toolName', 'tool_name']) {
    if (wrong in params && !('name' in params)) {
      out.push({ code: 'tool-call-wrong-field', severity: 'error', path: p(`$.params.${wrong}`), message: `tools/call names the tool in params.name, not params.${wrong}. Rename the field.` });
    }
  }
  for (const wrong of ['args', 'input', 'parameters']) {
    if (wrong in params && !('arguments' in params)) {
      out.push({ code: 'tool-call-wrong-field', severity: 'error', path: p(`$.params.${wrong}`), message: `tools/call passes the tool's input as params.arguments, not params.${wrong}. Rename the field.` });
    }
  }
  return out;
}

function looksLikeToolResult(method: string, params: JsonObject | undefined): boolean {
  if (/^(notifications\/)?tools\/(call|result)/.test(method) || /tool.?result/i.test(method)) return true;
  return !!params && (Array.isArray(params.content) || 'structuredContent' in params || typeof params.isError === 'boolean');
}

function errorKindHints(ctx: ItemContext, p: (path: string) => string): Finding[] {
  const { item } = ctx;
  if (item.kind === 'response' && item.result.isError === true) {
    const text = firstText(item.result.content);
    if (text && PROTOCOL_LIKE.test(text)) {
      return [{ code: 'is-error-looks-like-protocol-error', severity: 'info', path: p('$.result.isError'), message: `This tool error (isError: true) reads like a failure of the request itself ("${text.slice(0, 80)}"): unknown tool or bad arguments. SDKs report those as tool errors on purpose; check the request, not the tool.` }];
    }
  }
  if (item.kind === 'error' && !STANDARD_REQUEST_ERRORS.has(item.error.code)) {
    return [{ code: 'protocol-error-looks-like-business', severity: 'info', path: p('$.error'), message: `tools/call failed with JSON-RPC error ${item.error.code}. When the tool ran and failed, return a result with isError: true so the model can read the failure and recover; JSON-RPC errors are for requests that are themselves wrong.` }];
  }
  return [];
}

function firstText(content: JsonValue | undefined): string | undefined {
  if (!Array.isArray(content)) return undefined;
  for (const block of content) if (isJsonObject(block) && typeof block.text === 'string') return block.text;
  return undefined;
}
