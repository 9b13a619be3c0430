/**
 * The official SDK's Streamable HTTP server as the upstream of a spec, in either of the SDK's own
 * idioms: stateless (a fresh server and transport per POST) or stateful (one per session, found
 * again by its Mcp-Session-Id).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface SdkUpstream {
  /** The MCP endpoint, for `--target`. */
  url: string;
  close(): Promise<void>;
}

export async function startSdkUpstream(makeServer: () => McpServer, mode: 'stateless' | 'stateful'): Promise<SdkUpstream> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const upstream = createServer(async (req, res) => {
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
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`,
    close: async () => {
      upstream.closeAllConnections();
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    },
  };
}
