/**
 * The floor for the tap's own approach: node:http in, undici `request` out, bytes piped both
 * ways, no capture, no guard. Prints `READY <origin>`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';

const upstream = process.env.UPSTREAM!;
const agent = new Agent({ headersTimeout: 0, bodyTimeout: 0, connections: 256 });
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    delete headers['content-length'];
    request(upstream + req.url, { method: req.method as 'POST', headers, body: chunks.length ? Buffer.concat(chunks) : null, dispatcher: agent }).then(
      (up) => {
        res.writeHead(up.statusCode, up.headers as Record<string, string>);
        up.body.pipe(res);
      },
      () => res.writeHead(502).end(),
    );
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}`));
