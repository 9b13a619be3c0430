// Issue 23 item 11: a schema diagnostic names the branch the sender meant (the discriminator it
// carries, or the near-miss type), not Ajv's first branch; its severity follows what the official
// SDK's own schema accepts (accepted there = a warning: SDK-based peers take it).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SchemaValidator } from '../../src/validate/index.js';
import type { JsonObject } from '../../src/model/json-rpc.js';

const validator = new SchemaValidator();

const elicitAnswer = (content: JsonObject): JsonObject => ({ jsonrpc: '2.0', id: 4, result: { action: 'accept', content } });
const elicitRequest = { method: 'elicitation/create', params: { message: 'How many?', requestedSchema: { type: 'object', properties: { number: { type: 'number' } } } } };
const toolAnswer = (content: unknown[]): JsonObject => ({ jsonrpc: '2.0', id: 2, result: { content } as JsonObject });
const toolRequest = { method: 'tools/call', params: { name: 'draw', arguments: {} } };

const cases: Array<{ name: string; value: JsonObject; request: { method: string; params?: JsonObject }; path: string; message: RegExp; severity?: 'warning' }> = [
  {
    name: 'elicitation content 3.14: the integer branch, not "must be array"; the SDK takes it',
    value: elicitAnswer({ number: 3.14 }),
    request: elicitRequest,
    path: '$.result.content.number',
    message: /must be an integer \(3\.14 has a fraction\)/,
    severity: 'warning',
  },
  {
    name: 'elicitation content object: no branch fits, named as the scalar types',
    value: elicitAnswer({ nested: { a: 1 } }),
    request: elicitRequest,
    path: '$.result.content.nested',
    message: /must be (array|string or integer or boolean)/,
  },
  {
    name: 'an image block without data: ImageContent\'s missing "data", not TextContent\'s "text"',
    value: toolAnswer([{ type: 'image', mimeType: 'image/png' }]),
    request: toolRequest,
    path: '$.result.content[0]',
    message: /required property "data"/,
  },
  {
    name: 'a text block whose text is a number: the text branch\'s type',
    value: toolAnswer([{ type: 'text', text: 5 }]),
    request: toolRequest,
    path: '$.result.content[0].text',
    message: /must be string/,
  },
];

describe('the most specific branch, graded by the SDK', () => {
  it.each(cases)('$name', ({ value, request, path, message, severity }) => {
    const issues = validator.validateMessage({ revision: '2025-11-25', sender: 'server', value, request });
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toBe(path);
    expect(issues[0]!.message).toMatch(message);
    expect(issues[0]!.severity).toBe(severity);
  });

  it('any fractional number in an elicitation answer is reported at its own key as an integer problem', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/),
        fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }).filter((n) => !Number.isInteger(n)),
        (key, n) => {
          const [issue] = validator.validateMessage({ revision: '2025-11-25', sender: 'server', value: elicitAnswer({ ok: 'yes', [key]: n }), request: elicitRequest });
          expect(issue?.path).toBe(`$.result.content.${key}`);
          expect(issue?.message).toMatch(/must be an integer/);
        },
      ),
      { numRuns: 200 },
    );
  });
});
