// The form generator against the validator mcpscope checks tool arguments with: for schemas the
// controls can express (objects, nested objects, arrays, enums, numbers and integers with bounds,
// booleans, required fields, defaults), every value the form starts from validates, and any
// valid value put into the form comes back out unchanged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formModel, fromForm, initialForm, toForm, type JsonObject, type JsonValue } from '../../src/index.js';
import { ToolSchemaCompiler } from '../../src/validate/index.js';

const compiler = new ToolSchemaCompiler();
const issues = (schema: JsonObject, value: JsonValue) => {
  const compiled = compiler.compile(schema);
  if (!compiled.ok) throw new Error(`schema did not compile: ${compiled.detail}`);
  return compiled.check(value);
};

/** A schema and the arbitrary of the values it accepts. */
interface Sample {
  schema: JsonObject;
  values: fc.Arbitrary<JsonValue>;
}

const described = (s: JsonObject) => fc.option(fc.string({ maxLength: 12 }), { nil: undefined }).map((d) => (d === undefined ? s : { ...s, description: d }));

const text: fc.Arbitrary<Sample> = fc.oneof(
  fc.tuple(fc.nat(4), fc.nat(6)).map(([min, extra]) => ({ schema: { type: 'string', minLength: min, maxLength: min + extra } as JsonObject, values: fc.string({ minLength: min, maxLength: min + extra }) as fc.Arbitrary<JsonValue> })),
  fc.constant<Sample>({ schema: { type: 'string' }, values: fc.string() }),
  fc.constant<Sample>({ schema: { type: 'string', format: 'email' }, values: fc.constantFrom('a@b.co', 'ada@example.org') }),
  fc.constant<Sample>({ schema: { type: 'string', format: 'date-time' }, values: fc.constantFrom('2024-05-01T10:00:00Z') }),
);

const bound = fc.option(fc.integer({ min: -50, max: 50 }), { nil: undefined });
const numeric: fc.Arbitrary<Sample> = fc
  .record({ integer: fc.boolean(), a: bound, b: bound, exclusiveLow: fc.boolean(), exclusiveHigh: fc.boolean() })
  .map(({ integer, a, b, exclusiveLow, exclusiveHigh }) => {
    const [low, high] = a !== undefined && b !== undefined && a > b ? [b, a] : [a, b];
    const schema: JsonObject = { type: integer ? 'integer' : 'number' };
    // Only satisfiable ranges: exclusive bounds need room between them.
    const room = low === undefined || high === undefined || high - low >= 2;
    const [lowOut, highOut] = [exclusiveLow && room, exclusiveHigh && room];
    if (low !== undefined) schema[lowOut ? 'exclusiveMinimum' : 'minimum'] = low;
    if (high !== undefined) schema[highOut ? 'exclusiveMaximum' : 'maximum'] = high;
    const min = low ?? -1000;
    const max = high ?? 1000;
    // Values the schema accepts: an exclusive bound is not one of them (they also become defaults).
    const inside = (v: number) => !(lowOut && v === low) && !(highOut && v === high);
    const values = (integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true })).filter(inside);
    return { schema, values: values as fc.Arbitrary<JsonValue> };
  });

const scalar = fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -9, max: 9 }), fc.boolean(), fc.constant(null));
const options = fc.uniqueArray(scalar, { minLength: 1, maxLength: 4, selector: (v) => JSON.stringify(v) });
const choice: fc.Arbitrary<Sample> = fc.oneof(
  options.map((values) => ({ schema: { enum: values } as JsonObject, values: fc.constantFrom(...values) as fc.Arbitrary<JsonValue> })),
  fc.uniqueArray(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 4 }).map((values) => ({
    schema: { type: 'string', oneOf: values.map((v, i) => ({ const: v, title: `Option ${i}` })) } as JsonObject,
    values: fc.constantFrom(...values) as fc.Arbitrary<JsonValue>,
  })),
);
const multi: fc.Arbitrary<Sample> = fc.tuple(fc.uniqueArray(fc.string({ maxLength: 6 }), { minLength: 2, maxLength: 5 }), fc.nat(2)).map(([values, min]) => ({
  schema: { type: 'array', items: { type: 'string', enum: values }, uniqueItems: true, minItems: Math.min(min, values.length) } as JsonObject,
  values: fc.uniqueArray(fc.constantFrom(...values), { minLength: Math.min(min, values.length) }) as fc.Arbitrary<JsonValue>,
}));

const leaf: fc.Arbitrary<Sample> = fc.oneof(text, numeric, fc.constant<Sample>({ schema: { type: 'boolean' }, values: fc.boolean() }), choice, multi);

/** Gives a schema a default taken from its own values, now and then. */
function withDefault(sample: fc.Arbitrary<Sample>): fc.Arbitrary<Sample> {
  return sample.chain((s) =>
    fc.option(s.values, { nil: undefined, freq: 3 }).chain((d) => described(d === undefined ? s.schema : { ...s.schema, default: d }).map((schema) => ({ schema, values: s.values }))),
  );
}

const { sample } = fc.letrec<{ sample: Sample; object: Sample; array: Sample }>((tie) => ({
  sample: fc.oneof({ depthSize: 'small', withCrossShrink: true }, withDefault(leaf), tie('object'), tie('array')),
  object: fc
    .uniqueArray(fc.tuple(fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,7}$/), tie('sample'), fc.boolean()), { maxLength: 4, selector: (t) => t[0] })
    .chain((entries) =>
      fc.boolean().map((closed) => {
        const schema: JsonObject = { type: 'object', properties: Object.fromEntries(entries.map(([k, s]) => [k, s.schema])), required: entries.filter((e) => e[2]).map((e) => e[0]) };
        if (closed) schema.additionalProperties = false;
        const model = Object.fromEntries(entries.map(([k, s]) => [k, s.values]));
        return { schema, values: fc.record(model, { requiredKeys: entries.filter((e) => e[2]).map((e) => e[0]) }) as fc.Arbitrary<JsonValue> };
      }),
    ),
  array: fc.tuple(tie('sample'), fc.nat(2), fc.nat(3)).map(([item, min, extra]) => ({
    schema: { type: 'array', items: item.schema, minItems: min, maxItems: min + extra } as JsonObject,
    values: fc.array(item.values, { minLength: min, maxLength: min + extra }),
  })),
}));

/** Tool inputSchemas: always an object at the top. */
const toolSchema = fc.tuple(fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z]{1,6}$/), sample, fc.boolean()), { maxLength: 5, selector: (t) => t[0] })).map(([entries]) => ({
  schema: { type: 'object', properties: Object.fromEntries(entries.map(([k, s]) => [k, s.schema])), required: entries.filter((e) => e[2]).map((e) => e[0]) } as JsonObject,
  values: fc.record(Object.fromEntries(entries.map(([k, s]) => [k, s.values])), { requiredKeys: entries.filter((e) => e[2]).map((e) => e[0]) }) as fc.Arbitrary<JsonValue>,
}));

describe('form generator', () => {
  it('starts every form from arguments the schema accepts', () => {
    fc.assert(
      fc.property(toolSchema, ({ schema }) => {
        const model = formModel(schema);
        const { value, problems } = fromForm(model, initialForm(model));
        expect(problems).toEqual([]);
        expect(issues(schema, value), JSON.stringify({ schema, value })).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it('gives back any valid value put into the form (values ↔ form round trip)', () => {
    fc.assert(
      fc.property(toolSchema.chain((s) => fc.tuple(fc.constant(s.schema), s.values)), ([schema, value]) => {
        fc.pre(issues(schema, value).length === 0);
        const model = formModel(schema);
        const form = toForm(model, value);
        expect(form, JSON.stringify({ schema, value })).toBeDefined();
        const back = fromForm(model, form!);
        expect(back.problems).toEqual([]);
        expect(JSON.stringify(back.value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 60 },
    );
  });

  it('keeps text it cannot read as the field\'s type, and says so, so a breaking value can be sent', () => {
    const model = formModel({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['a'] });
    const form = initialForm(model);
    const typed = { fields: { a: { on: true, value: 'two' }, b: { on: true, value: '{"x": ' } } };
    const { value, problems } = fromForm(model, typed);
    expect(form).toBeDefined();
    expect(value).toEqual({ a: 'two', b: '{"x": ' });
    expect(problems.map((p) => p.path)).toEqual(['$.a', '$.b']);
  });
});
