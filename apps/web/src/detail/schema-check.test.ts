import { describe, expect, it } from 'vitest';
import { checkSchema } from './schema-check.js';

const suggest = {
  type: 'object',
  properties: {
    occasion: { type: 'string', minLength: 1 },
    budget: { type: 'number', exclusiveMinimum: 0 },
    tags: { type: 'array', items: { enum: ['a', 'b'] } },
  },
  required: ['occasion', 'budget'],
  additionalProperties: false,
};

describe('schema check', () => {
  it('accepts arguments that fit', () => {
    expect(checkSchema(suggest, { occasion: 'birthday', budget: 20, tags: ['a'] }, '$.params.arguments')).toEqual({ violations: [], unchecked: [] });
  });

  it('points each violation at its JSON path', () => {
    const { violations } = checkSchema(suggest, { budget: '20', extra: 1, tags: ['a', 'z'] }, '$.params.arguments');
    expect(violations).toEqual([
      { path: '$.params.arguments', message: 'missing required property "occasion"' },
      { path: '$.params.arguments.budget', message: 'expected number, got string' },
      { path: '$.params.arguments.extra', message: 'unexpected property "extra" (additionalProperties is false)' },
      { path: '$.params.arguments.tags[1]', message: 'must be one of "a", "b"' },
    ]);
  });

  it('checks bounds and integer types, and names keywords it does not evaluate', () => {
    const schema = { type: 'object', properties: { steps: { type: 'integer', minimum: 1, maximum: 20 }, ref: { $ref: '#/x' } } };
    const result = checkSchema(schema, { steps: 2.5 });
    expect(result.violations).toEqual([{ path: '$.steps', message: 'expected integer, got number' }]);
    expect(checkSchema(schema, { steps: 30 }).violations).toEqual([{ path: '$.steps', message: 'must be ≤ 20' }]);
    expect(result.unchecked).toEqual(['$ref']);
  });
});
