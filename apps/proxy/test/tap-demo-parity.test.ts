// The embedded demo server directly and through the tap: same answers for the SDK client, and
// the capture holds each message of the session once, in order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';
import { recordWire } from './support/scenario.js';
import { asMultiset, dataFrames, parsed } from './support/capture.js';

let app: Mcpscope;
beforeAll(async () => {
  app = await startTestMcpscope();
});
afterAll(() => app?.close());

async function session(client: Client) {
  const progress: number[] = [];
  return {
    tools: (await client.listTools()).tools,
    gifts: await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 60 } }),
    tooCheap: await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 5 } }),
    wrapped: await client.callTool({ name: 'wrap_gift', arguments: { gift: 'mug', steps: 2 } }, undefined, { onprogress: (p) => progress.push(p.progress) }),
    progress,
    badArgs: await client.callTool({ name: 'suggest_gifts', arguments: { budget: 'cheap' } }).catch((e: { code: number }) => e.code),
    resources: (await client.listResources()).resources,
    catalog: await client.readResource({ uri: 'gifts://catalog' }),
    prompts: (await client.listPrompts()).prompts,
    prompt: await client.getPrompt({ name: 'gift_congrats_style', arguments: { recipient: 'Ada' } }),
  };
}

describe('the demo server through the tap', () => {
  it('answers exactly as directly, and every frame is captured once', async () => {
    const direct = new Client({ name: 'parity', version: '1' });
    await direct.connect(new StreamableHTTPClientTransport(new URL(app.demo!.url)));
    const expected = await session(direct);
    await direct.close();

    const { transport, wire } = recordWire(new StreamableHTTPClientTransport(new URL(app.mcpUrl)));
    const client = new Client({ name: 'parity', version: '1' });
    await client.connect(transport);
    expect(await session(client)).toEqual(expected);
    const key = transport.sessionId!;
    await transport.terminateSession();
    await client.close();
    await settled(app);
    expect(parsed(dataFrames(app, key, 'c2s'))).toEqual(wire.sent);
    expect(asMultiset(parsed(dataFrames(app, key, 's2c')))).toEqual(asMultiset(wire.received));
  });
});
