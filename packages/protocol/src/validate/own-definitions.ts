/**
 * Definitions the SDK's zod schemas do not have: mostly the 2026-07-28 (stateless) revision —
 * server/discover, subscriptions, MRTR input_required results, typed errors — written from the
 * specification text as mcpscope's own rules.
 */
import type { Revision } from '../revisions/revisions.js';
import type { JsonSchema } from './sdk-definitions.js';
import { int, obj, ref, requestId, str } from './schema-patch.js';

const envelope = (method: string, params: JsonSchema, paramsRequired: boolean): JsonSchema =>
  obj({ jsonrpc: { const: '2.0' }, id: requestId, method: { const: method }, params }, ['jsonrpc', 'id', 'method', ...(paramsRequired ? ['params'] : [])]);
const notificationEnvelope = (method: string, params: JsonSchema, paramsRequired: boolean): JsonSchema =>
  obj({ jsonrpc: { const: '2.0' }, method: { const: method }, params }, ['jsonrpc', 'method', ...(paramsRequired ? ['params'] : [])]);

const cacheable = { ttlMs: { type: 'integer', minimum: 0 }, cacheScope: { enum: ['private', 'public'] } };

const errorObject = obj({ code: int, message: str, data: {} }, ['code', 'message']);
const typedError = (code: number, data?: JsonSchema): JsonSchema =>
  obj(
    {
      jsonrpc: { const: '2.0' },
      id: requestId,
      error: { allOf: [errorObject, obj({ code: { const: code }, ...(data ? { data } : {}) }, data ? ['code', 'data'] : ['code'])] },
    },
    ['jsonrpc', 'error'],
  );
const bareError = (code: number): JsonSchema => obj({ code: { const: code }, message: str, data: {} }, ['code', 'message']);

/** Registered once with Ajv by the validator (recursive, so it cannot be inlined). */
export const JSON_VALUE_ID = 'mcpscope:json-value';
export const JSON_VALUE_SCHEMA: JsonSchema = {
  $id: JSON_VALUE_ID,
  anyOf: [
    { type: 'object', additionalProperties: { $ref: JSON_VALUE_ID } },
    { type: 'array', items: { $ref: JSON_VALUE_ID } },
    // As the 2026-07-28 schema states it: no null and no fractional numbers.
    { type: ['string', 'integer', 'boolean'] },
  ],
};
const jsonObject: JsonSchema = { type: 'object', additionalProperties: { $ref: JSON_VALUE_ID } };
const objectMap: JsonSchema = { type: 'object', additionalProperties: jsonObject };
const samplingContent = (): JsonSchema => ({
  anyOf: [
    ...['TextContent', 'ImageContent', 'AudioContent', 'ToolUseContent', 'ToolResultContent'].map(ref),
    { type: 'array', items: ref('SamplingMessageContentBlock') },
  ],
});

const MODERN: Record<string, () => JsonSchema> = {
  MetaObject: () => ({ type: 'object' }),
  RequestMetaObject: () =>
    obj(
      {
        'io.modelcontextprotocol/clientCapabilities': ref('ClientCapabilities'),
        'io.modelcontextprotocol/clientInfo': ref('Implementation'),
        'io.modelcontextprotocol/logLevel': ref('LoggingLevel'),
        'io.modelcontextprotocol/protocolVersion': str,
        progressToken: { type: ['string', 'integer'] },
      },
      ['io.modelcontextprotocol/clientCapabilities', 'io.modelcontextprotocol/protocolVersion'],
    ),
  ResultMetaObject: () => obj({ 'io.modelcontextprotocol/serverInfo': ref('Implementation') }),
  NotificationMetaObject: () => obj({ 'io.modelcontextprotocol/subscriptionId': requestId }),
  RequestParams: () => obj({ _meta: ref('RequestMetaObject') }, ['_meta']),
  PaginatedRequestParams: () => obj({ _meta: ref('RequestMetaObject'), cursor: str }, ['_meta']),
  ResultType: () => str,
  Result: () => ({ ...obj({ _meta: ref('ResultMetaObject'), resultType: str }, ['resultType']), additionalProperties: {} }),
  EmptyResult: () => ref('Result'),
  CacheableResult: () => obj({ _meta: ref('ResultMetaObject'), resultType: str, ...cacheable }, ['resultType', 'ttlMs', 'cacheScope']),
  DiscoverRequest: () => envelope('server/discover', ref('RequestParams'), true),
  DiscoverResult: () =>
    obj(
      { _meta: ref('ResultMetaObject'), resultType: str, supportedVersions: { type: 'array', items: str }, capabilities: ref('ServerCapabilities'), instructions: str, ...cacheable },
      ['resultType', 'supportedVersions', 'capabilities', 'ttlMs', 'cacheScope'],
    ),
  InputRequest: () => ({ anyOf: [ref('CreateMessageRequest'), ref('ListRootsRequest'), ref('ElicitRequest')] }),
  InputRequests: () => ({ type: 'object', additionalProperties: ref('InputRequest') }),
  InputResponse: () => ({ anyOf: [ref('CreateMessageResult'), ref('ListRootsResult'), ref('ElicitResult')] }),
  InputResponses: () => ({ type: 'object', additionalProperties: ref('InputResponse') }),
  InputRequiredResult: () =>
    obj({ _meta: ref('ResultMetaObject'), resultType: str, inputRequests: ref('InputRequests'), requestState: str }, ['resultType']),
  InputResponseRequestParams: () =>
    obj({ _meta: ref('RequestMetaObject'), inputResponses: ref('InputResponses'), requestState: str }, ['_meta']),
  SubscriptionFilter: () =>
    obj({ toolsListChanged: { type: 'boolean' }, promptsListChanged: { type: 'boolean' }, resourcesListChanged: { type: 'boolean' }, resourceSubscriptions: { type: 'array', items: str } }),
  SubscriptionsListenRequestParams: () => obj({ _meta: ref('RequestMetaObject'), notifications: ref('SubscriptionFilter') }, ['_meta', 'notifications']),
  SubscriptionsListenRequest: () => envelope('subscriptions/listen', ref('SubscriptionsListenRequestParams'), true),
  SubscriptionsListenResultMetaObject: () =>
    obj({ 'io.modelcontextprotocol/serverInfo': ref('Implementation'), 'io.modelcontextprotocol/subscriptionId': requestId }, ['io.modelcontextprotocol/subscriptionId']),
  SubscriptionsListenResult: () => obj({ _meta: ref('SubscriptionsListenResultMetaObject'), resultType: str }, ['_meta', 'resultType']),
  SubscriptionsAcknowledgedNotificationParams: () => obj({ _meta: ref('NotificationMetaObject'), notifications: ref('SubscriptionFilter') }, ['notifications']),
  SubscriptionsAcknowledgedNotification: () =>
    notificationEnvelope('notifications/subscriptions/acknowledged', ref('SubscriptionsAcknowledgedNotificationParams'), true),
  Error: () => errorObject,
  ParseError: () => bareError(-32700),
  InvalidRequestError: () => bareError(-32600),
  MethodNotFoundError: () => bareError(-32601),
  InvalidParamsError: () => bareError(-32602),
  InternalError: () => bareError(-32603),
  HeaderMismatchError: () => typedError(-32020),
  MissingRequiredClientCapabilityError: () => typedError(-32021, obj({ requiredCapabilities: ref('ClientCapabilities') }, ['requiredCapabilities'])),
  UnsupportedProtocolVersionError: () => typedError(-32022, obj({ requested: str, supported: { type: 'array', items: str } }, ['requested', 'supported'])),
  ElicitRequestParams: () => ({ anyOf: [ref('ElicitRequestFormParams'), ref('ElicitRequestURLParams')] }),
  ElicitRequest: () => obj({ method: { const: 'elicitation/create' }, params: ref('ElicitRequestParams') }, ['method', 'params']),
  ClientCapabilities: () =>
    obj({
      elicitation: obj({ form: jsonObject, url: jsonObject }),
      experimental: objectMap,
      extensions: objectMap,
      roots: { type: 'object' },
      sampling: obj({ context: jsonObject, tools: jsonObject }),
    }),
  ServerCapabilities: () =>
    obj({
      completions: jsonObject,
      logging: jsonObject,
      experimental: objectMap,
      extensions: objectMap,
      prompts: obj({ listChanged: { type: 'boolean' } }),
      resources: obj({ listChanged: { type: 'boolean' }, subscribe: { type: 'boolean' } }),
      tools: obj({ listChanged: { type: 'boolean' } }),
    }),
  CreateMessageResult: () =>
    obj({ _meta: ref('MetaObject'), content: samplingContent(), model: str, role: ref('Role'), stopReason: str }, ['content', 'model', 'role']),
  SamplingMessage: () => obj({ _meta: ref('MetaObject'), content: samplingContent(), role: ref('Role') }, ['content', 'role']),
  ElicitResult: () =>
    obj(
      {
        action: { enum: ['accept', 'cancel', 'decline'] },
        content: { type: 'object', additionalProperties: { anyOf: [{ type: 'array', items: str }, { type: ['string', 'integer', 'boolean'] }] } },
      },
      ['action'],
    ),
  JSONValue: () => ({ $ref: JSON_VALUE_ID }),
  JSONObject: () => jsonObject,
  JSONArray: () => ({ type: 'array', items: { $ref: JSON_VALUE_ID } }),
  SamplingMessageContentBlock: () => ({ anyOf: ['TextContent', 'ImageContent', 'AudioContent', 'ToolUseContent', 'ToolResultContent'].map(ref) }),
};

/** `XResultResponse` in 2026-07-28: a whole JSON-RPC response carrying an `XResult`. */
function resultResponse(name: string): JsonSchema | undefined {
  const m = /^(\w+Result)Response$/.exec(name);
  if (!m) return undefined;
  // As in the official schema: either the typed result or an input_required one.
  const mrtr = ['CallToolResult', 'GetPromptResult', 'ReadResourceResult'].includes(m[1]!);
  const result = mrtr ? { anyOf: [ref('InputRequiredResult'), ref(m[1]!)] } : ref(m[1]!);
  return obj({ jsonrpc: { const: '2.0' }, id: requestId, result }, ['jsonrpc', 'id', 'result']);
}

const LEGACY: Record<string, () => JsonSchema> = {
  // SDK 1.32's CreateMessageResult predates tool_use/tool_result blocks and content arrays.
  CreateMessageResult: () => MODERN.CreateMessageResult!(),
  ElicitResult: () => MODERN.ElicitResult!(),
  Error: () => errorObject,
  RequestParams: () => obj({ _meta: { type: 'object' } }),
  NotificationParams: () => obj({ _meta: { type: 'object' } }),
  Annotated: () => obj({ annotations: ref('Annotations') }),
};

/** Legacy own definitions that only hold from 2025-11-25 on (older revisions use the SDK's + overlays). */
const FROM_2025_11_25 = new Set(['CreateMessageResult', 'ElicitResult']);

export function ownDefinition(rev: Revision, name: string): JsonSchema | undefined {
  if (FROM_2025_11_25.has(name) && rev !== '2025-11-25' && rev !== '2026-07-28') return undefined;
  if (rev === '2026-07-28') return Object.hasOwn(MODERN, name) ? MODERN[name]!() : resultResponse(name);
  return Object.hasOwn(LEGACY, name) ? LEGACY[name]!() : undefined;
}
