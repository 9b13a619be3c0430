// With no rule acting, the tap is what it was: every request body reaches the upstream byte for byte
// and every answer reaches the client byte for byte, whether no rule exists, a rule matches nothing,
// or a rule exists but is switched off (property-tested over random JSON-RPC bodies).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mcpscope } from '../src/compose/start-mcpscope.js';
import { startTestMcpscope } from './support/mcpscope.js';

let upstream: Server;
let app: Mcpscope;
const received: Buffer[] = [];

beforeAll(async () => {
  // Answers each POST with a body derived from the request's bytes (reversed), as JSON.
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push(body);
      const answer = Buffer.from(body).reverse();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length }).end(answer);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  app = await startTestMcpscope({ target: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp` });
});

afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => upstream?.close(resolve));
});

const message = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.integer(), fc.string()), method: fc.constantFrom('tools/call', 'tools/list', 'initialize', 'ping'), params: fc.dictionary(fc.string(), fc.jsonValue()) }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: fc.string(), params: fc.jsonValue() }),
  fc.array(fc.jsonValue(), { maxLength: 3 }),
);
/** Bodies as a client might write them: any spacing, any JSON, and some that are not JSON at all. */
const body = fc.oneof(
  message.map((m) => JSON.stringify(m)),
  message.map((m) => JSON.stringify(m, null, 2)),
  fc.string({ unit: 'grapheme' }),
);

async function roundTrip(text: string): Promise<{ sent: Buffer; got: Buffer }> {
  const sent = Buffer.from(text);
  const res = await fetch(app.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': 's1' }, body: sent });
  const got = Buffer.from(await res.arrayBuffer());
  return { sent, got };
}

describe('intercept rules off: the tap forwards every frame unchanged', () => {
  for (const setup of ['no rule', 'a rule that matches nothing', 'a rule switched off'] as const) {
    it(`with ${setup}`, async () => {
      for (const rule of app.intercept.rules.list()) app.intercept.remove(rule.id);
      if (setup === 'a rule that matches nothing') app.intercept.add('tool:no-such-tool-anywhere => error -32000 "never"');
      if (setup === 'a rule switched off') {
        const added = app.intercept.add('method:* => drop');
        if (added.ok) app.intercept.setEnabled(added.rule.id, false);
      }
      await fc.assert(
        fc.asyncProperty(body.filter((t) => t.length > 0), async (text) => {
          received.length = 0;
          const { sent, got } = await roundTrip(text);
          expect(received).toHaveLength(1);
          expect(received[0]!.equals(sent)).toBe(true);
          expect(got.equals(Buffer.from(sent).reverse())).toBe(true);
        }),
        { numRuns: 40 },
      );
      expect(app.intercept.interventions()).toEqual([]);
    });
  }
});
