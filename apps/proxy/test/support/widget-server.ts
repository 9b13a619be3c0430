/**
 * An MCP server with widgets made to order, on the official SDK's low-level Server over stateless
 * Streamable HTTP: each widget is a tool (with the `_meta` given) and a `ui://` resource (with the
 * HTML, MIME type and `_meta` given), plus any extra tools. Calls echo their arguments back as
 * structuredContent, so a test can tell which call a widget made. Used by the widget preview's
 * unit tests and by the e2e specs (hostile widgets, bad input).
 */
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { listenOnLoopback } from './loopback.js';

export interface FixtureWidget {
  tool: string;
  uri: string;
  html: string;
  mimeType?: string;
  /** The tool's `_meta`; default: both standards naming `uri`. */
  toolMeta?: Record<string, unknown>;
  /** The resource content's `_meta` (its CSP and so on). */
  resourceMeta?: Record<string, unknown>;
  /** What a call returns as structuredContent; default `{ args }`. */
  structured?: (args: Record<string, unknown>) => Record<string, unknown> | undefined;
  /** The call result's `_meta` (what only the widget sees); default none. */
  resultMeta?: Record<string, unknown>;
}

export interface FixtureTool {
  name: string;
  meta?: Record<string, unknown>;
}

export interface WidgetServer {
  url: string;
  /** How many times each tool was called. */
  calls: Map<string, number>;
  /** How many HTTP requests reached the server, of any kind. */
  requestCount(): number;
  close(): Promise<void>;
}

export async function startWidgetServer(widgets: FixtureWidget[], tools: FixtureTool[] = []): Promise<WidgetServer> {
  const calls = new Map<string, number>();
  const build = () => {
    const server = new Server({ name: 'widget-fixture', version: '1.0.0' }, { capabilities: { tools: {}, resources: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [
        ...widgets.map((w) => ({ name: w.tool, inputSchema: { type: 'object' as const }, _meta: w.toolMeta ?? { ui: { resourceUri: w.uri }, 'openai/outputTemplate': w.uri } })),
        ...tools.map((t) => ({ name: t.name, inputSchema: { type: 'object' as const }, ...(t.meta ? { _meta: t.meta } : {}) })),
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const name = request.params.name;
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      calls.set(name, (calls.get(name) ?? 0) + 1);
      const widget = widgets.find((w) => w.tool === name);
      const structured = widget?.structured ? widget.structured(args) : { tool: name, args };
      return {
        content: [{ type: 'text', text: `${name} called with ${JSON.stringify(args)}` }],
        ...(structured ? { structuredContent: structured } : {}),
        ...(widget?.resultMeta ? { _meta: widget.resultMeta } : {}),
      };
    });
    server.setRequestHandler(ListResourcesRequestSchema, async () => ({
      resources: widgets.map((w) => ({ uri: w.uri, name: w.tool, mimeType: w.mimeType ?? 'text/html;profile=mcp-app' })),
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      const w = widgets.find((x) => x.uri === request.params.uri);
      if (!w) throw new McpError(-32002, `Resource not found: ${request.params.uri}`);
      return { contents: [{ uri: w.uri, mimeType: w.mimeType ?? 'text/html;profile=mcp-app', text: w.html, ...(w.resourceMeta ? { _meta: w.resourceMeta } : {}) }] };
    });
    return server;
  };
  let requests = 0;
  const http = createServer(async (req, res) => {
    requests += 1;
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close());
    await build().connect(transport);
    await transport.handleRequest(req, res);
  });
  const listening = await listenOnLoopback(http);
  return { url: `${listening.origin}/mcp`, calls, requestCount: () => requests, close: listening.close };
}
