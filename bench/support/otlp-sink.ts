/**
 * A stand-in tracing backend for the OTLP benchmark: an OTLP/HTTP endpoint that accepts every
 * export (`MODE=ok`, reading and discarding the body as a collector's receiver does before it
 * queues), sheds load with 503 (`MODE=503`, what a collector answers when its queue is full), or
 * never answers (`MODE=hang`, a backend that is stuck). Prints `READY <origin>`.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const mode = process.env.MODE ?? 'ok';
const hung: ServerResponse[] = [];
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (mode === 'hang') return void hung.push(res);
    if (mode === '503') return void res.writeHead(503, { 'content-type': 'text/plain' }).end('overloaded');
    res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  });
});
server.listen(0, '127.0.0.1', () => console.log(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => {
  for (const res of hung) res.destroy();
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
