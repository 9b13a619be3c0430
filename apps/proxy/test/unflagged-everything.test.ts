// The unflagged business-error heuristic against real results: every tool of server-everything,
// called the way a client normally does through the tap, and not one warning — except the one
// result that really is an error without isError (get-annotated-message's "Error: Operation
// failed", which the server sends as a successful result to show off annotations).
import { describe, expect, it } from 'vitest';
import { settled } from './helpers.js';
import { newClient } from './support/scenario.js';
import { startEverything } from './support/everything.js';
import { proxiedUpstream } from './support/proxy-fixture.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const proxy = proxiedUpstream(() => startEverything('streamableHttp'));

/** Normal calls of every tool that runs offline and finishes at once (gzip-file-as-resource fetches a URL; the task tools run for minutes). */
const NORMAL: [tool: string, args: Record<string, unknown>][] = [
  ['echo', { message: 'hello through the tap' }],
  ['get-sum', { a: 2, b: 40 }],
  ['get-tiny-image', {}],
  ['get-annotated-message', { messageType: 'success', includeImage: true }],
  ['get-annotated-message', { messageType: 'debug' }],
  ['get-env', {}],
  ['get-resource-links', { count: 4 }],
  ['get-resource-reference', { resourceType: 'Text', resourceId: 2 }],
  ['get-resource-reference', { resourceType: 'Blob', resourceId: 3 }],
  ['get-structured-content', { location: 'Chicago' }],
  ['trigger-long-running-operation', { duration: 0.2, steps: 2 }],
  ['toggle-simulated-logging', {}],
  ['toggle-simulated-logging', {}],
  ['toggle-subscriber-updates', {}],
  ['toggle-subscriber-updates', {}],
  ['trigger-sampling-request', { prompt: 'a haiku about pipes', maxTokens: 20 }],
  ['trigger-elicitation-request', {}],
];

describe('unflagged business errors on real server-everything results', () => {
  it('no normal result is flagged; the one error-shaped success is', async () => {
    const client = newClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.app.mcpUrl)));
    const listed = new Set((await client.listTools()).tools.map((t) => t.name));
    for (const [tool, args] of NORMAL) {
      expect(listed, `server-everything offers ${tool}`).toContain(tool);
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result.isError, `${tool} succeeded`).not.toBe(true);
    }
    await settled(proxy.app);
    const flagged = () => proxy.app.store.db.prepare("SELECT COUNT(*) AS n FROM diagnostics WHERE code = 'unflagged-business-error'").get() as { n: number };
    expect(flagged().n).toBe(0);
    // Every call was captured and answered: the heuristic saw them all.
    expect(proxy.app.store.exchanges(500).filter((e) => e.method === 'tools/call' && e.status === 'ok')).toHaveLength(NORMAL.length);

    await client.callTool({ name: 'get-annotated-message', arguments: { messageType: 'error' } });
    await settled(proxy.app);
    const [hit] = proxy.app.store.db.prepare("SELECT path, message FROM diagnostics WHERE code = 'unflagged-business-error'").all() as { path: string; message: string }[];
    expect(hit).toMatchObject({ path: '$.result.content[0].text', message: expect.stringContaining('printed error') });
    await client.close();
  });
});
