/**
 * An MCP server that streams: its `ticks` tool sends `count` progress notifications, one every
 * `intervalMs` (the first at once), each stamped with the time it was sent, then answers. A client
 * on the same machine reads the stamp to measure how late each SSE event arrives through a path:
 * a proxy that buffers the stream shows it here and nowhere else.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { BenchPath } from './hono-passthrough.js';

/** Milliseconds on a clock shared by every process on this machine. */
export const wallMs = () => performance.timeOrigin + performance.now();

function tickServer(): Server {
  const server = new Server({ name: 'bench-ticks', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'ticks', inputSchema: { type: 'object', properties: { count: { type: 'integer' }, intervalMs: { type: 'integer' } } } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { count = 10, intervalMs = 20 } = (request.params.arguments ?? {}) as { count?: number; intervalMs?: number };
    const token = request.params._meta?.progressToken;
    for (let i = 1; i <= count && token !== undefined; i++) {
      if (i > 1) await new Promise((r) => setTimeout(r, intervalMs));
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: count, message: String(wallMs()) } });
    }
    return { content: [{ type: 'text', text: `${count} ticks` }] };
  });
  return server;
}

/** Stateless Streamable HTTP (a fresh server and transport per request), answers as SSE. */
export async function startStreamServer(): Promise<BenchPath> {
  const http = createServer(async (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    await tickServer().connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
