// The walking skeleton's promise: an official SDK client talks to the demo server through the
// tap and gets what it would get directly, while every frame lands in the capture.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { connectClient, settled } from './helpers.js';
import { startTestMcpscope } from './support/mcpscope.js';

let app: Mcpscope;
let client: Client;

beforeAll(async () => {
  app = await startTestMcpscope();
  client = await connectClient(app.mcpUrl);
});
afterAll(async () => {
  await client.close();
  await app.close();
});

const exchangesFor = (tool: string) => app.store.exchanges(1000).filter((e) => e.method === 'tools/call' && e.target === tool);

describe('the tap on the demo server', () => {
  it('forwards a successful tools/call and records it as ok', async () => {
    const result = await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 60, recipient: 'Ada' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ gifts: expect.arrayContaining([{ name: 'Personalised star map print', price: 55 }]) });
    await settled(app);
    const [ex] = exchangesFor('suggest_gifts');
    expect(ex).toMatchObject({ status: 'ok', requester: 'client', rpcId: expect.any(Number) });
    const frames = app.store.framesBySeq(ex!.frameSeqs);
    expect(frames.map((f) => f.direction)).toEqual(['c2s', 's2c']);
    expect(JSON.parse(frames[0]!.raw).params.arguments).toEqual({ occasion: 'birthday', budget: 60, recipient: 'Ada' });
  });

  it('records a business error (isError: true) as business_error', async () => {
    const result = await client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 5 } });
    expect(result.isError).toBe(true);
    await settled(app);
    expect(exchangesFor('suggest_gifts')[0]).toMatchObject({ status: 'business_error', errorMessage: expect.stringContaining('No gift fits a budget of $5') });
  });

  it('records arguments that break the schema as a protocol error with code -32602', async () => {
    await expect(client.callTool({ name: 'suggest_gifts', arguments: { occasion: 'birthday', budget: 'cheap' } })).rejects.toMatchObject({ code: -32602 });
    await settled(app);
    expect(exchangesFor('suggest_gifts')[0]).toMatchObject({ status: 'protocol_error', errorCode: -32602 });
  });

  it('links progress notifications to their tools/call', async () => {
    const seen: number[] = [];
    await client.callTool({ name: 'wrap_gift', arguments: { gift: 'mug', steps: 3 } }, undefined, { onprogress: (p) => seen.push(p.progress) });
    expect(seen).toEqual([1, 2, 3]);
    await settled(app);
    const [ex] = exchangesFor('wrap_gift');
    expect(ex).toMatchObject({ status: 'ok' });
    expect(ex!.frameSeqs).toHaveLength(5); // request, 3 progress, response
  });

  it('serves the catalogue resource and the congratulation prompt unchanged', async () => {
    const resource = await client.readResource({ uri: 'gifts://catalog' });
    const catalog = JSON.parse((resource.contents[0] as { text: string }).text);
    expect(catalog).toMatchObject({ categories: expect.arrayContaining(['tech']), minPrice: 18, maxPrice: 320 });
    const prompt = await client.getPrompt({ name: 'gift_congrats_style', arguments: { recipient: 'Ada' } });
    expect(prompt.messages[0]!.content).toMatchObject({ type: 'text', text: expect.stringContaining('Ada') });
  });

  it('records the session with its client and negotiated revision', async () => {
    await settled(app);
    const [session] = app.store.sessions();
    expect(session).toMatchObject({ protocolVersion: '2025-11-25', clientInfo: { name: 'mcpscope-test', version: '1.0.0' }, serverInfo: { name: 'gift-ideas' } });
  });
});
