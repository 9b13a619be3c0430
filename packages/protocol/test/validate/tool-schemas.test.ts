// Tool schemas as servers publish them: dialect by $schema, and a budget against hostile schemas.
import { describe, expect, it } from 'vitest';
import { ToolSchemaCompiler } from '../../src/validate/index.js';

const compiler = new ToolSchemaCompiler();

function check(schema: object, value: unknown) {
  const compiled = compiler.compile(schema as never);
  if (!compiled.ok) throw new Error(compiled.detail);
  return compiled.check(value as never);
}

describe('ToolSchemaCompiler', () => {
  it('uses 2020-12 by default: prefixItems constrains a tuple', () => {
    const schema = { type: 'object', properties: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }] } } };
    expect(check(schema, { point: [1, 'x'] })).toEqual([{ path: '.point[1]', message: 'must be number.' }]);
  });

  it('uses draft-07 when the schema says so: array-form items constrains a tuple', () => {
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { point: { type: 'array', items: [{ type: 'number' }, { type: 'number' }] } } };
    expect(check(schema, { point: [1, 'x'] })).toEqual([{ path: '.point[1]', message: 'must be number.' }]);
    expect(check(schema, { point: [1, 2] })).toEqual([]);
  });

  it('refuses schemas over budget instead of compiling them', () => {
    let deep: object = { type: 'string' };
    for (let i = 0; i < 200; i++) deep = { type: 'object', properties: { a: deep } };
    expect(compiler.compile(deep as never)).toMatchObject({ ok: false, reason: 'over-budget' });
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    expect(compiler.compile(wide as never)).toMatchObject({ ok: false, reason: 'over-budget' });
    const redos = { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } };
    expect(compiler.compile(redos as never)).toMatchObject({ ok: false, reason: 'over-budget' });
  });

  it('reports a schema Ajv cannot compile as invalid, without throwing', () => {
    expect(compiler.compile({ type: 'object', properties: { a: { $ref: '#/nowhere' } } } as never)).toMatchObject({ ok: false, reason: 'invalid-schema' });
  });

  it('ignores a tool schema $id so two tools with the same $id do not collide', () => {
    const a = { $id: 'urn:same', type: 'object', properties: { x: { type: 'string' } } };
    const b = { $id: 'urn:same', type: 'object', properties: { x: { type: 'number' } } };
    expect(check(a, { x: 1 })).toHaveLength(1);
    expect(check(b, { x: 1 })).toEqual([]);
  });
});
