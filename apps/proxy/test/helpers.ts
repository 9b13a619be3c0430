/** Test builders: an SDK client through a tap, and waiting for the capture to settle. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';

export async function connectClient(url: string, requestInit?: RequestInit): Promise<Client> {
  const client = new Client({ name: 'mcpscope-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), requestInit ? { requestInit } : undefined));
  return client;
}

/** Waits until the capture pipeline has flushed what the tap recorded so far. */
export async function settled(app: Mcpscope): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  app.pipeline.flush();
}
