/**
 * The OAuth documents and challenges among the door records: 401s on the MCP endpoint,
 * protected-resource metadata and authorization-server metadata, each parsed once.
 */
import { doorPathname, requestedUrl, type DoorRecord } from '../../door/door-record.js';
import { isJsonObject, type JsonObject } from '../../model/json-rpc.js';

export interface DoorDocument {
  record: DoorRecord;
  body: JsonObject;
}

export function jsonBodyOf(record: DoorRecord): JsonObject | undefined {
  const text = record.responseBody?.text;
  if (!text || record.status === undefined || record.status >= 300) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function documents(door: readonly DoorRecord[], matches: (path: string) => boolean): DoorDocument[] {
  return door.flatMap((record) => {
    if (!matches(doorPathname(record.path))) return [];
    const body = jsonBodyOf(record);
    return body ? [{ record, body }] : [];
  });
}

export function protectedResourceDocuments(door: readonly DoorRecord[]): DoorDocument[] {
  return documents(door, (p) => p.startsWith('/.well-known/oauth-protected-resource'));
}

export function authorizationServerDocuments(door: readonly DoorRecord[]): DoorDocument[] {
  return documents(door, (p) => p.startsWith('/.well-known/oauth-authorization-server') || p.includes('/.well-known/openid-configuration') || p.endsWith('/openid-configuration'));
}

/** The MCP endpoint URLs the clients addressed (as they typed them, through the tap). */
export function mcpUrlsReached(door: readonly DoorRecord[]): string[] {
  return [...new Set(door.filter((r) => r.mcp).map((r) => requestedUrl(r)).filter((u): u is string => u !== undefined))];
}
