// Spans carry no secret, bodies or not: a real SDK server answers with error messages that quote
// a bearer token, a JWT and `?api_key=` URLs, serves a resource whose URI has a key in its query,
// and reports progress with a password in the message; the live OTLP export (without
// `--otlp-bodies`) goes to a loopback OTLP/HTTP receiver, whose raw payloads are scanned for every
// planted secret. The JSONL export of the same capture is scanned too.
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { resolveOtlpConfig } from '../src/otlp/otlp-config.js';
import { connectClient, settled } from './helpers.js';
import { apiFetch } from './support/api.js';
import { listenOnLoopback, type Listening } from './support/loopback.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { startOtlpReceiver, type OtlpReceiver } from './support/otlp-receiver.js';

const SECRETS = {
  bearer: 'tok_SPANBEARER_6d5c4b3a2f1e0d9c',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzcGFuIiwiZXhwIjo5OTk5OTk5OTk5fQ.c3Bhbi1zaWduYXR1cmUtc2VjcmV0',
  queryKey: 'qk_SPANQUERY_1a2b3c4d5e6f7a8b',
  resourceKey: 'rk_SPANRESOURCE_9f8e7d6c5b4a',
  missingKey: 'mk_SPANMISSING_0a9b8c7d6e5f',
  progressPassword: 'pw_SPANPROGRESS_5e4d3c2b1a0f',
};
const RESOURCE = `https://data.example/report.csv?api_key=${SECRETS.resourceKey}&format=csv`;

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'leaky-errors', version: '1.0.0' });
  server.registerTool('fetch_report', { description: 'Fetches a report', inputSchema: { id: z.string() } }, async () => ({
    isError: true,
    content: [{ type: 'text', text: `GET https://api.example/v1/report?api_key=${SECRETS.queryKey}&format=csv failed: 401. Sent Authorization: Bearer ${SECRETS.bearer}; the token ${SECRETS.jwt} expired` }],
  }));
  server.registerTool('slow_sync', { description: 'Syncs with progress', inputSchema: { steps: z.number() } }, async ({ steps }, extra) => {
    const token = extra._meta?.progressToken;
    if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: 1, total: steps, message: `retrying login with password=${SECRETS.progressPassword}` } });
    return { content: [{ type: 'text', text: 'synced' }] };
  });
  server.registerResource('report', RESOURCE, { mimeType: 'text/csv' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'a,b\n1,2\n' }] }));
  return server;
}

let upstream: Listening;
let receiver: OtlpReceiver;
let app: Mcpscope;

beforeAll(async () => {
  upstream = await listenOnLoopback(
    createServer((req, res) => {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close());
      void mcpServer()
        .connect(transport)
        .then(() => transport.handleRequest(req, res));
    }),
  );
  receiver = await startOtlpReceiver();
  const otlp = resolveOtlpConfig({ otlp: receiver.origin }, { OTEL_BSP_SCHEDULE_DELAY: '10' });
  if (!otlp.ok || !otlp.config) throw new Error('config');
  expect(otlp.config.bodies).toBe(false);
  app = await startTestMcpscope({ target: `${upstream.origin}/mcp`, otlp: otlp.config });

  const client = await connectClient(app.mcpUrl);
  await client.callTool({ name: 'fetch_report', arguments: { id: 'q3' } });
  await client.callTool({ name: 'slow_sync', arguments: { steps: 2 } }, undefined, { onprogress: () => {} });
  await client.readResource({ uri: RESOURCE });
  await client.readResource({ uri: `https://data.example/missing.csv?api_key=${SECRETS.missingKey}` }).catch(() => undefined);
  await client.close();
  await settled(app);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await Promise.all([upstream?.close(), receiver?.close()]);
});

describe('spans without --otlp-bodies', () => {
  it('carry no planted secret in any attribute, event, link or status, and still say what happened', async () => {
    const failed = (await receiver.waitFor(1, (s) => s.name === 'tools/call fetch_report'))[0]!;
    const read = (await receiver.waitFor(1, (s) => s.name === 'resources/read' && String(s.attributes['mcp.resource.uri']).includes('report.csv')))[0]!;
    const missing = (await receiver.waitFor(1, (s) => s.name === 'resources/read' && String(s.attributes['mcp.resource.uri']).includes('missing.csv')))[0]!;
    const sync = (await receiver.waitFor(1, (s) => s.name === 'tools/call slow_sync' && s.events.some((e) => e.name === 'notifications/progress')))[0]!;

    const payloads = receiver.payloads.map((p) => p.toString('latin1')).join('\n');
    for (const [name, secret] of Object.entries(SECRETS)) expect(payloads.includes(secret), `${name} in a span`).toBe(false);

    expect(failed.attributes['mcpscope.error.message']).toMatch(/^GET https:\/\/api\.example\/v1\/report\?api_key=%5Bredacted%5D.*&format=csv failed: 401\. Sent Authorization: Bearer \[redacted\]; the token \[redacted\] expired$/);
    expect(failed.status.message).toBe(failed.attributes['mcpscope.error.message']);
    expect(read.attributes['mcp.resource.uri']).toMatch(/^https:\/\/data\.example\/report\.csv\?api_key=%5Bredacted%5D.*&format=csv$/);
    expect(missing.attributes['rpc.response.status_code']).toBeDefined();
    const progress = sync.events.find((e) => e.name === 'notifications/progress')!;
    expect(progress.attributes['mcpscope.progress.message']).toMatch(/^retrying login with password=\[redacted\] \(\d+ chars\)$/);
  });
});

describe('the JSONL export of the same capture', () => {
  it('holds none of them: not in error messages, tool results or resource URIs', async () => {
    const jsonl = await (await apiFetch(app, '/api/export?format=jsonl')).text();
    expect(jsonl).toContain('fetch_report');
    for (const [name, secret] of Object.entries(SECRETS)) expect(jsonl.includes(secret), `${name} in the JSONL`).toBe(false);
  });
});
