/**
 * What the editor knows about a client→server message: a JSON Schema for the envelope and each
 * method's params (completion and inline errors in Monaco), with `tools/call` arguments checked
 * against each tool's own inputSchema from the session's latest `tools/list`. Written by hand
 * from the spec's field lists (the official schema.json files stay out of the repo).
 */

type Schema = Record<string, unknown>;
export interface ToolInfo {
  name: string;
  description?: string;
  inputSchema?: Schema;
}

const META: Schema = {
  type: 'object',
  description: 'Request metadata. `progressToken` asks the server for notifications/progress.',
  properties: { progressToken: { type: ['string', 'integer'], description: 'Links notifications/progress to this request.' } },
};
const CURSOR: Schema = { type: 'object', properties: { cursor: { type: 'string', description: 'Opaque pagination cursor from a previous nextCursor.' }, _meta: META } };
const obj = (properties: Schema, required: string[] = []): Schema => ({ type: 'object', properties: { ...properties, _meta: META }, required });

export const CLIENT_METHODS: Record<string, Schema> = {
  initialize: obj(
    {
      protocolVersion: { type: 'string', examples: ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] },
      capabilities: { type: 'object', properties: { roots: { type: 'object' }, sampling: { type: 'object' }, elicitation: { type: 'object' }, experimental: { type: 'object' } } },
      clientInfo: obj({ name: { type: 'string' }, title: { type: 'string' }, version: { type: 'string' } }, ['name', 'version']),
    },
    ['protocolVersion', 'capabilities', 'clientInfo'],
  ),
  ping: obj({}),
  'tools/list': CURSOR,
  'tools/call': obj({ name: { type: 'string', description: 'The tool to call.' }, arguments: { type: 'object', description: "Checked against the tool's inputSchema." } }, ['name']),
  'resources/list': CURSOR,
  'resources/templates/list': CURSOR,
  'resources/read': obj({ uri: { type: 'string', description: 'The resource URI (not resourceId).' } }, ['uri']),
  'resources/subscribe': obj({ uri: { type: 'string' } }, ['uri']),
  'resources/unsubscribe': obj({ uri: { type: 'string' } }, ['uri']),
  'prompts/list': CURSOR,
  'prompts/get': obj({ name: { type: 'string' }, arguments: { type: 'object', additionalProperties: { type: 'string' } } }, ['name']),
  'completion/complete': obj(
    {
      ref: { type: 'object', properties: { type: { enum: ['ref/prompt', 'ref/resource'] }, name: { type: 'string' }, uri: { type: 'string' } }, required: ['type'] },
      argument: obj({ name: { type: 'string' }, value: { type: 'string' } }, ['name', 'value']),
    },
    ['ref', 'argument'],
  ),
  'logging/setLevel': obj({ level: { enum: ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] } }, ['level']),
  'notifications/initialized': obj({}),
  'notifications/cancelled': obj({ requestId: { type: ['string', 'integer'] }, reason: { type: 'string' } }, ['requestId']),
  'notifications/roots/list_changed': obj({}),
};

/** The schema Monaco validates the editor's text with. */
export function messageSchema(tools: readonly ToolInfo[]): Schema {
  const branches = Object.entries(CLIENT_METHODS).map(([method, params]) => ({
    if: { properties: { method: { const: method } }, required: ['method'] },
    then: { properties: { params: method === 'tools/call' ? toolsCallParams(tools) : params } },
  }));
  return {
    type: 'object',
    required: ['jsonrpc', 'method'],
    properties: {
      jsonrpc: { const: '2.0' },
      id: { type: ['string', 'integer'], description: 'Replaced on the wire by mcpscope-replay-<n>, so it never collides with the client\'s ids.' },
      method: { type: 'string', examples: Object.keys(CLIENT_METHODS) },
      params: { type: 'object' },
    },
    allOf: branches,
  };
}

function toolsCallParams(tools: readonly ToolInfo[]): Schema {
  const base = CLIENT_METHODS['tools/call']!;
  if (tools.length === 0) return base;
  return {
    ...base,
    properties: { ...(base.properties as Schema), name: { type: 'string', enum: tools.map((t) => t.name), description: 'A tool from the session\'s latest tools/list.' } },
    allOf: tools
      .filter((t) => t.inputSchema)
      .map((t) => ({ if: { properties: { name: { const: t.name } }, required: ['name'] }, then: { properties: { arguments: withoutDialect(t.inputSchema!) } } })),
  };
}

/** Monaco's JSON service reads draft-07; a 2020-12 `$schema` line would only confuse it. */
function withoutDialect(schema: Schema): Schema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/** Starting points for the composer, one per method. */
export function templateFor(method: string): string {
  const params: Record<string, unknown> = {
    initialize: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mcpscope', version: '0.1.0' } },
    'tools/call': { name: '', arguments: {} },
    'resources/read': { uri: '' },
    'resources/subscribe': { uri: '' },
    'resources/unsubscribe': { uri: '' },
    'prompts/get': { name: '', arguments: {} },
    'completion/complete': { ref: { type: 'ref/prompt', name: '' }, argument: { name: '', value: '' } },
    'logging/setLevel': { level: 'info' },
    'notifications/cancelled': { requestId: 1, reason: '' },
  };
  const message: Record<string, unknown> = { jsonrpc: '2.0' };
  if (!method.startsWith('notifications/')) message.id = 1;
  message.method = method;
  if (params[method] !== undefined) message.params = params[method];
  return JSON.stringify(message, null, 2);
}
