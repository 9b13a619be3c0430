/**
 * JSON-RPC 2.0 message shapes as MCP uses them, and the one total classifier over raw text.
 * The classifier never throws: malformed traffic is data, reported as `invalid` with a reason.
 */

import { deeperThan } from './json-depth.js';

/** A request id keeps its JSON type: `1` and `"1"` are different ids, `0` is a valid one. */
export type JsonRpcId = string | number;

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface RequestMessage {
  kind: 'request';
  id: JsonRpcId;
  method: string;
  params?: JsonObject;
}
export interface NotificationMessage {
  kind: 'notification';
  method: string;
  params?: JsonObject;
}
export interface ResponseMessage {
  kind: 'response';
  id: JsonRpcId;
  result: JsonObject;
}
export interface ErrorMessage {
  kind: 'error';
  /** `null` only when answering a request that could not be parsed. */
  id: JsonRpcId | null;
  error: { code: number; message: string; data?: JsonValue };
  /** Set when the message had no `id` member at all (as opposed to `"id": null`). */
  noId?: true;
}
export interface BatchMessage {
  kind: 'batch';
  items: Message[];
}
export interface InvalidMessage {
  kind: 'invalid';
  reason: string;
  /** The parsed value when the text was JSON but not a JSON-RPC message. */
  value?: JsonValue;
}

export type Message =
  | RequestMessage
  | NotificationMessage
  | ResponseMessage
  | ErrorMessage
  | BatchMessage
  | InvalidMessage;

/** A stable string key for an id that keeps its JSON type (`1` → `1`, `"1"` → `"1"`). */
export function idKey(id: JsonRpcId | null): string {
  return JSON.stringify(id);
}

export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * How deep a message may nest and still be read. Real MCP messages stay within a few dozen levels
 * (JSON Schemas included); past a few thousand, every recursive walk (JSON.stringify, schema
 * checks, summaries) overflows the call stack. A deeper message is kept as sent and reported as
 * `invalid`, never read.
 */
export const MAX_JSON_DEPTH = 512;

/** Parses raw text into a classified message. Total: every input yields a value. */
export function classifyText(raw: string): Message {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    return { kind: 'invalid', reason: `not JSON: ${(err as Error).message}` };
  }
  // Nesting N deep takes at least 2N characters: shorter texts need no walk.
  if (raw.length > 2 * MAX_JSON_DEPTH && deeperThan(value, MAX_JSON_DEPTH)) {
    return { kind: 'invalid', reason: `nests deeper than ${MAX_JSON_DEPTH} levels: kept as sent, not read` };
  }
  return classifyValue(value);
}

/** Classifies an already-parsed JSON value. */
export function classifyValue(value: unknown): Message {
  if (Array.isArray(value)) {
    if (value.length === 0) return { kind: 'invalid', reason: 'empty batch array', value: [] };
    return { kind: 'batch', items: value.map((item) => classifySingle(item)) };
  }
  return classifySingle(value);
}

function classifySingle(value: unknown): Message {
  if (!isJsonObject(value)) {
    return { kind: 'invalid', reason: 'a JSON-RPC message must be a JSON object', value: value as JsonValue };
  }
  if (value.jsonrpc !== '2.0') {
    return { kind: 'invalid', reason: 'missing or wrong "jsonrpc": must be "2.0"', value };
  }
  const hasId = 'id' in value;
  if (typeof value.method === 'string') {
    if (value.params !== undefined && !isJsonObject(value.params)) {
      return { kind: 'invalid', reason: '"params" must be an object', value };
    }
    const params = value.params as JsonObject | undefined;
    if (!hasId) return { kind: 'notification', method: value.method, ...(params ? { params } : {}) };
    if (!isJsonRpcId(value.id)) {
      return { kind: 'invalid', reason: 'a request id must be a string or a number, never null', value };
    }
    return { kind: 'request', id: value.id, method: value.method, ...(params ? { params } : {}) };
  }
  if ('method' in value) return { kind: 'invalid', reason: '"method" must be a string', value };
  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasResult && hasError) {
    return { kind: 'invalid', reason: 'a response carries "result" or "error", never both', value };
  }
  if (hasError) {
    const error = value.error;
    if (!isJsonObject(error) || typeof error.code !== 'number' || !Number.isInteger(error.code) || typeof error.message !== 'string') {
      return { kind: 'invalid', reason: '"error" must be {code: integer, message: string, data?}', value };
    }
    const id = value.id === undefined ? null : value.id;
    if (id !== null && !isJsonRpcId(id)) return { kind: 'invalid', reason: 'a response id must be a string or a number', value };
    const shaped: ErrorMessage['error'] = { code: error.code, message: error.message };
    if ('data' in error) shaped.data = error.data as JsonValue;
    return value.id === undefined ? { kind: 'error', id, error: shaped, noId: true } : { kind: 'error', id, error: shaped };
  }
  if (hasResult) {
    if (!isJsonRpcId(value.id)) return { kind: 'invalid', reason: 'a result must carry the id of its request', value };
    if (!isJsonObject(value.result)) return { kind: 'invalid', reason: '"result" must be an object', value };
    return { kind: 'response', id: value.id, result: value.result };
  }
  return { kind: 'invalid', reason: 'neither a request, a notification nor a response', value };
}
