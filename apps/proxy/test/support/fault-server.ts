/**
 * A deliberately misbehaving upstream for fault tests. Each path is one behaviour; every request
 * it receives is kept (headers and exact body bytes) so tests can see what the tap forwarded.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { listenOnLoopback } from './loopback.js';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface FaultServer {
  origin: string;
  received: Received[];
  /** Resolves when the upstream sees the client side of `/slow` go away. */
  slowAborted: Promise<void>;
  bigBody: Buffer;
  close(): Promise<void>;
}

export async function startFaultServer(): Promise<FaultServer> {
  const received: Received[] = [];
  let markAborted!: () => void;
  const slowAborted = new Promise<void>((r) => (markAborted = r));
  // 24 MB of JSON: a result whose text is one long string.
  const bigBody = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x'.repeat(24 * 1024 * 1024) }] } }));
  let origin = '';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const path = new URL(req.url!, 'http://x').pathname;
      const status = /^\/status\/(\d{3})$/.exec(path);
      if (status) {
        const code = Number(status[1]);
        res.writeHead(code, 'Custom Reason', { 'content-type': 'application/json', 'x-upstream': 'yes', 'mcp-session-id': 'S-1' });
        return res.end(code === 202 ? '' : JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: `status ${code}` } }));
      }
      switch (path) {
        case '/reset':
          return req.socket.destroy();
        case '/dies-mid-stream':
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(`id: 1\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } })}\n\n`);
          return setTimeout(() => req.socket.destroy(), 20);
        case '/malformed':
          return res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":');
        case '/echo':
          return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { headers: req.headers, bytes: body.length } }));
        case '/big':
          return res.writeHead(200, { 'content-type': 'application/json', 'content-length': bigBody.length }).end(bigBody);
        case '/slow':
          // Never answers; proves the tap aborts the upstream request when its client leaves.
          res.on('close', () => markAborted());
          return;
        case '/sse-idle':
          // Headers now, events maybe never: a long tool call or an idle GET stream.
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.flushHeaders();
          return;
        case '/redirect':
          return res.writeHead(302, { location: `${origin}/elsewhere?x=1` }).end();
        case '/sse-legacy':
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          // Byte by byte, to prove the rewriter copes with any chunking.
          for (const ch of `: hello\n\nevent: endpoint\ndata: ${origin}/api/messages?sessionId=a%2Bb~C&x=1\n\n`) res.write(ch);
          return res.write(`event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n`);
        case '/api/messages':
          return res.writeHead(202).end('Accepted');
        default:
          return res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      }
    });
  });
  const listening = await listenOnLoopback(server);
  origin = listening.origin;
  return { origin, received, slowAborted, bigBody, close: listening.close };
}
