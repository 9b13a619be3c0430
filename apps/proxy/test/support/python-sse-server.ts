/**
 * A legacy HTTP+SSE (2024-11-05) server that speaks the Python SDK's wire format, with the
 * official TypeScript SDK's McpServer behind it. The Python SDK (and FastMCP on top of it) cannot
 * run here, so this stand-in reproduces what it sends, each behaviour from its public sources:
 * - `GET /sse` answers `text/event-stream`, and its first event is
 *   `event: endpoint` / `data: /messages/?session_id=<32 hex digits>`: the session id is a UUID's
 *   hex, in a `session_id` query parameter, on a path with a trailing slash (python-sdk
 *   `mcp/server/sse.py`, `SseServerTransport.connect_sse`: `session_uri =
 *   f"{quote(self._endpoint)}?session_id={session_id.hex}"`; a uvicorn wire capture shows
 *   `data: http://localhost:8000/messages/?session_id=1beded10f1764848be4e028989c149e8`);
 * - `POST /messages/?session_id=…` answers `202 Accepted` with the body `Accepted`, and the answer
 *   to the message comes on the stream as `event: message` (same file, `handle_post_message`);
 * - an unknown session id is a 404, a missing one a 400 (same file).
 * The TypeScript SDK's own SSEServerTransport names its parameter `sessionId` instead, which is
 * why this file exists.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { listenOnLoopback } from './loopback.js';

/** One SSE stream and its session, as the Python SDK's transport keeps them. */
class PythonStyleSseTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly sessionId = randomUUID().replaceAll('-', '');

  constructor(private readonly res: ServerResponse) {}

  async start(): Promise<void> {
    this.res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' });
    this.res.write(`event: endpoint\r\ndata: /messages/?session_id=${this.sessionId}\r\n\r\n`);
    this.res.on('close', () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.res.write(`event: message\r\ndata: ${JSON.stringify(message)}\r\n\r\n`);
  }

  async close(): Promise<void> {
    this.res.end();
  }
}

export interface PythonSseServer {
  /** The stream's URL (give it to mcpscope as --target; clients open the tap's same path). */
  url: string;
  close(): Promise<void>;
}

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'python-style-sse', version: '1.0.0' });
  server.registerTool('forecast', { description: 'The weather in a city', inputSchema: { city: z.string() } }, async ({ city }) => ({
    content: [{ type: 'text', text: `Sunny in ${city}` }],
  }));
  return server;
}

export async function startPythonSseServer(): Promise<PythonSseServer> {
  const sessions = new Map<string, PythonStyleSseTransport>();
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new PythonStyleSseTransport(res);
      sessions.set(transport.sessionId, transport);
      res.on('close', () => sessions.delete(transport.sessionId));
      void mcpServer().connect(transport);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages/') {
      const id = url.searchParams.get('session_id');
      if (id === null) return void res.writeHead(400).end('session_id is required');
      const transport = sessions.get(id);
      if (!transport) return void res.writeHead(404).end('Could not find session');
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.writeHead(202).end('Accepted');
        transport.onmessage?.(JSON.parse(Buffer.concat(chunks).toString('utf8')) as JSONRPCMessage);
      });
      return;
    }
    res.writeHead(404).end();
  });
  const listening = await listenOnLoopback(http);
  return {
    url: `${listening.origin}/sse`,
    close: async () => {
      for (const t of sessions.values()) await t.close();
      await listening.close();
    },
  };
}
