/**
 * A real MCP server (the official SDK's McpServer over Streamable HTTP, one session per
 * Mcp-Session-Id) whose `fetch-report` tool fails with an error that leaks credentials: a bearer
 * token and an api_key in a URL, as a careless server's error message would. `ping-report`
 * answers ok. The evidence pack tests (proxy and e2e) plant these and look for them.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { startSdkServer, type SdkServer } from './sdk-server.js';

/** The secrets the failing call's error carries. */
export const PLANTED = {
  bearer: 'sk-leaky-bearer-7f3a9c2e51d84b06',
  apiKey: 'ak-leaky-url-key-4d2e8b1f9a7c',
};

export const LEAKY_ERROR = `report backend refused GET https://reports.example.com/v1/export?format=csv&api_key=${PLANTED.apiKey} (sent Authorization: Bearer ${PLANTED.bearer}): 401 Unauthorized`;

export function leakyServer(): McpServer {
  const server = new McpServer({ name: 'leaky-reports', version: '3.1.4', title: 'Leaky Reports' });
  server.registerTool('fetch-report', { description: 'Fetches the monthly report from the report backend.' }, async () => {
    throw new Error(LEAKY_ERROR);
  });
  server.registerTool('ping-report', { description: 'Says the report backend is there.' }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
  return server;
}

export type LeakyErrorServer = SdkServer;

export function startLeakyErrorServer(): Promise<LeakyErrorServer> {
  return startSdkServer(leakyServer);
}
