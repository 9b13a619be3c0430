import { describe, expect, it } from 'vitest';
import { diffText, maskVolatile, VOLATILE_MARK } from './volatile.js';
import { skeletonOf, toolCallSkeleton } from './skeleton.js';
import { CLIENT_METHODS, messageSchema, templateFor } from './message-schema.js';

const GIFT_SCHEMA = {
  type: 'object',
  properties: { occasion: { type: 'string' }, budget: { type: 'number', exclusiveMinimum: 0 }, recipient: { type: 'string' } },
  required: ['occasion', 'budget'],
  additionalProperties: false,
};

describe('ignore volatile fields', () => {
  it('masks ids, timestamps and uuids but keeps what the edit changed', () => {
    const a = { jsonrpc: '2.0', id: 4, result: { content: [{ type: 'text', text: 'ok 50' }], _meta: { createdAt: '2026-12-02T09:00:00Z', requestId: 'a' } } };
    const b = { jsonrpc: '2.0', id: 'mcpscope-replay-9', result: { content: [{ type: 'text', text: 'ok 60' }], _meta: { createdAt: '2026-12-02T09:05:00.123Z', requestId: 'b' } } };
    expect(maskVolatile(a)).toEqual({ ...a, id: VOLATILE_MARK, result: { ...a.result, _meta: { createdAt: VOLATILE_MARK, requestId: VOLATILE_MARK } } });
    expect(diffText(JSON.stringify(a), true)).not.toBe(diffText(JSON.stringify(b), true));
    expect(diffText(JSON.stringify({ ...a, result: { ...a.result, content: b.result.content } }), true)).toBe(diffText(JSON.stringify(b), true));
  });

  it('puts the envelope first so a result and an error line up', () => {
    expect(diffText('{"result":{},"jsonrpc":"2.0","id":3}', false).split('\n').slice(0, 3)).toEqual(['{', '  "jsonrpc": "2.0",', '  "id": 3,']);
  });

  it('shows non-JSON text unchanged', () => {
    expect(diffText('not json', true)).toBe('not json');
  });
});

describe('tool skeletons', () => {
  it('fill the required arguments with values the inputSchema accepts', () => {
    const args = skeletonOf(GIFT_SCHEMA);
    expect(args).toEqual({ occasion: '', budget: 1 });
    expect(JSON.parse(toolCallSkeleton({ name: 'suggest_gifts', inputSchema: GIFT_SCHEMA }))).toEqual({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'suggest_gifts', arguments: { occasion: '', budget: 1 } } });
  });

  it('use defaults, enums and minimums', () => {
    expect(skeletonOf({ type: 'object', required: ['a', 'b', 'c', 'd'], properties: { a: { enum: ['x', 'y'] }, b: { type: 'integer', minimum: 3 }, c: { type: 'string', default: 'd' }, d: { type: 'array', items: { type: 'boolean' }, minItems: 1 } } })).toEqual({ a: 'x', b: 3, c: 'd', d: [false] });
  });
});

describe('the editor schema', () => {
  it('checks tools/call arguments against the chosen tool\'s inputSchema', () => {
    const schema = messageSchema([{ name: 'suggest_gifts', inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', ...GIFT_SCHEMA } }]) as { allOf: { if: { properties: { method: { const: string } } }; then: { properties: { params: Record<string, never> } } }[] };
    const call = schema.allOf.find((b) => b.if.properties.method.const === 'tools/call')!.then.properties.params as unknown as { properties: { name: { enum: string[] } }; allOf: unknown[] };
    expect(call.properties.name.enum).toEqual(['suggest_gifts']);
    expect(call.allOf).toEqual([{ if: { properties: { name: { const: 'suggest_gifts' } }, required: ['name'] }, then: { properties: { arguments: GIFT_SCHEMA } } }]);
  });

  it('has a template for every method, requests with an id and notifications without', () => {
    for (const method of Object.keys(CLIENT_METHODS)) {
      const message = JSON.parse(templateFor(method)) as Record<string, unknown>;
      expect(message).toMatchObject({ jsonrpc: '2.0', method });
      expect('id' in message).toBe(!method.startsWith('notifications/'));
    }
  });
});
