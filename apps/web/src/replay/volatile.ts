/**
 * "Ignore volatile fields" for the response diff: what differs on every call without meaning
 * anything is masked by the same rules `mcpscope verify` compares by (@mcpscope/protocol's
 * maskVolatile: timestamps and UUIDs inside strings, members named like moments or one-off
 * tokens), plus every `id` member, so the JSON-RPC ids of an original and its replay line up.
 */
import { maskVolatile as maskByProtocol, VOLATILE_MARK } from '@mcpscope/protocol';

export { VOLATILE_MARK };

export function maskVolatile(value: unknown): unknown {
  return maskByProtocol(value, { keys: ['id'] });
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
