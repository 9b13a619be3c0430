/**
 * Compiles the JSON Schemas servers publish for their tools (inputSchema, outputSchema) with the
 * dialect each one names — draft-07 or 2020-12, 2020-12 when it names none — under a budget: a
 * schema that is too large, too deep, or carries a regular expression prone to catastrophic
 * backtracking is refused rather than allowed to stall the capture pipeline. Compiled checks are
 * cached by the schema's text, since the same tool list is seen again and again.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { CompileResult, CompiledSchema } from '../diagnostics/validator-port.js';
import type { JsonObject, JsonValue } from '../model/json-rpc.js';
import { addFormats } from './formats.js';
import { describeError } from './schema-validator.js';
import { pathFromPointer } from '../model/json-path.js';

const MAX_NODES = 5_000;
const MAX_DEPTH = 48;
const MAX_PATTERN = 512;
const MAX_CACHE = 500;
/** A quantified group that is itself quantified, the usual shape of catastrophic backtracking: `(a+)+`, `(\\w*\\s?)*`. */
const NESTED_QUANTIFIER = /\([^)]*[+*}][^)]*\)[+*{]/;

export class ToolSchemaCompiler {
  private readonly draft07 = new Ajv({ strict: false, allErrors: false, validateSchema: false });
  private readonly draft2020 = new Ajv2020({ strict: false, allErrors: false, validateSchema: false });
  private readonly cache = new Map<string, CompileResult>();

  constructor() {
    addFormats(this.draft07 as unknown as Ajv2020);
    addFormats(this.draft2020);
  }

  compile(schema: JsonObject): CompileResult {
    const key = JSON.stringify(schema);
    const hit = this.cache.get(key);
    if (hit) return hit;
    const result = this.build(schema);
    if (this.cache.size >= MAX_CACHE) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, result);
    return result;
  }

  private build(schema: JsonObject): CompileResult {
    const budget = checkBudget(schema);
    if (budget) return { ok: false, reason: 'over-budget', detail: budget };
    const dialect = typeof schema.$schema === 'string' && /draft-0[4-7]/.test(schema.$schema) ? this.draft07 : this.draft2020;
    // Ajv keys schemas by $id; a tool's own $id must not collide with another tool's.
    const { $id: _id, ...rest } = schema;
    let fn: ValidateFunction;
    try {
      fn = dialect.compile(rest);
    } catch (err) {
      return { ok: false, reason: 'invalid-schema', detail: (err as Error).message };
    }
    const check: CompiledSchema = (value: JsonValue) =>
      fn(value) ? [] : (fn.errors ?? []).slice(0, 1).map((e) => ({ path: pathFromPointer(e.instancePath), message: describeError(e) }));
    return { ok: true, check };
  }
}

/** Why a schema is refused, or undefined when it is within budget. */
function checkBudget(schema: JsonObject): string | undefined {
  let nodes = 0;
  const stack: Array<[unknown, number]> = [[schema, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (++nodes > MAX_NODES) return `more than ${MAX_NODES} schema nodes`;
    if (depth > MAX_DEPTH) return `nested deeper than ${MAX_DEPTH} levels`;
    if (Array.isArray(node)) {
      for (const child of node) stack.push([child, depth + 1]);
    } else if (node && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        if ((key === 'pattern' || key === 'patternProperties') && !patternsSafe(key === 'pattern' ? [child] : Object.keys(child as object))) {
          return 'a regular expression that could take exponential time';
        }
        stack.push([child, depth + 1]);
      }
    }
  }
  return undefined;
}

function patternsSafe(patterns: unknown[]): boolean {
  return patterns.every((p) => typeof p !== 'string' || (p.length <= MAX_PATTERN && !NESTED_QUANTIFIER.test(p)));
}
