/**
 * mcpscope's per-revision rules over the SDK-derived definitions. The SDK speaks 2025-11-25;
 * each overlay says how another revision differs, in the terms of the specification's changelog.
 * The differential test against the official schema.json files is what keeps these honest.
 */
import type { Revision } from '../revisions/revisions.js';
import type { JsonSchema } from './sdk-definitions.js';
import { dropProps, int, ref, requireProps, setProps, str } from './schema-patch.js';

type Overlay = (schema: JsonSchema) => JsonSchema;

const MODERN_REQUESTS = [
  'ListResourcesRequest',
  'ListResourceTemplatesRequest',
  'ReadResourceRequest',
  'ListPromptsRequest',
  'GetPromptRequest',
  'ListToolsRequest',
  'CallToolRequest',
  'CompleteRequest',
];
// Sampling, roots and elicitation results travel inside inputResponses, without resultType.
const MODERN_RESULTS = ['CallToolResult', 'CompleteResult', 'GetPromptResult'];
const CACHEABLE_RESULTS = ['ListToolsResult', 'ListPromptsResult', 'ListResourcesResult', 'ListResourceTemplatesResult', 'ReadResourceResult'];

function compose(...overlays: Overlay[]): Overlay {
  return (s) => overlays.reduce((acc, o) => o(acc), s);
}

const modernRequest: Overlay = (s) =>
  requireProps(setProps(s, ['params'], { _meta: ref('RequestMetaObject') }), ['params'], ['_meta']);
const requireParams: Overlay = (s) => requireProps(s, [], ['params']);
const modernResult: Overlay = (s) =>
  requireProps(setProps(s, [], { resultType: str, _meta: ref('ResultMetaObject') }), [], ['resultType']);
const cacheable: Overlay = (s) =>
  requireProps(
    setProps(s, [], { ttlMs: { type: 'integer', minimum: 0 }, cacheScope: { enum: ['private', 'public'] } }),
    [],
    ['ttlMs', 'cacheScope'],
  );
const mrtrParams: Overlay = (s) => setProps(s, ['params'], { inputResponses: ref('InputResponses'), requestState: str });

function modernOverlays(): Record<string, Overlay> {
  const table: Record<string, Overlay> = {};
  for (const name of MODERN_REQUESTS) table[name] = compose(requireParams, modernRequest);
  for (const name of MODERN_RESULTS) table[name] = modernResult;
  for (const name of CACHEABLE_RESULTS) table[name] = compose(modernResult, cacheable);
  table.CallToolRequest = compose(table.CallToolRequest!, mrtrParams, (s) => dropProps(s, ['params'], ['task']));
  table.GetPromptRequest = compose(table.GetPromptRequest!, mrtrParams);
  // structuredContent may be any JSON value from 2026-07-28 on, not only an object.
  table.CallToolResult = compose((s) => requireProps(s, [], ['content']), modernResult, (s) => setProps(s, [], { structuredContent: {} }));
  // An output schema may describe any JSON value now (arrays included), not only objects.
  table.Tool = (s) =>
    setProps(s, [], {
      inputSchema: { type: 'object', properties: { $schema: str, type: { const: 'object' } }, required: ['type'] },
      outputSchema: { type: 'object', properties: { $schema: str } },
    });
  // URL-mode elicitation lost elicitationId (and notifications/elicitation/complete) in 2026-07-28.
  table.ElicitRequestURLParams = (s) => dropProps(s, [], ['elicitationId']);
  for (const name of ['CallToolRequestParams', 'CompleteRequestParams', 'GetPromptRequestParams', 'ReadResourceRequestParams']) {
    table[name] = (s) => requireProps(setProps(s, [], { _meta: ref('RequestMetaObject') }), [], ['_meta']);
  }
  const mrtrFields = (s: JsonSchema) => setProps(s, [], { inputResponses: ref('InputResponses'), requestState: str });
  table.CallToolRequestParams = compose(table.CallToolRequestParams!, mrtrFields, (s) => dropProps(s, [], ['task']));
  table.GetPromptRequestParams = compose(table.GetPromptRequestParams!, mrtrFields);
  // Containers inline the SDK's Tool: point them at this revision's Tool instead.
  table.ListToolsResult = compose(table.ListToolsResult!, (s) => setProps(s, [], { tools: { type: 'array', items: ref('Tool') } }));
  table.CreateMessageRequestParams = (s) =>
    setProps(s, [], { tools: { type: 'array', items: ref('Tool') }, messages: { type: 'array', items: ref('SamplingMessage') } });
  for (const name of ['ToolListChangedNotification', 'PromptListChangedNotification', 'ResourceListChangedNotification', 'ResourceUpdatedNotification']) {
    table[name] = (s) => setProps(s, ['params'], { _meta: ref('NotificationMetaObject') });
  }
  table.ToolResultContent = (s) =>
    requireProps(setProps(s, [], { content: { type: 'array', items: ref('ContentBlock') } }), [], ['content', 'toolUseId', 'type']);
  table.StringSchema = (s) => setProps(s, [], { minLength: int, maxLength: int });
  table.UntitledMultiSelectEnumSchema = (s) => setProps(s, [], { minItems: int, maxItems: int });
  table.TitledMultiSelectEnumSchema = (s) => setProps(s, [], { minItems: int, maxItems: int });
  table.CancelledNotificationParams = (s) => requireProps(s, [], ['requestId']);
  table.CancelledNotification = (s) => requireProps(requireProps(s, [], ['params']), ['params'], ['requestId']);
  return table;
}

/** Content blocks a tool result may carry, by revision: audio came in 2025-03-26, resource_link in 2025-06-18. */
function toolContent(blocks: string[]): Overlay {
  return (s) => setProps(s, [], { content: { type: 'array', items: { anyOf: blocks.map(ref) } } });
}

/** Rules for every revision: where the SDK's zod is looser than every official schema. */
const COMMON: Record<string, Overlay> = {
  // zod gives `content` a default of [], which makes it optional; the schema requires it.
  CallToolResult: (s) => requireProps(s, [], ['content']),
};

/** Up to 2025-11-25 each property of a tool's inputSchema must itself be an object. */
const legacyTool: Overlay = (s) => setProps(s, ['inputSchema'], { properties: { type: 'object', additionalProperties: { type: 'object' } } });
/** Up to 2025-06-18 a cancellation names its request (requestId became optional in 2025-11-25). */
const cancelNeedsId: Overlay = (s) => requireProps(requireProps(s, [], ['params']), ['params'], ['requestId']);
/** The request's _meta was not typed by the method definitions before 2025-06-18. */
const untypedMeta: Overlay = (s) => setProps(s, ['params'], { _meta: { type: 'object' } });
/** Sampling messages before 2025-11-25: one text, image (or, from 2025-03-26, audio) block. */
function legacySampling(blocks: string[]): Overlay {
  const message = { type: 'object', properties: { content: { anyOf: blocks.map(ref) }, role: ref('Role') }, required: ['content', 'role'] };
  return (s) => setProps(s, ['params'], { messages: { type: 'array', items: message } });
}
const legacyElicitContent: Overlay = (s) =>
  setProps(s, [], { content: { type: 'object', additionalProperties: { type: ['string', 'integer', 'boolean'] } } });

const TABLES: Partial<Record<Revision, Record<string, Overlay>>> = {
  '2024-11-05': {
    CallToolResult: compose(COMMON.CallToolResult!, toolContent(['TextContent', 'ImageContent', 'EmbeddedResource'])),
    Tool: legacyTool,
    CancelledNotification: cancelNeedsId,
    CallToolRequest: untypedMeta,
    CreateMessageRequest: legacySampling(['TextContent', 'ImageContent']),
  },
  '2025-03-26': {
    CallToolResult: compose(COMMON.CallToolResult!, toolContent(['TextContent', 'ImageContent', 'AudioContent', 'EmbeddedResource'])),
    Tool: legacyTool,
    CancelledNotification: cancelNeedsId,
    CallToolRequest: untypedMeta,
    CreateMessageRequest: legacySampling(['TextContent', 'ImageContent', 'AudioContent']),
  },
  '2025-06-18': {
    Tool: legacyTool,
    CancelledNotification: cancelNeedsId,
    CallToolRequest: untypedMeta,
    CreateMessageRequest: legacySampling(['TextContent', 'ImageContent', 'AudioContent']),
    ElicitResult: legacyElicitContent,
  },
  '2025-11-25': {
    Tool: legacyTool,
    CallToolRequest: (s) => setProps(s, ['params'], { task: { type: 'object', properties: { ttl: int } } }),
  },
  '2026-07-28': modernOverlays(),
};

export function overlayFor(rev: Revision, name: string): Overlay | undefined {
  const table = TABLES[rev];
  const own = table && Object.hasOwn(table, name) ? table[name] : undefined;
  const common = Object.hasOwn(COMMON, name) ? COMMON[name] : undefined;
  return own ?? common;
}
