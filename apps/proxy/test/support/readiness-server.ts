/**
 * An MCP app server that is ready for every host the audit knows, with one switch per defect the
 * readiness audit checks for. The official SDK's low-level Server over stateless Streamable HTTP
 * (JSON answers); `show_forecast` renders a widget, `refresh_forecast` is the widget's own tool.
 * `GET /api/forecast` is the server's own endpoint the widget fetches from the host's sandbox
 * origin: it allows ChatGPT's and Claude's widget origins in CORS (`no-cors`: it names none).
 * `list-changed` announces a tool-list change on the tools/list answer (an SSE stream then).
 */
import { createServer, request } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { listenOnLoopback } from './loopback.js';

export type ReadinessDefect =
  | 'annotations-missing'
  | 'long-name'
  | 'dotted-name'
  | 'many-tools'
  | 'no-description'
  | 'input-schema-not-object'
  | 'no-output-schema'
  | 'no-title'
  | 'empty-content'
  | 'json-block'
  | 'schema-mismatch'
  | 'internal-ids'
  | 'skybridge-mime'
  | 'uris-disagree'
  | 'csp-on-tool'
  | 'openai-visibility-only'
  | 'not-widget-accessible'
  | 'no-instructions'
  | 'no-cors'
  | 'list-changed';

export const WIDGET_URI = 'ui://forecast/widget.html';
const HINTS = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
/** The sandbox origins ChatGPT and Claude serve widgets from (origin-checks.ts reads them the same way). */
const WIDGET_ORIGIN = /^https:\/\/[a-z0-9-]+(\.web-sandbox)?\.(oaiusercontent|claudemcpcontent)\.com$/;
const CSP = { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] };

export interface ReadinessServer {
  url: string;
  close(): Promise<void>;
}

export async function startReadinessServer(defects: readonly ReadinessDefect[] = []): Promise<ReadinessServer> {
  const has = (d: ReadinessDefect) => defects.includes(d);
  const tools = () => {
    const show = {
      name: has('dotted-name') ? 'forecast.show' : 'show_forecast',
      ...(has('no-title') ? {} : { title: 'Show forecast' }),
      ...(has('no-description') ? {} : { description: 'Shows the weather forecast for a city in a widget.' }),
      inputSchema: has('input-schema-not-object') ? { type: 'string' } : { type: 'object', properties: { city: { type: 'string' } } },
      ...(has('no-output-schema') ? {} : { outputSchema: { type: 'object', properties: { city: { type: 'string' }, tempC: { type: 'number' } }, required: ['city', 'tempC'] } }),
      annotations: has('annotations-missing') ? { readOnlyHint: true } : HINTS,
      _meta: {
        ui: { resourceUri: WIDGET_URI, ...(has('csp-on-tool') ? { csp: CSP } : {}) },
        'openai/outputTemplate': has('uris-disagree') ? 'ui://forecast/old-widget.html' : WIDGET_URI,
      },
    };
    const refresh = {
      name: 'refresh_forecast',
      title: 'Refresh forecast',
      description: 'Refreshes the forecast shown in the widget.',
      inputSchema: { type: 'object', properties: {} },
      annotations: HINTS,
      _meta: {
        ...(has('openai-visibility-only') ? { 'openai/visibility': 'private' } : { ui: { visibility: ['app'] } }),
        ...(has('not-widget-accessible') ? {} : { 'openai/widgetAccessible': true }),
      },
    };
    const long = has('long-name') ? [{ name: `get_${'very_'.repeat(14)}long_forecast`, title: 'Long', description: 'A tool with a long name.', inputSchema: { type: 'object' }, annotations: HINTS }] : [];
    const many = has('many-tools') ? Array.from({ length: 45 }, (_, i) => ({ name: `city_${i}`, title: `City ${i}`, description: `Forecast for city ${i}.`, inputSchema: { type: 'object' }, annotations: HINTS })) : [];
    return [show, refresh, ...long, ...many];
  };
  const build = () => {
    const server = new Server({ name: 'forecast', version: '1.0.0' }, { capabilities: { tools: {}, resources: {} }, ...(has('no-instructions') ? {} : { instructions: 'Forecasts for cities: call show_forecast with a city name.' }) });
    server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
      if (has('list-changed')) await extra.sendNotification({ method: 'notifications/tools/list_changed' });
      return { tools: tools() } as never;
    });
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const city = String((request.params.arguments as { city?: string } | undefined)?.city ?? 'Paris');
      const structured: Record<string, unknown> = has('schema-mismatch') ? { city, tempC: 'warm' } : { city, tempC: 21 };
      if (has('internal-ids')) structured.traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const content = has('empty-content') ? [] : [{ type: 'text', text: `${city}: 21 °C` }];
      return { content, structuredContent: structured } as never;
    });
    server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [{ uri: WIDGET_URI, name: 'forecast widget', mimeType: 'text/html;profile=mcp-app' }] }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      if (request.params.uri !== WIDGET_URI) throw new McpError(-32002, `Resource not found: ${request.params.uri}`);
      const meta = has('csp-on-tool') ? {} : { _meta: { ui: { csp: CSP } } };
      return { contents: [{ uri: WIDGET_URI, mimeType: has('skybridge-mime') ? 'text/html+skybridge' : 'text/html;profile=mcp-app', text: '<!doctype html><p>forecast</p>', ...meta }] };
    });
    return server;
  };
  const http = createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === '/api/forecast') {
      const origin = req.headers.origin;
      const allowed = !has('no-cors') && origin !== undefined && WIDGET_ORIGIN.test(origin);
      res.writeHead(200, { 'content-type': 'application/json', ...(allowed ? { 'access-control-allow-origin': origin, vary: 'Origin' } : {}) }).end('{"tempC":21}');
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: number; method?: string; params?: { arguments?: { city?: string } } };
    // The SDK refuses to send a non-spec content block, so this defect is written by hand.
    if (has('json-block') && body.method === 'tools/call') {
      const structured = { city: body.params?.arguments?.city ?? 'Paris', tempC: 21 };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { content: [{ type: 'json', json: structured }], structuredContent: structured } }));
      return;
    }
    // A notification can only ride on an SSE answer.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !has('list-changed') });
    res.on('close', () => void transport.close());
    await build().connect(transport);
    await transport.handleRequest(req, res, body);
  });
  const listening = await listenOnLoopback(http);
  return { url: `${listening.origin}/mcp`, close: listening.close };
}

/** What a host does with the app: initialize, list the tools, read the widget, call the tool (raw JSON-RPC, so a broken answer is captured, not refused by a client). */
export async function useApp(mcpUrl: string): Promise<void> {
  const post = async (id: number, method: string, params: Record<string, unknown>) => {
    const res = await fetch(mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
    await res.text();
  };
  await post(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'readiness-test', version: '1' } });
  await post(2, 'tools/list', {});
  await post(3, 'resources/read', { uri: WIDGET_URI });
  await post(4, 'tools/call', { name: 'show_forecast', arguments: { city: 'Paris' } });
}

/**
 * What a widget running in a host does when it fetches the server's own endpoint: a GET from the
 * host's sandbox origin, arriving through the tunnel (Host is the tunnel's name) at the tap.
 * Resolves with the Access-Control-Allow-Origin the widget got.
 */
export async function widgetFetch(tapOrigin: string, publicHost: string, origin: string): Promise<string | undefined> {
  const url = new URL('/api/forecast', tapOrigin);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers: { host: publicHost, origin } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers['access-control-allow-origin'] as string | undefined));
    });
    req.on('error', reject);
    req.end();
  });
}
