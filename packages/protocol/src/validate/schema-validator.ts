/**
 * Validates MCP messages against the schema of their revision: the envelope (own rules), then
 * the typed definition chosen by method and sender — a result by the method of the request it
 * answers. Ajv validators are compiled once per (revision, definition) and cached, because this
 * runs on every captured frame.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { addFormats } from './formats.js';
import { mostSpecificError } from './specific-error.js';
import { sdkAccepts } from './sdk-definitions.js';
import { isJsonObject, isJsonRpcId, type JsonObject, type JsonValue } from '../model/json-rpc.js';
import { pathFromPointer } from '../model/json-path.js';
import { resolveDefinition } from './definitions.js';
import { JSON_VALUE_SCHEMA } from './own-definitions.js';
import { methodIn, notificationIn, revisionAtLeast, type Revision } from '../revisions/revisions.js';
import type { MessageCheck, SchemaIssue, SchemaIssueCode } from '../diagnostics/validator-port.js';

export type { MessageCheck, SchemaIssue, SchemaIssueCode } from '../diagnostics/validator-port.js';

const TYPED_ERRORS: Record<number, string> = { [-32020]: 'HeaderMismatchError', [-32021]: 'MissingRequiredClientCapabilityError', [-32022]: 'UnsupportedProtocolVersionError' };

function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false, verbose: true });
  addFormats(ajv);
  ajv.addSchema(JSON_VALUE_SCHEMA);
  return ajv;
}

export class SchemaValidator {
  private readonly ajv = createAjv();
  private readonly compiled = new Map<Revision, Map<string, ValidateFunction | null>>();

  /** Validates a value against one named definition; undefined when the revision has no such definition. */
  validateDefinition(rev: Revision, name: string, value: unknown): ErrorObject[] | undefined {
    const fn = this.validator(rev, name);
    if (!fn) return undefined;
    return fn(value) ? [] : [...(fn.errors ?? [])];
  }

  hasDefinition(rev: Revision, name: string): boolean {
    return this.validator(rev, name) !== undefined;
  }

  /** Every schema problem of one message, envelope first. Empty when the message is valid. */
  validateMessage(check: MessageCheck): SchemaIssue[] {
    const envelope = envelopeIssues(check.revision, check.value);
    if (envelope.length > 0) return envelope;
    const v = check.value;
    if (typeof v.method === 'string') {
      const isRequest = 'id' in v;
      const info = isRequest ? methodIn(v.method, check.revision) : notificationIn(v.method, check.revision);
      if (!info) return [];
      // From 2025-11-25 the typed request definitions carry the envelope, id included.
      if (isRequest && revisionAtLeast(check.revision, '2025-11-25') && !isIntegerOrString(v.id)) {
        return [{ code: 'envelope-invalid', path: '$.id', message: 'A request id must be a string or an integer.', definition: 'RequestId' }];
      }
      const def = 'request' in info ? info.request : info.definition;
      return this.issues(check.revision, def, v, '$', 'params-invalid');
    }
    if ('error' in v) {
      const typed = check.revision === '2026-07-28' && isJsonObject(v.error) ? TYPED_ERRORS[v.error.code as number] : undefined;
      return typed ? this.issues(check.revision, typed, v, '$', 'error-invalid') : [];
    }
    if ('result' in v && check.request) {
      const def = resultDefinition(check.revision, check.request, v.result);
      if (!def) return [];
      return this.issues(check.revision, def, v.result, '$.result', 'result-invalid');
    }
    return [];
  }

  private issues(rev: Revision, def: string, value: unknown, base: string, code: SchemaIssueCode): SchemaIssue[] {
    const errors = this.validateDefinition(rev, def, value);
    if (!errors || errors.length === 0) return [];
    const first = mostSpecificError(errors)!;
    const issue: SchemaIssue = { code, path: base + pathFromPointer(first.instancePath), message: describeError(first), definition: def };
    if (first.keyword === 'required') issue.missing = String((first.params as { missingProperty?: unknown }).missingProperty);
    // Graded by what a real peer does: the official SDK's own schema accepting the message means
    // SDK-based clients and servers take it, so it is a warning, not an error.
    if (sdkAccepts(def, value)) {
      issue.severity = 'warning';
      issue.message += ' The official MCP SDK accepts this value, but the schema does not; stricter peers may reject it.';
    }
    return [issue];
  }

  private validator(rev: Revision, name: string): ValidateFunction | undefined {
    let byName = this.compiled.get(rev);
    if (!byName) this.compiled.set(rev, (byName = new Map()));
    let fn = byName.get(name);
    if (fn === undefined) {
      const schema = resolveDefinition(rev, name);
      fn = schema ? this.ajv.compile(schema) : null;
      byName.set(name, fn);
    }
    return fn ?? undefined;
  }
}

/** The result definition for an answer to `request` (special cases first, as the spec's dispatch does). */
export function resultDefinition(rev: Revision, request: { method: string; params?: JsonObject }, result: JsonValue | undefined): string | undefined {
  if (rev === '2026-07-28' && isJsonObject(result) && result.resultType === 'input_required') return 'InputRequiredResult';
  if (rev === '2025-11-25' && isJsonObject(request.params?.task)) return 'CreateTaskResult';
  return methodIn(request.method, rev)?.result;
}

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/** The JSON-RPC envelope as each revision's schema states it. */
export function envelopeIssues(rev: Revision, v: JsonObject): SchemaIssue[] {
  const issue = (path: string, message: string): SchemaIssue[] => [{ code: 'envelope-invalid', path, message }];
  if (v.jsonrpc !== '2.0') return issue('$.jsonrpc', '"jsonrpc" must be the string "2.0".');
  const isId = isIntegerOrString;
  if ('method' in v && typeof v.method !== 'string') return issue('$.method', '"method" must be a string.');
  if (!('method' in v) && !('result' in v) && !('error' in v)) {
    return issue('$', 'A message needs "method" (request or notification), "result" or "error".');
  }
  if (typeof v.method === 'string') {
    if ('params' in v && !isJsonObject(v.params)) return issue('$.params', '"params" must be an object.');
    return [];
  }
  if ('error' in v) {
    const e = v.error;
    if (!isJsonObject(e) || !Number.isInteger(e.code) || typeof e.message !== 'string') {
      return issue('$.error', '"error" must be an object with an integer "code" and a string "message".');
    }
    if (revisionAtLeast(rev, '2025-11-25')) {
      if ('id' in v && !isId(v.id)) return issue('$.id', `In ${rev} an error's id is a string or an integer, or left out when the request could not be read; null is not allowed.`);
    } else if (v.id === null && (e.code === PARSE_ERROR || e.code === INVALID_REQUEST)) {
      // JSON-RPC 2.0 §5 requires null here (the request's id could not be read); this revision's
      // schema has no null id. The sender did the right thing by JSON-RPC, so this is a warning.
      return [
        {
          code: 'envelope-invalid',
          path: '$.id',
          severity: 'warning',
          message: `is null. JSON-RPC 2.0 requires null when the request could not be read, but the ${rev} schema allows only a string or integer id (2025-11-25 drops the id instead); strict clients of ${rev} may reject this error.`,
        },
      ];
    } else if (!isId(v.id)) {
      return issue('$.id', `In ${rev} every error response carries the string or integer id of its request (null is not allowed by the schema).`);
    }
    return [];
  }
  if ('result' in v) {
    if (!isId(v.id)) return issue('$.id', 'A result must carry the string or integer id of its request.');
    if (!isJsonObject(v.result)) return issue('$.result', '"result" must be an object.');
  }
  return [];
}

function isIntegerOrString(id: unknown): boolean {
  return isJsonRpcId(id) && (typeof id === 'string' || Number.isInteger(id));
}

export function describeError(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `is missing the required property "${String(p.missingProperty)}".`;
    case 'type': {
      const types = String(p.type).split(',');
      if (typeof e.data === 'number' && !Number.isInteger(e.data) && types.includes('integer')) return `must be an integer (${e.data} has a fraction).`;
      return `must be ${types.join(' or ')}.`;
    }
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}.`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map((x) => JSON.stringify(x)).join(', ')}.`;
    case 'anyOf':
    case 'oneOf':
      return 'matches none of the allowed shapes.';
    default:
      return `${e.message ?? 'is not valid'}.`;
  }
}
