/**
 * The values a form holds, and the JSON they stand for. A form value is what the controls edit:
 * text for strings, numbers and JSON fields (so a half-typed number is kept as typed), a flag
 * for a checkbox, option indices for choices, and for each object field whether it is included.
 *
 * - `initialForm` starts from the schema's defaults, else the simplest value the schema accepts.
 * - `toForm` fills a form from arguments (a captured call's); undefined when they do not fit.
 * - `fromForm` turns a form into arguments. It never refuses: text that is no number is sent as
 *   the text, JSON that does not parse is sent as the string, and each is reported as a problem,
 *   so a schema-breaking value can still be sent on purpose.
 * For any value the schema accepts, `fromForm(toForm(v))` is v again (test/form/form.test.ts).
 */
import type { JsonObject, JsonValue } from '../model/json-rpc.js';
import { childPath } from '../model/json-path.js';
import { lowest, type FormNode, type JsonNode, type TextNode } from './form-model.js';

export type FormValue = string | boolean | number | number[] | FormValue[] | FormObject;

export interface FormField<V = FormValue> {
  /** Required fields are always on; an optional one is sent only when on. */
  on: boolean;
  value: V;
}

export interface FormObject {
  fields: Record<string, FormField>;
  /** Keys the value had beyond the schema's fields, kept as they were. */
  extra?: JsonObject;
}

export interface FormProblem {
  /** JSON path into the arguments (`$.a.b[0]`). */
  path: string;
  message: string;
}

/** Strings a format-checking validator accepts, to start a required field from. */
const FORMAT_PLACEHOLDERS: Record<string, string> = {
  email: 'user@example.com',
  uri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  url: 'https://example.com/',
  date: '2000-01-01',
  'date-time': '2000-01-01T00:00:00Z',
  time: '00:00:00Z',
  uuid: '00000000-0000-4000-8000-000000000000',
  'uri-template': 'https://example.com/{id}',
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function initialForm(node: FormNode): FormValue {
  if (node.default !== undefined) {
    const filled = toForm(node, node.default);
    if (filled !== undefined) return filled;
  }
  switch (node.kind) {
    case 'text':
      return initialText(node);
    case 'number':
      return String(lowest(node) ?? 0);
    case 'boolean':
      return false;
    case 'choice':
      return 0;
    case 'multi':
      return Array.from({ length: Math.min(node.minItems ?? 0, node.options.length) }, (_, i) => i);
    case 'array':
      return Array.from({ length: node.minItems ?? 0 }, () => initialForm(node.item));
    case 'object':
      // A field with a default starts included, showing it: what the user sees filled is what is sent.
      return { fields: Object.fromEntries(node.fields.map((f) => [f.key, { on: f.required || f.node.default !== undefined, value: initialForm(f.node) }])) };
    case 'json':
      return JSON.stringify(jsonSkeleton(node), null, 2);
  }
}

function initialText(node: TextNode): string {
  const placeholder = node.format === undefined ? undefined : FORMAT_PLACEHOLDERS[node.format];
  if (placeholder !== undefined && placeholder.length >= (node.minLength ?? 0) && placeholder.length <= (node.maxLength ?? Infinity)) return placeholder;
  return 'x'.repeat(node.minLength ?? 0);
}

function jsonSkeleton(node: JsonNode): JsonValue {
  const type = Array.isArray(node.schema.type) ? node.schema.type[0] : node.schema.type;
  return type === 'object' ? {} : type === 'array' ? [] : type === 'string' ? '' : type === 'number' || type === 'integer' ? 0 : type === 'boolean' ? false : null;
}

/** The form showing `value`, or undefined when the value does not fit the form's shape. */
export function toForm(node: FormNode, value: JsonValue): FormValue | undefined {
  switch (node.kind) {
    case 'text':
      return typeof value === 'string' ? value : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'choice': {
      const i = node.options.findIndex((o) => same(o.value, value));
      return i < 0 ? undefined : i;
    }
    case 'multi': {
      if (!Array.isArray(value)) return undefined;
      const picked = value.map((v) => node.options.findIndex((o) => same(o.value, v)));
      return picked.includes(-1) ? undefined : picked;
    }
    case 'json':
      return JSON.stringify(value, null, 2);
    case 'array': {
      if (!Array.isArray(value)) return undefined;
      const items = value.map((v) => toForm(node.item, v));
      return items.includes(undefined) ? undefined : (items as FormValue[]);
    }
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
      const fields: Record<string, FormField> = {};
      for (const field of node.fields) {
        if (!(field.key in value)) {
          fields[field.key] = { on: false, value: initialForm(field.node) };
          continue;
        }
        const filled = toForm(field.node, value[field.key]!);
        if (filled === undefined) return undefined;
        fields[field.key] = { on: true, value: filled };
      }
      const known = new Set(node.fields.map((f) => f.key));
      const extraKeys = Object.keys(value).filter((k) => !known.has(k));
      if (extraKeys.length > 0 && !node.openEnded) return undefined;
      const form: FormObject = { fields };
      if (extraKeys.length > 0) form.extra = Object.fromEntries(extraKeys.map((k) => [k, value[k]!]));
      return form;
    }
  }
}

/** The arguments a form stands for, and what in it could not be read as its field's type. */
export function fromForm(node: FormNode, form: FormValue, path = '$'): { value: JsonValue; problems: FormProblem[] } {
  const problems: FormProblem[] = [];
  const value = read(node, form, path, problems);
  return { value, problems };
}

function read(node: FormNode, form: FormValue, path: string, problems: FormProblem[]): JsonValue {
  switch (node.kind) {
    case 'text':
      return String(form);
    case 'boolean':
      return form === true;
    case 'number': {
      const text = String(form).trim();
      const n = text === '' ? NaN : Number(text);
      if (Number.isFinite(n)) return n;
      problems.push({ path, message: `"${text}" is not a number: sent as text` });
      return String(form);
    }
    case 'choice':
      return node.options[form as number]?.value ?? null;
    case 'multi':
      return (Array.isArray(form) ? (form as number[]) : []).map((i) => node.options[i]?.value ?? null);
    case 'json': {
      try {
        return JSON.parse(String(form)) as JsonValue;
      } catch (err) {
        problems.push({ path, message: `not JSON (${(err as Error).message}): sent as text` });
        return String(form);
      }
    }
    case 'array':
      return (Array.isArray(form) ? (form as FormValue[]) : []).map((item, i) => read(node.item, item, childPath(path, i), problems));
    case 'object': {
      const obj = isFormObject(form) ? form : { fields: {} };
      const out: JsonObject = {};
      for (const field of node.fields) {
        const entry = obj.fields[field.key];
        if (!entry || (!entry.on && !field.required)) continue;
        out[field.key] = read(field.node, entry.value, childPath(path, field.key), problems);
      }
      return { ...obj.extra, ...out };
    }
  }
}

export function isFormObject(form: FormValue | undefined): form is FormObject {
  return typeof form === 'object' && form !== null && !Array.isArray(form) && 'fields' in form;
}
