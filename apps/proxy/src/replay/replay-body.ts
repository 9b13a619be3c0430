/**
 * Validates what the dashboard asks replay to do. The body names a captured exchange and a
 * message, never a destination: replay only ever goes to the configured upstream, so any field
 * that tries to say where (url, host, target…) is refused outright rather than ignored.
 */
import { classifyValue, isJsonObject, type JsonObject } from '@mcpscope/protocol';
import { fail, ok, type Result } from './replay-errors.js';

export type ReplayMode = 'session' | 'fresh';

export interface ReplayBody {
  exchangeId?: string;
  sessionKey?: string;
  mode: ReplayMode;
  /** The parsed message: a request or a notification. */
  message: JsonObject;
  secrets: boolean;
}

const DESTINATION = /^(url|uri|href|host|hostname|port|origin|target|upstream|endpoint|baseurl|path|server|headers)$/i;

export function parseReplayBody(body: unknown, allowed: readonly string[]): Result<ReplayBody> {
  if (!isJsonObject(body)) return fail('bad_request', 'Send a JSON object: { exchangeId?, message, mode }.');
  for (const key of Object.keys(body)) {
    if (DESTINATION.test(key)) {
      return fail('not_a_relay', `"${key}" is not accepted: replay only ever goes to the upstream mcpscope was started with (--target).`);
    }
    if (!allowed.includes(key)) return fail('bad_request', `Unknown field "${key}"; expected ${allowed.join(', ')}.`);
  }
  const mode = body.mode ?? 'session';
  if (mode !== 'session' && mode !== 'fresh') return fail('bad_request', '"mode" must be "session" or "fresh".');
  for (const key of ['exchangeId', 'sessionKey'] as const) {
    if (body[key] !== undefined && typeof body[key] !== 'string') return fail('bad_request', `"${key}" must be a string.`);
  }
  const message = parseMessage(body.message);
  if (!message.ok) return message;
  const parsed: ReplayBody = { mode, message: message.value, secrets: body.secrets === true };
  if (typeof body.exchangeId === 'string') parsed.exchangeId = body.exchangeId;
  if (typeof body.sessionKey === 'string') parsed.sessionKey = body.sessionKey;
  return ok(parsed);
}

/** The message as text or as a value; it must be one JSON-RPC request or notification. */
export function parseMessage(value: unknown): Result<JsonObject> {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch (err) {
      return fail('invalid_message', `The message is not JSON: ${(err as Error).message}`);
    }
  }
  if (parsed === undefined) return fail('invalid_message', 'A "message" is required: the whole JSON-RPC message to send.');
  const msg = classifyValue(parsed);
  if (msg.kind === 'batch') return fail('invalid_message', 'Replay sends one message at a time, not a batch.');
  if (msg.kind === 'invalid') return fail('invalid_message', `Not a JSON-RPC message: ${msg.reason}.`);
  if (msg.kind !== 'request' && msg.kind !== 'notification') return fail('invalid_message', 'Only requests and notifications can be sent; this is a response.');
  return ok(parsed as JsonObject);
}
