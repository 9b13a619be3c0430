/**
 * "Ignore volatile fields" for the response diff: values that differ on every call without
 * meaning anything (JSON-RPC ids, timestamps, request and session ids, progress tokens) are
 * replaced by a marker, so the diff shows only what the edit changed.
 */

export const VOLATILE_MARK = '‹volatile›';

const VOLATILE_KEYS = /^(id|requestid|progresstoken|sessionid|timestamp|ts|time|date|created|createdat|updatedat|modifiedat|expiresat|elapsed|elapsedms|durationms|latencyms|nonce|etag|traceid|spanid)$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function maskVolatile(value: unknown, key?: string): unknown {
  if (key !== undefined && VOLATILE_KEYS.test(key.replace(/[_-]/g, ''))) return VOLATILE_MARK;
  if (typeof value === 'string' && (ISO_DATE.test(value) || UUID.test(value))) return VOLATILE_MARK;
  if (Array.isArray(value)) return value.map((item) => maskVolatile(item));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskVolatile(v, k);
    return out;
  }
  return value;
}

/** The envelope first (`jsonrpc`, `id`), so two answers line up before they differ. */
function envelopeFirst(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const { jsonrpc, id, ...rest } = value as Record<string, unknown>;
  return { ...(jsonrpc !== undefined ? { jsonrpc } : {}), ...(id !== undefined ? { id } : {}), ...rest };
}

/** Pretty JSON for the diff; text that is not JSON is shown as it is. */
export function diffText(raw: string | undefined, ignoreVolatile: boolean): string {
  if (raw === undefined) return '';
  try {
    const value = envelopeFirst(JSON.parse(raw) as unknown);
    return JSON.stringify(ignoreVolatile ? maskVolatile(value) : value, null, 2);
  } catch {
    return raw;
  }
}
