/**
 * Reading the recorded bodies of OAuth traffic: JSON documents (metadata, registration and token
 * answers) and form-encoded requests (RFC 6749 token requests). A body that was cut, is not JSON,
 * or is not an object reads as undefined: the checks then say so instead of guessing.
 */
import type { DoorBody, DoorRecord } from './door-record.js';

export type JsonDocument = Record<string, unknown>;

/** The body as a JSON object; undefined when absent, cut, not JSON, or not an object. */
export function jsonDocument(body: DoorBody | undefined): JsonDocument | undefined {
  if (!body || body.truncated) return undefined;
  const text = body.text.trim();
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonDocument) : undefined;
  } catch {
    return undefined;
  }
}

/** The body as `application/x-www-form-urlencoded` fields (a cut body reads what was kept). */
export function formFields(body: DoorBody | undefined): URLSearchParams {
  return new URLSearchParams(body?.text ?? '');
}

/** A JSON string member, or undefined. */
export function stringField(doc: JsonDocument | undefined, name: string): string | undefined {
  const v = doc?.[name];
  return typeof v === 'string' ? v : undefined;
}

/** A JSON array-of-strings member (other members of the array are skipped), or undefined. */
export function stringList(doc: JsonDocument | undefined, name: string): string[] | undefined {
  const v = doc?.[name];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
}

/** Whether the response says it is JSON (`application/json`, `application/*+json`). */
export function isJsonResponse(record: Pick<DoorRecord, 'responseHeaders'>): boolean {
  const type = record.responseHeaders['content-type']?.toLowerCase() ?? '';
  return /^application\/([a-z0-9.+-]*\+)?json\b/.test(type);
}

/** The media type of the answer, without parameters (`text/html`). */
export function responseType(record: Pick<DoorRecord, 'responseHeaders'>): string | undefined {
  const type = record.responseHeaders['content-type'];
  return type?.split(';')[0]!.trim().toLowerCase() || undefined;
}

/** `error` and `error_description` of an OAuth error answer (RFC 6749 §5.2, RFC 7591 §3.2.2). */
export function oauthError(record: Pick<DoorRecord, 'responseBody'>): { error: string; description?: string } | undefined {
  const doc = jsonDocument(record.responseBody);
  const error = stringField(doc, 'error');
  if (!error) return undefined;
  const description = stringField(doc, 'error_description');
  return description ? { error, description } : { error };
}
