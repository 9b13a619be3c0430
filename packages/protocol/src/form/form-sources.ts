/**
 * Schemas for what MCP describes without a JSON Schema, so the same form generator fills them:
 * a prompt's `arguments` list (`prompts/get` takes string values) and a resource template's
 * variables (RFC 6570 URI Template, expanded here for string values; the `*` explode and `:n`
 * prefix modifiers are read as plain variables).
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../model/json-rpc.js';

/** The `prompts/get` arguments of a prompt from `prompts/list`, as an object schema of strings. */
export function promptArgumentsSchema(prompt: JsonObject): JsonObject {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const arg of Array.isArray(prompt.arguments) ? prompt.arguments : []) {
    if (!isJsonObject(arg) || typeof arg.name !== 'string') continue;
    const property: JsonObject = { type: 'string' };
    if (typeof arg.title === 'string') property.title = arg.title;
    if (typeof arg.description === 'string') property.description = arg.description;
    properties[arg.name] = property;
    if (arg.required === true) required.push(arg.name);
  }
  return { type: 'object', properties, required, additionalProperties: { type: 'string' } };
}

const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;

interface Operator {
  first: string;
  separator: string;
  named: boolean;
  /** What follows a named variable whose value is empty. */
  ifEmpty: string;
  reserved: boolean;
}

const OPERATORS: Record<string, Operator> = {
  '': { first: '', separator: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', separator: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', separator: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', separator: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', separator: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', separator: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', separator: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', separator: '&', named: true, ifEmpty: '=', reserved: false },
};

function names(list: string): string[] {
  return list.split(',').map((v) => v.trim().replace(/\*$|:\d+$/, '')).filter((v) => v !== '');
}

/** The template's variables in order, each once, and whether its operator makes it optional (`?`, `&`, `;`). */
export function templateVariables(template: string): Array<{ name: string; optional: boolean }> {
  const seen = new Map<string, boolean>();
  for (const match of template.matchAll(EXPRESSION)) {
    const optional = OPERATORS[match[1]!]!.named;
    for (const name of names(match[2]!)) if (!seen.has(name)) seen.set(name, optional);
  }
  return [...seen].map(([name, optional]) => ({ name, optional }));
}

/** The form schema of a template's variables (strings; path variables required). */
export function templateSchema(template: JsonObject): JsonObject {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const { name, optional } of templateVariables(String(template.uriTemplate ?? ''))) {
    properties[name] = { type: 'string' };
    if (!optional) required.push(name);
  }
  return { type: 'object', properties, required };
}

/** The URI for these values; a variable with no value is left out, as RFC 6570 says. */
export function expandTemplate(template: string, values: Readonly<Record<string, JsonValue | undefined>>): string {
  return template.replace(EXPRESSION, (_whole, op: string, list: string) => {
    const operator = OPERATORS[op]!;
    const parts: string[] = [];
    for (const name of names(list)) {
      const raw = values[name];
      if (raw === undefined || raw === null) continue;
      const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
      const encoded = operator.reserved ? encodeURI(text).replace(/%25([0-9A-F]{2})/gi, '%$1') : encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
      parts.push(operator.named ? `${name}${text === '' ? operator.ifEmpty : `=${encoded}`}` : encoded);
    }
    return parts.length === 0 ? '' : operator.first + parts.join(operator.separator);
  });
}
