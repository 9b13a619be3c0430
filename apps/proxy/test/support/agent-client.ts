/**
 * The official SDK client on mcpscope's agent MCP server: over Streamable HTTP at a dashboard's
 * `/mcp` (with its token), or over stdio from `mcpscope mcp` run from source (tsx, no build).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const CLI = new URL('../../src/commands/cli.ts', import.meta.url).pathname;
/** `node … cli.ts` from source, as argv. */
export const CLI_ARGV = [process.execPath, '--conditions=mcpscope-source', '--import', 'tsx', CLI];

export async function agentOverHttp(dashboardUrl: string, token: string): Promise<Client> {
  const client = new Client({ name: 'agent-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', dashboardUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

export async function agentOverStdio(args: string[], env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'agent-test', version: '1.0.0' });
  const [command, ...rest] = CLI_ARGV;
  await client.connect(new StdioClientTransport({ command: command!, args: [...rest, 'mcp', ...args], env: { ...(process.env as Record<string, string>), ...env }, stderr: 'pipe' }));
  return client;
}

/** Calls a tool; the result as the client returns it (the client checks structuredContent against outputSchema). */
export async function call<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult & { structuredContent: T }> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent: T };
}

export const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
