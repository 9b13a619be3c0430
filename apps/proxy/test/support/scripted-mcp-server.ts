/**
 * A node:http MCP server whose tools/call answer the test writes by hand, byte for byte: the
 * hostile server of the verify tests (escape sequences, a huge body, a flood of server requests,
 * no answer at all). initialize and notifications are answered as a well-behaved server would.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedServer {
  url: string;
  /** tools/call requests received so far, and replies (client → server responses) received. */
  calls: number;
  replies: number;
  close(): Promise<void>;
}

export type CallHandler = (message: { id: unknown; params?: { name?: string } }, res: ServerResponse, req: IncomingMessage) => void;

export async function startScriptedMcpServer(onCall: CallHandler): Promise<ScriptedServer> {
  const state = { calls: 0, replies: 0 };
  const server = createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown; method?: string; params?: { name?: string } };
      if (message.method === 'initialize') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'srv', version: '1' } } }));
      } else if (message.method === 'tools/call') {
        state.calls++;
        onCall({ id: message.id, ...(message.params ? { params: message.params } : {}) }, res, req);
      } else {
        if (message.method === undefined) state.replies++;
        res.writeHead(202).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get calls() {
      return state.calls;
    },
    get replies() {
      return state.replies;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
