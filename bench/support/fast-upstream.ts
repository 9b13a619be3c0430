/**
 * The benchmarks' upstream, run as its own process: as fast as an MCP server can be, so the
 * tap's cost is not hidden behind the server's. POST /mcp answers a small JSON-RPC result with
 * the request's id; POST /mcp?sse=1 answers an SSE stream of `EVENTS` progress notifications,
 * one every `GAP_MS`, then the result, each stamped with the wall-clock time it was written.
 * Prints `READY <origin>` when listening.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const EVENTS = Number(process.env.EVENTS ?? 20);
const GAP_MS = Number(process.env.GAP_MS ?? 5);
const now = () => performance.timeOrigin + performance.now();

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const id = /"id":\s*("[^"]*"|\d+)/.exec(body)?.[1] ?? 'null';
    const bytes = /[?&]bytes=(\d+)/.exec(req.url ?? '')?.[1];
    if (bytes) return sendLarge(res, id, Number(bytes));
    if (req.url?.endsWith('?sse=1')) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
      let n = 0;
      const tick = () => {
        if (res.destroyed) return;
        n++;
        if (n <= EVENTS) {
          res.write(`event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":${n},"sentAt":${now()}}}\n\n`);
          setTimeout(tick, GAP_MS);
        } else {
          res.end(`event: message\ndata: {"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"done"}],"sentAt":${now()}}}\n\n`);
        }
      };
      tick();
      return;
    }
    const out = `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"Personalised star map print, $55"}]}}`;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
    res.end(out);
  });
});
const CHUNK = Buffer.alloc(64 * 1024, 'lorem ipsum dolor sit amet, consectetur adipiscing elit. ');

function sendLarge(res: ServerResponse, id: string, bytes: number): void {
  const head = Buffer.from(`{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"`);
  const tail = Buffer.from('"}]}}');
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': head.length + bytes + tail.length });
  res.write(head);
  let left = bytes;
  const pump = () => {
    while (left > 0) {
      const n = Math.min(left, CHUNK.length);
      left -= n;
      if (!res.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) return void res.once('drain', pump);
    }
    res.end(tail);
  };
  pump();
}

server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  console.log(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
