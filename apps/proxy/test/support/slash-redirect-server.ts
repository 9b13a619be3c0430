/**
 * An MCP server mounted the way Starlette mounts the Python SDK's and FastMCP's Streamable HTTP
 * app: it answers on `/mcp/`, and a request to `/mcp` gets `307 Temporary Redirect` with an
 * absolute `Location: http://<host>/mcp/` and no body. Sources: python-sdk issues #732 and #1168
 * (uvicorn logs `"POST /mcp HTTP/1.1" 307 Temporary Redirect`, then `"POST /mcp/ HTTP/1.1" 200`;
 * Starlette's Router with `redirect_slashes=True`), and opensearch-mcp-server-py #271
 * (`location: http://<host>:<port>/mcp/`). Behind it: the official SDK's stateless Streamable HTTP
 * transport, one server per request, with one tool.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { listenOnLoopback } from './loopback.js';

export interface SlashRedirectServer {
  /** The URL without the slash, as users type it (and give to mcpscope as --target). */
  url: string;
  close(): Promise<void>;
}

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const server = new McpServer({ name: 'starlette-mounted', version: '1.0.0' });
  server.registerTool('forecast', { description: 'The weather in a city', inputSchema: { city: z.string() } }, async ({ city }) => ({
    content: [{ type: 'text', text: `Sunny in ${city}` }],
  }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => void transport.close());
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

export async function startSlashRedirectServer(): Promise<SlashRedirectServer> {
  const http = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/mcp') {
      req.resume();
      return void res.writeHead(307, { location: `http://${req.headers.host}/mcp/`, 'content-length': '0' }).end();
    }
    if (path === '/mcp/') return void answer(req, res);
    res.writeHead(404).end();
  });
  const listening = await listenOnLoopback(http);
  return { url: `${listening.origin}/mcp`, close: listening.close };
}
