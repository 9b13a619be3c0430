/**
 * The floor for a Hono + fetch proxy on this machine: `hono/proxy` forwarding every request to
 * UPSTREAM, with no capture at all. Prints `READY <origin>`.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { proxy } from 'hono/proxy';

const upstream = process.env.UPSTREAM!;
const app = new Hono();
app.all('*', (c) => {
  const url = new URL(c.req.url);
  // Node's server already answered a client's `Expect: 100-continue`; fetch (undici) refuses to send the header on.
  const headers = new Headers(c.req.raw.headers);
  headers.delete('expect');
  return proxy(upstream + url.pathname + url.search, { raw: c.req.raw, headers });
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
  console.log(`READY http://127.0.0.1:${info.port}`);
});
void server;
