/**
 * An official-SDK (v1) Streamable HTTP server with one tool whose arguments a form must nest: a
 * traveller object inside the arguments, an enum, an integer with bounds, a list of strings, a
 * boolean with a default. It answers with the arguments it received, as JSON text.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { startSdkServer, type SdkServer } from './sdk-server.js';

function tripServer(): McpServer {
  const server = new McpServer({ name: 'trip-fixture', version: '1.0.0' });
  server.registerTool(
    'plan-trip',
    {
      description: 'Plans a trip',
      inputSchema: {
        traveller: z.object({ name: z.string().describe('Who travels'), age: z.number().int().min(0).max(120) }).describe('The traveller'),
        mode: z.enum(['train', 'plane', 'boat']).describe('How to travel'),
        stops: z.array(z.string()).describe('Cities on the way'),
        refundable: z.boolean().default(false),
      },
    },
    async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
  );
  return server;
}

export function startTripServer(): Promise<SdkServer> {
  return startSdkServer(tripServer);
}
