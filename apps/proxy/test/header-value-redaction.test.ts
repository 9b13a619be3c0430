// Header values are credentials by their shape as well as by their header's name: what the tap
// stores and what an export writes hide them, what the tap forwards is the client's value
// unchanged, and ordinary headers stay readable.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { redactHeaderValue } from '../src/redaction/redact.js';
import { Redactor } from '../src/redaction/export-redaction.js';
import { connectClient, settled } from './helpers.js';
import { apiFetch } from './support/api.js';
import { allRequests } from './support/door-flows.js';
import { listenOnLoopback, type Listening } from './support/loopback.js';
import { startTestMcpscope } from './support/mcpscope.js';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEiLCJleHAiOjE5OTk5OTk5OTl9.c2lnbmF0dXJlX29mX3RoZV90b2tlbg';
const SECRETS = {
  functionsKey: 'fk_7Qz9Lm2Xc4Vb6Nn8Aa1Ss3Dd5Ff7Gg9Hh0Jj',
  xAuthorization: 'xa_4Pp6Oo8Ii0Uu2Yy4Tt6Rr8Ee0Ww2Qq',
  authKey: 'ak_1Mm3Nn5Bb7Vv9Cc1Xx3Zz5Ll7Kk9Jj',
  bearerElsewhere: 'be_9Tt7Rr5Ee3Ww1Qq9Aa7Ss5Dd3Ff1Gg',
  basicElsewhere: 'YWRhOmx1Y3lfb3ZlcmxhY2VfMjAyNg==',
  dpop: JWT,
};

describe('redactHeaderValue by value shape', () => {
  const cases: [string, string, string][] = ([
    ['x-functions-key', SECRETS.functionsKey, ''],
    ['X-Authorization', `Bearer ${SECRETS.xAuthorization}`, 'Bearer '],
    ['x-auth-key', 'short1', ''],
    ['x-upstream-credential-forward', `Bearer ${SECRETS.bearerElsewhere}`, 'Bearer '],
    ['x-forwarded-client', `Basic ${SECRETS.basicElsewhere}`, 'Basic '],
    ['dpop', JWT, ''],
    ['x-session', 'a1b2c3d4e5f6a7b8c9d0e1f2', ''],
    ['x-hub-signature-256', 'sha256=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', ''],
  ] as [string, string, string][]).map(([name, value, scheme]) => [name, value, `${scheme}[redacted] (${value.length} chars)`]);
  it.each(cases)('%s: %s is redacted, its scheme kept', (name, value, expected) => {
    expect(redactHeaderValue(name, value)).toBe(expected);
  });

  const ORDINARY: [string, string][] = [
    ['content-type', 'application/json; charset=utf-8'],
    ['accept', 'application/json, text/event-stream'],
    ['user-agent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'],
    ['user-agent', 'node'],
    ['mcp-session-id', '3f1c2b9a-7d4e-4f60-9a1b-2c3d4e5f6a7b'],
    ['mcp-session-id', JWT],
    ['mcp-protocol-version', '2025-11-25'],
    ['www-authenticate', 'Bearer resource_metadata="http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp"'],
    ['www-authenticate', 'Bearer error="invalid_token", error_description="The access token expired"'],
    ['www-authenticate', 'Basic realm="mcp", charset="UTF-8"'],
    ['traceparent', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['x-request-id', '5b1e9f3a-2c4d-4e6f-8a0b-1c2d3e4f5a6b'],
    ['etag', 'W/"a1b2c3d4e5f6a7b8c9d0"'],
    ['last-event-id', '0123456789abcdef0123456789abcdef'],
    ['sec-websocket-key', 'dGhlIHNhbXBsZSBub25jZQ=='],
    ['idempotency-key', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
    ['x-auth-user', 'ada'],
    ['x-session-affinity', 'sticky'],
    ['x-token-expires', '2026-12-06T13:40:00Z'],
    ['x-api-version', '2024-10-01'],
    ['keep-alive', 'timeout=5, max=1000'],
    ['host', '127.0.0.1:3000'],
    ['origin', 'http://localhost:6274'],
    ['cache-control', 'no-cache'],
    ['x-note', 'Bearer tokens are accepted here'],
  ];
  it.each(ORDINARY)('%s: %s stays readable', (name, value) => {
    expect(redactHeaderValue(name, value)).toBe(value);
  });

  it('leaves any value of an ordinary header as it is, unless it is a Bearer/Basic credential or a JWT', () => {
    const names = fc.constantFrom('content-type', 'accept', 'user-agent', 'mcp-session-id', 'mcp-protocol-version', 'x-request-id', 'traceparent', 'origin', 'accept-language', 'x-custom-header', 'etag');
    const value = fc.string({ unit: fc.constantFrom(...'abcXYZ019 -_.,;=/:()"'), maxLength: 80 });
    fc.assert(
      fc.property(names, value, (name, v) => {
        const credential = /^(bearer|basic)\s/i.test(v) || v.includes('eyJ');
        fc.pre(!credential);
        expect(redactHeaderValue(name, v)).toBe(v);
      }),
    );
  });

  it('is applied to exports too: an imported capture that stored them in clear is redacted on the way out', () => {
    const redactor = new Redactor({ enabled: true });
    const out = redactor.headers({ 'x-functions-key': SECRETS.functionsKey, 'x-other': `Bearer ${SECRETS.bearerElsewhere}`, 'content-type': 'application/json' });
    expect(JSON.stringify(out)).not.toContain(SECRETS.functionsKey);
    expect(JSON.stringify(out)).not.toContain(SECRETS.bearerElsewhere);
    expect(out['content-type']).toBe('application/json');
  });

  it('an export keeps authentication challenges readable', () => {
    const challenges = {
      'www-authenticate': 'Bearer resource_metadata="http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp", scope="files:read"',
      'proxy-authenticate': 'Basic realm="corporate proxy"',
    };
    expect(new Redactor({ enabled: true }).headers(challenges)).toEqual(challenges);
  });
});

describe('credential-shaped headers through the tap', () => {
  let upstream: Listening;
  const received: IncomingHttpHeaders[] = [];
  let app: Mcpscope;

  beforeAll(async () => {
    upstream = await listenOnLoopback(
      createServer((req: IncomingMessage, res: ServerResponse) => {
        received.push(req.headers);
        const server = new McpServer({ name: 'functions-app', version: '1.0.0' });
        server.registerTool('ping', { description: 'Answers pong', inputSchema: { n: z.number() } }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        res.on('close', () => void transport.close());
        void server.connect(transport).then(() => transport.handleRequest(req, res));
      }),
    );
    app = await startTestMcpscope({ target: `${upstream.origin}/mcp` });
  });
  afterAll(async () => {
    await app?.close();
    await upstream?.close();
  });

  it('forwards every header as sent, stores them redacted, and keeps them out of the HAR and JSONL exports', async () => {
    const headers = {
      'x-functions-key': SECRETS.functionsKey,
      'x-authorization': `Bearer ${SECRETS.xAuthorization}`,
      'x-auth-key': SECRETS.authKey,
      'x-upstream-credential-forward': `Bearer ${SECRETS.bearerElsewhere}`,
      'x-forwarded-client': `Basic ${SECRETS.basicElsewhere}`,
      dpop: SECRETS.dpop,
    };
    const client = await connectClient(app.mcpUrl, { headers });
    await client.callTool({ name: 'ping', arguments: { n: 1 } });
    await client.close();
    await settled(app);

    // Transparency: the upstream saw each value exactly as the client sent it.
    const call = received.find((h) => h['x-functions-key'] !== undefined)!;
    for (const [name, value] of Object.entries(headers)) expect(call[name], name).toBe(value);

    const frames = app.store.framesAfter(0, 1000);
    const stored = frames.find((f) => f.raw.includes('"ping"') && f.direction === 'c2s')!.http!.requestHeaders!;
    expect(stored['x-functions-key']).toBe(`[redacted] (${SECRETS.functionsKey.length} chars)`);
    expect(stored['x-authorization']).toBe(`Bearer [redacted] (${headers['x-authorization'].length} chars)`);
    expect(stored['x-forwarded-client']).toBe(`Basic [redacted] (${headers['x-forwarded-client'].length} chars)`);
    expect(stored['content-type']).toBe('application/json');
    expect(stored['mcp-protocol-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const everything = JSON.stringify(frames) + JSON.stringify(await allRequests(app));
    const exports = await Promise.all(['har', 'jsonl'].map(async (format) => (await apiFetch(app, `/api/export?format=${format}`)).text()));
    for (const [name, secret] of Object.entries(SECRETS)) {
      expect(everything.includes(secret), `${name} stored`).toBe(false);
      exports.forEach((text, i) => expect(text.includes(secret), `${name} in export ${i}`).toBe(false));
    }
  });
});
