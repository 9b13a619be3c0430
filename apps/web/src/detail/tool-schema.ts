/**
 * Finds the tool definition a tools/call was made against: the newest tools/list answer of the
 * same session captured before the call (a paginated list spans several answers, so a few are
 * searched, newest first).
 */
import { isJsonObject, type ExchangeSummary, type JsonObject } from '@mcpscope/protocol';
import type { ExchangeIndex } from '../store/exchange-index.js';
import { lowerBound, orderKey } from '../store/exchange-index.js';

const MAX_LISTS = 5;

/** Ids of the session's answered tools/list exchanges before `call`, newest first. */
export function toolsListsBefore(index: ExchangeIndex, call: ExchangeSummary): string[] {
  const found: string[] = [];
  for (let i = lowerBound(index.ids, orderKey(call.id)) - 1; i >= 0 && found.length < MAX_LISTS; i--) {
    const ex = index.get(index.ids[i]!)!;
    if (ex.sessionKey === call.sessionKey && ex.method === 'tools/list' && ex.status === 'ok') found.push(ex.id);
  }
  return found;
}

/** The tool named `name` in a tools/list response body, if it is there. */
export function findTool(responseRaw: string, name: string): JsonObject | undefined {
  let value: unknown;
  try {
    value = JSON.parse(responseRaw);
  } catch {
    return undefined;
  }
  if (!isJsonObject(value) || !isJsonObject(value.result)) return undefined;
  const tools = value.result.tools;
  if (!Array.isArray(tools)) return undefined;
  return tools.find((t): t is JsonObject => isJsonObject(t) && t.name === name);
}

/** `params.arguments` of a tools/call request body, and `result` of its response. */
export function callParts(requestRaw: string | undefined, responseRaw: string | undefined): { args?: unknown; result?: JsonObject } {
  const parts: { args?: unknown; result?: JsonObject } = {};
  try {
    const req = requestRaw ? (JSON.parse(requestRaw) as unknown) : undefined;
    if (isJsonObject(req) && isJsonObject(req.params)) parts.args = req.params.arguments ?? {};
  } catch {
    // not JSON: nothing to check
  }
  try {
    const res = responseRaw ? (JSON.parse(responseRaw) as unknown) : undefined;
    if (isJsonObject(res) && isJsonObject(res.result)) parts.result = res.result;
  } catch {
    // not JSON: nothing to check
  }
  return parts;
}
