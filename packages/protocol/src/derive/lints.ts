/**
 * Lints for the mistakes people really make with MCP (tutorial field names, notifications with
 * ids, results sent as notifications…) and hints where protocol errors and business errors look
 * confused. Each says what is wrong and how to fix it.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../model/json-rpc.js';
import { METHODS } from '../revisions/revisions.js';
import { joinPath } from '../model/json-path.js';
import { type Finding, type ItemContext } from './item-context.js';
import { unflaggedError } from './unflagged-error.js';

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
    const notification = item.method.startsWith('notifications/');
    if (notification) {
      out.push({ code: 'notification-with-id', severity: 'warning', path: p('$.id'), message: `"${item.method}" is a notification but carries an id, which makes it a request that waits for an answer that will never come. Remove the id.` });
    }
    if (item.method === 'tools/call') out.push(...toolCallFields(params, p));
    if (/^resources\/(read|subscribe|unsubscribe)$/.test(item.method) && 'resourceId' in params && !('uri' in params)) {
      out.push({ code: 'resource-id-instead-of-uri', severity: 'error', path: p('$.params.resourceId'), message: `${item.method} takes the resource as params.uri; "resourceId" is not an MCP field. Rename it to "uri".` });
    }
    // A notification (notifications/progress above all) carries progressToken in params itself.
    if (!notification && 'progressToken' in params && !(isJsonObject(params._meta) && 'progressToken' in params._meta)) {
      out.push({ code: 'progress-token-misplaced', severity: 'warning', path: p('$.params.progressToken'), message: 'progressToken belongs in params._meta.progressToken; at params.progressToken no progress notifications will be linked to this request.' });
    }
  }
  if (item.kind === 'notification') {
    if (Object.hasOwn(METHODS, item.method)) {
      out.push({ code: 'request-without-id', severity: 'error', path: p('$'), message: `"${item.method}" is a request, but this message has no "id", which makes it a notification: the receiver must not answer it, so no reply can ever come. Give it an id (a string or number not in use by another request of yours in flight).` });
    } else if (ctx.namesRequest) {
      out.push(replyAsNotification(item.method, ctx.namesRequest, p));
    } else if (looksLikeToolResult(item.method, item.params)) {
      out.push({ code: 'tool-result-as-notification', severity: 'warning', path: p('$'), message: 'This notification carries what looks like a tool result. The result of tools/call must be the JSON-RPC response to that request (same id), not a notification.' });
    }
  }
  if (ctx.request?.method === 'tools/call') out.push(...errorKindHints(ctx, p));
  else if (ctx.request && !Object.hasOwn(METHODS, ctx.request.method)) out.push(...unknownMethodHints(ctx, p));
  return out;
}

/** Mistake 5: a reply sent as a notification that names the request it answers. */
function replyAsNotification(method: string, namesRequest: NonNullable<ItemContext['namesRequest']>, p: (path: string) => string): Finding {
  return {
    code: 'reply-as-notification',
    severity: 'warning',
    path: p(`$.params.${namesRequest.field}`),
    message: `This notification names ${namesRequest.method} #${namesRequest.exchangeId} (params.${namesRequest.field} is its id) while that request waits for its answer: a reply sent as a notification. Clients ignore notifications they do not know ("${method}"), and ChatGPT ignores server notifications altogether; put this content in the JSON-RPC response to that request (the result with the same id).`,
  };
}

/** Mistake 1, the other way: a method the server does not have, answered as if a tool failed. */
function unknownMethodHints(ctx: ItemContext, p: (path: string) => string): Finding[] {
  const { item } = ctx;
  if (item.kind !== 'response' || item.result.isError !== true) return [];
  return [{ code: 'business-error-for-protocol-problem', severity: 'warning', path: p('$.result.isError'), message: `The server answered "${ctx.request!.method}", a method MCP does not define, with a tool error (isError: true). isError is for a tool that ran and failed; a method the server does not have gets the JSON-RPC error -32601 Method not found.` }];
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
  const flat = flattenedArguments(params);
  if (flat.length > 0) {
    const fields = flat.map((k) => `"${k}"`).join(', ');
    out.push({
      code: 'tool-arguments-flattened',
      severity: 'error',
      path: p(`$.params.${flat[0]}`),
      message: `${fields} ${flat.length === 1 ? 'sits' : 'sit'} in params beside "name", where the server does not look: a tool's input goes inside params.arguments ({ "name": ..., "arguments": { ${flat.map((k) => `"${k}": ...`).join(', ')} } }).`,
    });
  }
  return out;
}

function looksLikeToolResult(method: string, params: JsonObject | undefined): boolean {
  if (/^(notifications\/)?tools\/(call|result)/.test(method) || /tool.?result/i.test(method)) return true;
  return !!params && (Array.isArray(params.content) || 'structuredContent' in params || typeof params.isError === 'boolean');
}

function errorKindHints(ctx: ItemContext, p: (path: string) => string): Finding[] {
  const { item } = ctx;
  if (item.kind === 'response' && item.result.isError !== true) {
    const hit = unflaggedError(item.result);
    if (hit) {
      return [{ code: 'unflagged-business-error', severity: 'warning', path: p(hit.path), message: `This tool result looks like a failure (${hit.rule}) but does not set isError: true, so the host shows it as a success and the model may take the error for data. Return isError: true when the tool failed.` }];
    }
  }
  if (item.kind === 'response' && item.result.isError === true) {
    const text = firstText(item.result.content);
    if (text === undefined || text.trim() === '') {
      return [{ code: 'is-error-without-reason', severity: 'warning', path: p('$.result.content'), message: 'This tool error (isError: true) says nothing in content. The model reads content, not the flag alone: put the reason in a text block ("No gifts under 5 EUR for a wedding") so it can tell the user or try again differently.' }];
    }
    if (PROTOCOL_LIKE.test(text)) {
      return [{ code: 'is-error-looks-like-protocol-error', severity: 'info', path: p('$.result.isError'), message: `This tool error (isError: true) reads like a failure of the request itself ("${text.slice(0, 80)}"): unknown tool or bad arguments. SDKs report those as tool errors on purpose; check the request, not the tool.` }];
    }
  }
  if (item.kind === 'response' && item.result.isError !== true && Array.isArray(item.result.content) && item.result.content.length === 0) {
    const structured = 'structuredContent' in item.result;
    return [
      {
        code: 'tool-result-empty-content',
        severity: structured ? 'info' : 'warning',
        path: p('$.result.content'),
        message: structured
          ? 'content is empty: hosts that read only content (and the model in many of them) get no text. The spec asks a tool that returns structuredContent to put its JSON in a text block too.'
          : 'content is empty and there is no structuredContent: the model gets nothing to read from this call. Put the answer in a text block.',
      },
    ];
  }
  if (item.kind === 'error' && !STANDARD_REQUEST_ERRORS.has(item.error.code)) {
    const wrong = malformedCall(ctx.request?.params);
    if (wrong) {
      return [{ code: 'internal-error-for-bad-request', severity: 'warning', path: p('$.error.code'), message: `The request itself was wrong (${wrong}), so the tool never ran: the answer due is -32602 Invalid params, which tells the client to fix its call, not ${item.error.code}, which reads as the server failing.` }];
    }
    return [{ code: 'protocol-error-looks-like-business', severity: 'warning', path: p('$.error'), message: `tools/call failed with JSON-RPC error ${item.error.code}, which the host shows as a broken call the model cannot read. When the tool ran and failed, return a result with isError: true and the reason in content, so the model can tell the user or recover; keep JSON-RPC errors for requests that are themselves wrong.` }];
  }
  return [];
}

/** What is wrong with a tools/call's params, in a few words, when they cannot name a tool and its input. */
function malformedCall(params: JsonObject | undefined): string | undefined {
  if (!params) return 'no params';
  if (typeof params.name !== 'string') {
    const wrong = ['tool', 'toolName', 'tool_name'].find((k) => k in params);
    return wrong ? `params.${wrong} instead of params.name` : 'no params.name';
  }
  const wrongArgs = ['args', 'input', 'parameters'].find((k) => k in params && !('arguments' in params));
  if (wrongArgs) return `params.${wrongArgs} instead of params.arguments`;
  const flat = flattenedArguments(params);
  if (flat.length > 0) return `${flat.map((k) => `params.${k}`).join(', ')} outside params.arguments`;
  return undefined;
}

/** Members of a tools/call's params that are no field of it: the tool's arguments, put beside name. */
export function flattenedArguments(params: JsonObject): string[] {
  if ('arguments' in params) return [];
  const own = new Set(['name', 'arguments', '_meta', 'task', 'tool', 'toolName', 'tool_name', 'args', 'input', 'parameters']);
  return Object.keys(params).filter((k) => !own.has(k));
}

function firstText(content: JsonValue | undefined): string | undefined {
  if (!Array.isArray(content)) return undefined;
  for (const block of content) if (isJsonObject(block) && typeof block.text === 'string') return block.text;
  return undefined;
}
