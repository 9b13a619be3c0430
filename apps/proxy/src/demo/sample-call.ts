/**
 * The first-run page's "send a sample call": an official SDK client connects through the tap
 * (so the call is captured like any other), lists the tools and asks the demo for gift ideas.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export async function sampleCall(mcpUrl: string): Promise<void> {
  const client = new Client({ name: 'mcpscope-sample', title: 'mcpscope sample call', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  try {
    await client.listTools();
    await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 40, recipient: 'a friend' } });
  } finally {
    await client.close();
  }
}
