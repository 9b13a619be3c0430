/**
 * The fastest floor a Node proxy can reach: node:http in, node:http out on a keep-alive agent,
 * bytes piped both ways, nothing parsed, buffered or recorded, no undici. Whatever the tap costs
 * above this is the price of its approach (undici, guards, capture). Prints `READY <origin>`.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

const upstream = new URL(process.env.UPSTREAM!);
// No cap on sockets (as the tap); idle ones kept, so every call reuses a connection.
const agent = new Agent({ keepAlive: true, keepAliveMsecs: 60_000, maxSockets: Infinity, maxFreeSockets: 256 });
const server = createServer((req, res) => {
  const headers = { ...req.headers, host: upstream.host };
  delete headers.connection;
  const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  out.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
  res.on('close', () => res.writableFinished || out.destroy());
  req.pipe(out);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}`));
