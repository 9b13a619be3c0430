/**
 * A real MCP server (the official SDK's McpServer over Streamable HTTP, one session per
 * Mcp-Session-Id) whose `fetch-report` tool fails with an error that leaks credentials: a bearer
 * token and an api_key in a URL, as a careless server's error message would. `ping-report`
 * answers ok. The evidence pack tests (proxy and e2e) plant these and look for them.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** The secrets the failing call's error carries. */
export const PLANTED = {
  bearer: 'sk-leaky-bearer-7f3a9c2e51d84b06',
  apiKey: 'ak-leaky-url-key-4d2e8b1f9a7c',
};

export const LEAKY_ERROR = `report backend refused GET https://reports.example.com/v1/export?format=csv&api_key=${PLANTED.apiKey} (sent Authorization: Bearer ${PLANTED.bearer}): 401 Unauthorized`;

export function leakyServer(): McpServer {
  const server = new McpServer({ name: 'leaky-reports', version: '3.1.4', title: 'Leaky Reports' });
  server.registerTool('fetch-report', { description: 'Fetches the monthly report from the report backend.' }, async () => {
    throw new Error(LEAKY_ERROR);
  });
  server.registerTool('ping-report', { description: 'Says the report backend is there.' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
  return server;
}

export interface LeakyErrorServer {
  url: string;
  close(): Promise<void>;
}

export async function startLeakyErrorServer(): Promise<LeakyErrorServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (req, res) => {
    const sid = req.headers['mcp-session-id'];
    let transport = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (!transport) {
      const fresh = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (id) => void sessions.set(id, fresh) });
      await leakyServer().connect(fresh);
      transport = fresh;
    }
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
