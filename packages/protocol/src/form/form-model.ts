/**
 * A form from a JSON Schema (a tool's `inputSchema`, an elicitation's `requestedSchema`, a
 * prompt's arguments): one node per value, each a control the dashboard knows how to draw.
 * Whatever the controls cannot promise to express — unions of shapes, maps, tuples, patterns,
 * `$ref`, `allOf`, `not` — becomes a `json` node (edited as JSON text), so the form never
 * claims to check what it does not. Pure: schema in, model out; the values live in form-values.ts.
 */
import type { JsonObject, JsonValue } from '../model/json-rpc.js';

export interface ChoiceOption {
  value: JsonValue;
  /** What the user reads: the option's `title` (oneOf/anyOf), `enumNames` entry, or the value. */
  label: string;
}

interface NodeBase {
  title?: string;
  /** The schema's `description`, shown as help. */
  description?: string;
  default?: JsonValue;
}

export interface ObjectNode extends NodeBase {
  kind: 'object';
  fields: FormField[];
  /** False when the schema forbids keys it does not list (`additionalProperties: false`). */
  openEnded: boolean;
}
export interface ArrayNode extends NodeBase {
  kind: 'array';
  item: FormNode;
  minItems?: number;
  maxItems?: number;
}
/** One value from a fixed list (`enum`, or `oneOf`/`anyOf` of `const`s). */
export interface ChoiceNode extends NodeBase {
  kind: 'choice';
  options: ChoiceOption[];
}
/** Several distinct values from a fixed list (an array whose items are a choice). */
export interface MultiNode extends NodeBase {
  kind: 'multi';
  options: ChoiceOption[];
  minItems?: number;
  maxItems?: number;
}
export interface TextNode extends NodeBase {
  kind: 'text';
  format?: string;
  minLength?: number;
  maxLength?: number;
}
export interface NumberNode extends NodeBase {
  kind: 'number';
  integer: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}
export interface BooleanNode extends NodeBase {
  kind: 'boolean';
}
/** Edited as JSON text: the schema says more than the controls could honour. */
export interface JsonNode extends NodeBase {
  kind: 'json';
  /** Why no control fits, for the help text. */
  why: string;
  /** The schema itself, for a skeleton. */
  schema: JsonObject;
}

export type FormNode = ObjectNode | ArrayNode | ChoiceNode | MultiNode | TextNode | NumberNode | BooleanNode | JsonNode;

export interface FormField {
  key: string;
  required: boolean;
  node: FormNode;
}

type Schema = { [key: string]: unknown };
const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const count = (v: unknown): number | undefined => (Number.isInteger(v) && (v as number) >= 0 ? (v as number) : undefined);

/** Keywords no control honours: where one appears, the value is edited as JSON. */
const UNEXPRESSED = ['$ref', 'allOf', 'not', 'if', 'pattern', 'patternProperties', 'multipleOf', 'prefixItems', 'contains', 'dependentRequired', 'dependentSchemas', 'propertyNames', 'minProperties', 'maxProperties'];
const MAX_DEPTH = 12;

/** The form for `schema`. At the top (`root`), a schema with no type is an object (a tool's `{}`). */
export function formModel(schema: unknown, root = true): FormNode {
  return nodeOf(isSchema(schema) ? schema : {}, root, 0);
}

function nodeOf(schema: Schema, root: boolean, depth: number): FormNode {
  const base = baseOf(schema);
  const json = (why: string): JsonNode => ({ ...base, kind: 'json', why, schema: schema as JsonObject });
  if (depth > MAX_DEPTH) return json('nested too deep for a form');
  const unexpressed = UNEXPRESSED.find((k) => k in schema);
  if (unexpressed) return json(`the schema uses ${unexpressed}, which the form cannot check`);
  if ('const' in schema) return { ...base, kind: 'choice', options: [{ value: schema.const as JsonValue, label: labelOf(schema.const) }] };
  const choice = choicesOf(schema);
  if (choice === 'mixed') return json('one of several shapes');
  if (choice) return { ...base, kind: 'choice', options: choice };

  const type = typeOf(schema, root);
  if (type === 'unknown') return json(Array.isArray(schema.type) ? `one of the types ${schema.type.join(', ')}` : 'any JSON value');
  switch (type) {
    case 'object':
      return objectOf(schema, base, depth, json);
    case 'array':
      return arrayOf(schema, base, depth, json);
    case 'string': {
      const node: TextNode = { ...base, kind: 'text' };
      if (typeof schema.format === 'string') node.format = schema.format;
      const min = count(schema.minLength);
      const max = count(schema.maxLength);
      if (min !== undefined) node.minLength = min;
      if (max !== undefined) node.maxLength = max;
      if (min !== undefined && max !== undefined && min > max) return json('a length no string can have');
      return node;
    }
    case 'number':
    case 'integer':
      return numberOf(schema, base, type === 'integer', json);
    case 'boolean':
      return { ...base, kind: 'boolean' };
  }
}

function baseOf(schema: Schema): NodeBase {
  const base: NodeBase = {};
  if (typeof schema.title === 'string') base.title = schema.title;
  if (typeof schema.description === 'string') base.description = schema.description;
  if ('default' in schema) base.default = schema.default as JsonValue;
  return base;
}

/** The one type a control can edit; `[T, "null"]` edits T (a null value falls back to JSON). */
function typeOf(schema: Schema, root: boolean): 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'unknown' {
  let type = schema.type;
  if (Array.isArray(type)) {
    const real = type.filter((t) => t !== 'null');
    type = real.length === 1 ? real[0] : undefined;
  }
  if (type === undefined && (isSchema(schema.properties) || root)) return 'object';
  if (type === undefined && isSchema(schema.items)) return 'array';
  return type === 'object' || type === 'array' || type === 'string' || type === 'number' || type === 'integer' || type === 'boolean' ? type : 'unknown';
}

/** `enum`, or a oneOf/anyOf of `const`s; `mixed` for a union of shapes. */
function choicesOf(schema: Schema): ChoiceOption[] | 'mixed' | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, i) => ({ value: value as JsonValue, label: typeof names[i] === 'string' ? names[i] : labelOf(value) }));
  }
  const union = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (!union) return undefined;
  if (union.length > 0 && union.every((o) => isSchema(o) && 'const' in o)) {
    return (union as Schema[]).map((o) => ({ value: o.const as JsonValue, label: typeof o.title === 'string' ? o.title : labelOf(o.const) }));
  }
  return 'mixed';
}

function objectOf(schema: Schema, base: NodeBase, depth: number, json: (why: string) => JsonNode): FormNode {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const extra = schema.additionalProperties;
  if (Object.keys(properties).length === 0 && isSchema(extra) && Object.keys(extra).length > 0) return json('a map of names to values');
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  const fields: FormField[] = Object.entries(properties).map(([key, child]) => ({ key, required: required.has(key), node: nodeOf(isSchema(child) ? child : {}, false, depth + 1) }));
  // A required key the schema does not describe: the form has no field for it.
  if ([...required].some((key) => !(key in properties))) return json('requires keys it does not describe');
  return { ...base, kind: 'object', fields, openEnded: extra !== false };
}

function arrayOf(schema: Schema, base: NodeBase, depth: number, json: (why: string) => JsonNode): FormNode {
  const minItems = count(schema.minItems);
  const maxItems = count(schema.maxItems);
  if (minItems !== undefined && maxItems !== undefined && minItems > maxItems) return json('a length no list can have');
  const item = nodeOf(isSchema(schema.items) ? schema.items : {}, false, depth + 1);
  if (item.kind === 'choice' && (schema.uniqueItems === true || item.options.length > 1)) {
    const multi: MultiNode = { ...base, kind: 'multi', options: item.options };
    if (minItems !== undefined) multi.minItems = minItems;
    if (maxItems !== undefined) multi.maxItems = maxItems;
    if ((minItems ?? 0) > item.options.length && schema.uniqueItems === true) return json('more distinct items than there are choices');
    return multi;
  }
  if (schema.uniqueItems === true) return json('a list of distinct items');
  const node: ArrayNode = { ...base, kind: 'array', item };
  if (minItems !== undefined) node.minItems = minItems;
  if (maxItems !== undefined) node.maxItems = maxItems;
  return node;
}

function numberOf(schema: Schema, base: NodeBase, integer: boolean, json: (why: string) => JsonNode): FormNode {
  const node: NumberNode = { ...base, kind: 'number', integer };
  const minimum = num(schema.minimum);
  const maximum = num(schema.maximum);
  // draft-07 numbers; draft-04 booleans (beside minimum/maximum) are read as such.
  const exMin = num(schema.exclusiveMinimum) ?? (schema.exclusiveMinimum === true ? minimum : undefined);
  const exMax = num(schema.exclusiveMaximum) ?? (schema.exclusiveMaximum === true ? maximum : undefined);
  if (minimum !== undefined && schema.exclusiveMinimum !== true) node.minimum = minimum;
  if (maximum !== undefined && schema.exclusiveMaximum !== true) node.maximum = maximum;
  if (exMin !== undefined) node.exclusiveMinimum = exMin;
  if (exMax !== undefined) node.exclusiveMaximum = exMax;
  const low = lowest(node);
  if (low === undefined || !inRange(node, low)) return json('a range no number fits');
  return node;
}

/** The smallest value the node accepts (0 when no floor), or undefined when it accepts none a form can find. */
export function lowest(node: NumberNode): number | undefined {
  const { minimum, exclusiveMinimum: exMin, maximum, exclusiveMaximum: exMax } = node;
  let candidate: number;
  if (minimum === undefined && exMin === undefined) {
    if (inRange(node, 0)) return 0;
    // Only a ceiling, below zero: the ceiling itself, or just under an exclusive one.
    candidate = Math.min(maximum ?? Infinity, exMax !== undefined ? exMax - 1 : Infinity);
    if (node.integer) candidate = Math.floor(candidate);
  } else {
    candidate = Math.max(minimum ?? -Infinity, exMin ?? -Infinity);
    if (node.integer) candidate = Math.ceil(candidate);
    if (exMin !== undefined && candidate <= exMin) {
      const ceiling = Math.min(maximum ?? Infinity, exMax ?? Infinity);
      candidate = node.integer ? Math.floor(exMin) + 1 : Number.isFinite(ceiling) ? exMin + (ceiling - exMin) / 2 : exMin + 1;
    }
  }
  return inRange(node, candidate) ? candidate : undefined;
}

/** True when `n` satisfies the node's bounds and integrality. */
export function inRange(node: NumberNode, n: number): boolean {
  if (!Number.isFinite(n) || (node.integer && !Number.isInteger(n))) return false;
  if (node.minimum !== undefined && n < node.minimum) return false;
  if (node.maximum !== undefined && n > node.maximum) return false;
  if (node.exclusiveMinimum !== undefined && n <= node.exclusiveMinimum) return false;
  if (node.exclusiveMaximum !== undefined && n >= node.exclusiveMaximum) return false;
  return true;
}

function labelOf(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
