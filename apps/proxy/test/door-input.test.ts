// What arrives at the door that is not a well-behaved MCP client: probes only, a 10 MB body on
// /token, a query string that is not UTF-8 (percent-encoded, and raw bytes Node's parser refuses),
// and 10,000 requests to random paths. Each is recorded (bodies bounded), and the tap stays up.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOOR_BODY_LIMIT } from '@mcpscope/protocol';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { connectClient } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { allRequests, flows } from './support/door-flows.js';

let app: Mcpscope;
beforeAll(async () => {
  app = await startTestMcpscope();
});
afterAll(() => app?.close());

/** The tap still serves MCP: a whole SDK session through it. */
async function tapStillWorks(): Promise<void> {
  const client = await connectClient(app.mcpUrl, { headers: { 'user-agent': 'still-works' } });
  expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  await client.close();
}

describe('probes only', () => {
  it('say "probed, never connected"', async () => {
    const ua = { 'user-agent': 'Mozilla/5.0 (prober)' };
    await (await fetch(app.mcpUrl, { headers: { ...ua, accept: 'text/html,application/xhtml+xml' } })).arrayBuffer();
    await (await fetch(`${app.tapUrl}/favicon.ico`, { headers: ua })).arrayBuffer();
    await (await fetch(app.mcpUrl, { method: 'HEAD', headers: ua })).arrayBuffer();
    const prober = (await flows(app)).filter((f) => f.userAgent === 'Mozilla/5.0 (prober)');
    expect(prober).toHaveLength(1);
    expect(prober[0]!.verdict).toEqual({ kind: 'probed', sentence: 'probed, never connected' });
    expect(prober[0]!.steps.map((s) => s.probe)).toEqual(['browser-get', 'favicon', 'head']);
  });
});

describe('bad input at the door', () => {
  it('keeps 64 KiB of a 10 MB body on /token, counts all of it, and forwards it whole', async () => {
    const body = 'grant_type=authorization_code&code=' + 'x'.repeat(10 * 1024 * 1024);
    // The body streams on past 1 MiB, and the upstream answers before its end. A client that goes
    // on sending (Node's does; fetch stops, directly too) is read to its last byte, which the
    // record counts once it is in.
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${app.tapUrl}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'big-body', 'content-length': String(Buffer.byteLength(body)) } });
      let waiting = 2; // the answer's end, and the body's last byte sent
      const done = () => --waiting === 0 && resolve();
      req.once('response', (res) => res.resume().once('end', done));
      req.once('error', reject);
      req.end(body, done);
    });
    let record: Awaited<ReturnType<typeof allRequests>>[number] | undefined;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
      [record] = await allRequests(app, 'http.path:/token');
      if (record?.requestBytes === Buffer.byteLength(body) && record.requestBody !== undefined) break;
    }
    expect(record!.requestBytes).toBe(Buffer.byteLength(body));
    expect(record!.requestBody).toMatchObject({ size: Buffer.byteLength(body), truncated: true });
    expect(record!.requestBody!.text.length).toBeLessThanOrEqual(DOOR_BODY_LIMIT + 64);
    // The code was cut, but still redacted.
    expect(record!.requestBody!.text).toMatch(/^grant_type=authorization_code&code=%5Bredacted%5D/);
    await tapStillWorks();
  });

  it('records a query string that is not UTF-8, percent-encoded or raw', async () => {
    await (await fetch(`${app.tapUrl}/search?q=%FF%FE%C3&code=%FFsecret`, { headers: { 'user-agent': 'not-utf8' } })).arrayBuffer();
    const status = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(app.tapUrl).port), '127.0.0.1', () => {
        socket.write(Buffer.concat([Buffer.from('GET /raw?q='), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(' HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')]));
      });
      let text = '';
      socket.on('data', (d) => (text += d.toString('latin1')));
      socket.on('close', () => resolve(text.split('\r\n')[0]!));
      socket.on('error', reject);
    });
    expect(status).toBe('HTTP/1.1 400 Bad Request');
    const encoded = (await allRequests(app, 'http.path:/search')).at(-1)!;
    expect(encoded.path).toBe('/search?q=%FF%FE%C3&code=%5Bredacted%5D%20(9%20chars)');
    const raw = (await allRequests(app, 'http.path:/raw')).at(-1)!;
    expect(raw).toMatchObject({ method: 'GET', path: '/raw?q=%FF%FE%C3', status: 400, answer: 'tap' });
    expect(raw.note).toContain("Node's HTTP parser refused the request");
    await tapStillWorks();
  });

  it('records 10,000 requests to random paths, and the tap stays up', async () => {
    const agent = new Agent({ connections: 16, pipelining: 1 });
    const tap = new URL(app.tapUrl);
    const paths = Array.from({ length: 10_000 }, (_, i) => `/${Math.random().toString(36).slice(2)}/${i}?n=${i}`);
    let next = 0;
    const worker = async () => {
      while (next < paths.length) {
        const path = paths[next++]!;
        const res = await request(`${tap.origin}${path}`, { dispatcher: agent, headers: { 'user-agent': 'random-walker' } });
        await res.body.dump();
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    await agent.close();
    const walked = (await allRequests(app, 'client:random-walker')).filter((r) => r.userAgent === 'random-walker');
    expect(walked).toHaveLength(10_000);
    expect(new Set(walked.map((r) => r.path))).toEqual(new Set(paths));
    expect(walked.every((r) => r.status === 404 && r.end === 'complete' && r.requestBody === undefined)).toBe(true);
    await tapStillWorks();
  }, 120_000);
});
