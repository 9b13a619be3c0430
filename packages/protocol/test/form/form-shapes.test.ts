// What the form draws for the shapes servers send: an elicitation's requestedSchema (titled and
// legacy enums, multi-selects, formats, defaults), what it leaves to JSON, a prompt's arguments
// and a resource template's variables.
import { describe, expect, it } from 'vitest';
import { expandTemplate, formModel, fromForm, initialForm, promptArgumentsSchema, templateSchema, templateVariables, type ObjectNode } from '../../src/index.js';

const requested = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', description: 'Your full, legal name' },
    integer: { type: 'integer', minimum: 1, maximum: 100, default: 42 },
    hero: { type: 'string', oneOf: [{ const: 'hero-1', title: 'Superman' }, { const: 'hero-2', title: 'Green Lantern' }], default: 'hero-1' },
    fish: { type: 'array', minItems: 1, maxItems: 3, items: { anyOf: [{ const: 'fish-1', title: 'Tuna' }, { const: 'fish-2', title: 'Salmon' }] }, default: ['fish-1'] },
    pet: { type: 'string', enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'] },
    email: { type: 'string', format: 'email' },
  },
  required: ['name'],
};

describe('form model', () => {
  it('draws an elicitation request as labelled controls with help, defaults and required marks', () => {
    const model = formModel(requested) as ObjectNode;
    const byKey = Object.fromEntries(model.fields.map((f) => [f.key, f]));
    expect(byKey.name).toMatchObject({ required: true, node: { kind: 'text', title: 'Name', description: 'Your full, legal name' } });
    expect(byKey.integer!.node).toMatchObject({ kind: 'number', integer: true, minimum: 1, maximum: 100, default: 42 });
    expect(byKey.hero!.node).toMatchObject({ kind: 'choice', options: [{ value: 'hero-1', label: 'Superman' }, { value: 'hero-2', label: 'Green Lantern' }] });
    expect(byKey.fish!.node).toMatchObject({ kind: 'multi', minItems: 1, maxItems: 3, options: [{ label: 'Tuna' }, { label: 'Salmon' }] });
    expect(byKey.pet!.node).toMatchObject({ kind: 'choice', options: [{ value: 'pet-1', label: 'Cats' }, { value: 'pet-2', label: 'Dogs' }] });
    expect(fromForm(model, initialForm(model)).value).toEqual({ name: '', integer: 42, hero: 'hero-1', fish: ['fish-1'] });
  });

  it('leaves to JSON what no control can honour, saying why', () => {
    const model = formModel({
      type: 'object',
      properties: {
        either: { anyOf: [{ type: 'string' }, { type: 'object', properties: { a: { type: 'number' } } }] },
        map: { type: 'object', additionalProperties: { type: 'number' } },
        code: { type: 'string', pattern: '^[A-Z]{3}$' },
        linked: { $ref: '#/$defs/x' },
      },
    }) as ObjectNode;
    expect(model.fields.map((f) => [f.key, f.node.kind])).toEqual([['either', 'json'], ['map', 'json'], ['code', 'json'], ['linked', 'json']]);
    expect(model.fields[2]!.node).toMatchObject({ why: expect.stringContaining('pattern') });
  });

  it('reads a tool schema with no type ({}) as an object with no fields', () => {
    expect(formModel({})).toMatchObject({ kind: 'object', fields: [], openEnded: true });
  });
});

describe('prompt arguments and resource templates', () => {
  it('makes a prompt\'s arguments a form of strings, required where the prompt says', () => {
    const schema = promptArgumentsSchema({ name: 'args', arguments: [{ name: 'city', description: 'Where', required: true }, { name: 'state' }] });
    expect(schema).toMatchObject({ properties: { city: { type: 'string', description: 'Where' }, state: { type: 'string' } }, required: ['city'] });
  });

  it('fills a URI template from its variables (RFC 6570 simple, reserved and query expansion)', () => {
    expect(templateVariables('demo://resource/dynamic/text/{resourceId}')).toEqual([{ name: 'resourceId', optional: false }]);
    expect(templateSchema({ uriTemplate: 'file:///{+path}{?rev,mode}' })).toMatchObject({ required: ['path'] });
    expect(expandTemplate('demo://resource/dynamic/text/{resourceId}', { resourceId: '7' })).toBe('demo://resource/dynamic/text/7');
    expect(expandTemplate('file:///{+path}{?rev,mode}', { path: 'a b/c.txt', rev: 'x&y' })).toBe('file:///a%20b/c.txt?rev=x%26y');
    expect(expandTemplate('x://{a}/{b}', { a: 'p/q' })).toBe('x://p%2Fq/');
  });
});
