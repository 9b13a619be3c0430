// The upstream client verify and replay use follows a server's 307 and 308 on the same origin with
// the same method and body, as the MCP SDK's client (fetch) does, and nothing else: no 302 turned
// into a GET, no credentials carried to another host, no endless loop, no streamed body sent twice.
import { createServer, type Server } from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followingRedirects, MAX_REDIRECTS, type Redirect } from '../src/upstream/follow-redirects.js';
import { upstreamRequest, type UpstreamResponse } from '../src/upstream/upstream-request.js';
import { listenOnLoopback, type Listening } from './support/loopback.js';

let main: Listening;
let other: Listening;
/** What reached the server: method, path, body and authorization of each request. */
const seen: string[] = [];

function server(redirects: (path: string) => { status: number; location: string } | undefined): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url} ${body} ${req.headers.authorization ?? '-'}`);
      const to = redirects(req.url ?? '/');
      if (to) return void res.writeHead(to.status, { location: to.location, 'content-type': 'text/plain' }).end('moved');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url, body }));
    });
  });
}

beforeAll(async () => {
  other = await listenOnLoopback(server(() => undefined));
  main = await listenOnLoopback(
    server((path) => {
      if (path === '/mcp') return { status: 307, location: '/mcp/' };
      if (path === '/permanent') return { status: 308, location: `${main.origin}/mcp/` };
      if (path === '/twice') return { status: 307, location: '/permanent' };
      if (path === '/found') return { status: 302, location: '/mcp/' };
      if (path === '/elsewhere') return { status: 307, location: `${other.origin}/mcp/` };
      if (path === '/loop') return { status: 307, location: '/loop' };
      return undefined;
    }),
  );
});
afterAll(async () => {
  await main.close();
  await other.close();
});

async function post(path: string, body: Buffer | Readable = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}')): Promise<{ res: UpstreamResponse; text: string; redirects: Redirect[] }> {
  const redirects: Redirect[] = [];
  const request = followingRedirects(upstreamRequest, (r) => redirects.push(r));
  const res = await request(`${main.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer t0ken' }, body, signal: AbortSignal.timeout(5000) });
  let text = '';
  for await (const chunk of res.body) text += String(chunk);
  return { res, text, redirects };
}

describe('followingRedirects', () => {
  it('follows a 307 and a 308 on the same origin with the same method, body and headers, and says so', async () => {
    seen.length = 0;
    const { res, text, redirects } = await post('/twice');
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(text)).toEqual({ path: '/mcp/', body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(seen).toEqual([
      'POST /twice {"jsonrpc":"2.0","id":1,"method":"ping"} Bearer t0ken',
      'POST /permanent {"jsonrpc":"2.0","id":1,"method":"ping"} Bearer t0ken',
      'POST /mcp/ {"jsonrpc":"2.0","id":1,"method":"ping"} Bearer t0ken',
    ]);
    expect(redirects).toEqual([
      { from: `${main.origin}/twice`, to: `${main.origin}/permanent`, status: 307 },
      { from: `${main.origin}/permanent`, to: `${main.origin}/mcp/`, status: 308 },
    ]);
  });

  it('returns a 302 as it came: it would turn a POST into a GET', async () => {
    const { res, text, redirects } = await post('/found');
    expect([res.statusCode, text, redirects]).toEqual([302, 'moved', []]);
  });

  it('does not carry the request, and its credentials, to another origin', async () => {
    seen.length = 0;
    const { res, redirects } = await post('/elsewhere');
    expect([res.statusCode, redirects]).toEqual([307, []]);
    expect(seen).toEqual(['POST /elsewhere {"jsonrpc":"2.0","id":1,"method":"ping"} Bearer t0ken']);
  });

  it('gives up on a loop after MAX_REDIRECTS hops, with the last redirect as the answer', async () => {
    seen.length = 0;
    const { res, redirects } = await post('/loop');
    expect(res.statusCode).toBe(307);
    expect(redirects).toHaveLength(MAX_REDIRECTS);
    expect(seen).toHaveLength(MAX_REDIRECTS + 1);
  });

  it('returns the redirect of a streamed body, which cannot be sent twice', async () => {
    const { res, redirects } = await post('/mcp', Readable.from([Buffer.from('{"jsonrpc":"2.0","id":2,"method":"ping"}')]));
    expect([res.statusCode, redirects]).toEqual([307, []]);
  });
});
