/**
 * A 2026-07-28 (stateless) MCP server and client from the official SDK v2
 * (`@modelcontextprotocol/server` / `client` 2.4.0), for the modern era: no initialize, no
 * session, per-request `_meta`, progress on the request's own SSE stream, and a multi-round-trip
 * tool (an `input_required` elicitation, then the retry with `requestState`).
 */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { acceptedContent, createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export interface ModernServer {
  url: string;
  close(): Promise<void>;
}

function server(): McpServer {
  const s = new McpServer({ name: 'modern-fixture', version: '1.0.0' });
  s.registerTool('forecast', { description: 'The weather in a city', inputSchema: z.object({ city: z.string() }) }, async ({ city }) => ({
    content: [{ type: 'text', text: `${city}: 21°C, clear` }],
    structuredContent: { city, temperature: 21, conditions: 'clear' },
  }));
  s.registerTool('countdown', { description: 'Counts down with progress', inputSchema: z.object({ steps: z.number() }) }, async ({ steps }, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
      await new Promise((r) => setTimeout(r, 20));
    }
    return { content: [{ type: 'text', text: 'liftoff' }] };
  });
  s.registerTool('deploy', { description: 'Deploys after a confirmation', inputSchema: z.object({ env: z.string() }) }, async ({ env }, ctx) => {
    const confirmed = acceptedContent<{ confirm: boolean }>(ctx.mcpReq.inputResponses, 'confirm');
    if (confirmed?.confirm !== true) {
      return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: `Deploy to ${env}?`, requestedSchema: z.object({ confirm: z.boolean() }) }) } });
    }
    return { content: [{ type: 'text', text: `deployed to ${env}` }] };
  });
  return s;
}

export async function startModernServer(): Promise<ModernServer> {
  const handler = createMcpHandler(() => server(), { legacy: 'reject' });
  const http = serve({ fetch: (request) => handler.fetch(request), port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => http.once('listening', () => resolve()));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: async () => {
      await handler.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The SDK v2 client's session, pinned to 2026-07-28; returns what a user of it would notice. */
export async function modernSession(url: string) {
  const client = new Client({ name: 'modern-test', version: '1.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    const forecast = await client.callTool({ name: 'forecast', arguments: { city: 'Lyon' } });
    const progress: number[] = [];
    const countdown = await client.callTool({ name: 'countdown', arguments: { steps: 3 } }, { onprogress: (p) => progress.push(p.progress) });
    const deploy = await client.callTool({ name: 'deploy', arguments: { env: 'staging' } });
    return { tools, forecast: { content: forecast.content, structuredContent: forecast.structuredContent }, countdown: countdown.content, progress, deploy: deploy.content };
  } finally {
    await client.close();
  }
}
