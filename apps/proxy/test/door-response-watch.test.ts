// What the door sees of a response, on a real node:http server: the tap's (responses made
// WatchedResponses by the server) and any other (a plain ServerResponse, watched all the same).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { WatchedResponse, watchResponse } from '../src/door/response-watch.js';

interface Seen {
  heads: { status: number; headers: Record<string, string> }[];
  bytes: number;
  body: string;
}

/** Serves one request with `answer`, watched; returns what the client got and what the observer saw. */
async function serveOnce(watched: boolean, answer: (res: ServerResponse) => void): Promise<{ status: number; text: string; seen: Seen }> {
  const seen: Seen = { heads: [], bytes: 0, body: '' };
  const handler = (_req: IncomingMessage, res: ServerResponse) => {
    watchResponse(res, {
      head: (status, headers) => seen.heads.push({ status, headers }),
      chunk: (data) => {
        seen.bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
        seen.body += data.toString();
      },
    });
    answer(res);
  };
  const server = watched ? createServer({ ServerResponse: WatchedResponse }, handler) : createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return { status: response.status, text: await response.text(), seen };
  } finally {
    server.close();
  }
}

describe.each([
  ['the tap server (WatchedResponse)', true],
  ['a plain node:http server', false],
])('watching a response on %s', (_name, watched) => {
  it('sees the head once, with headers set before writeHead merged with those given to it', async () => {
    const { status, text, seen } = await serveOnce(watched, (res) => {
      res.setHeader('X-Set', ['a', 'b']);
      res.writeHead(201, 'Made', { 'Content-Type': 'text/plain', 'X-Given': '1' });
      res.write('héllo ');
      res.end(Buffer.from('world'));
    });
    expect(status).toBe(201);
    expect(text).toBe('héllo world');
    expect(seen.heads).toEqual([{ status: 201, headers: { 'x-set': 'a, b', 'content-type': 'text/plain', 'x-given': '1' } }]);
    expect(seen.bytes).toBe(Buffer.byteLength('héllo world'));
    expect(seen.body).toBe('héllo world');
  });

  it('sees the implicit head of a response that never calls writeHead', async () => {
    const { status, seen } = await serveOnce(watched, (res) => {
      res.statusCode = 404;
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
    expect(status).toBe(404);
    expect(seen.heads).toEqual([{ status: 404, headers: { 'content-type': 'application/json' } }]);
    expect(seen.bytes).toBe(2);
  });
});
