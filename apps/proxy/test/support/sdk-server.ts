/**
 * An official-SDK (v1) McpServer over Streamable HTTP on a free loopback port, in either of the
 * SDK's own idioms: stateful (one server and transport per Mcp-Session-Id, found again by it) or
 * stateless (a fresh server and transport per POST). The proxy's tests and the e2e specs use it.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface SdkServer {
  /** The MCP endpoint, for `--target`. */
  url: string;
  close(): Promise<void>;
}

export async function startSdkServer(makeServer: () => McpServer, mode: 'stateful' | 'stateless' = 'stateful'): Promise<SdkServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (req, res) => {
    if (mode === 'stateless') {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const server = makeServer();
      res.on('close', () => void transport.close().then(() => server.close()));
      await server.connect(transport);
      return transport.handleRequest(req, res);
    }
    const sid = req.headers['mcp-session-id'];
    let transport = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (!transport) {
      const fresh = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (id) => void sessions.set(id, fresh) });
      await makeServer().connect(fresh);
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
