/**
 * A request the server redirected instead of answering (a 307 from `/mcp` to `/mcp/`, as
 * Starlette mounts FastMCP and the Python SDK) is sent again by a client that follows redirects:
 * same session, same method, same JSON-RPC id, at the new address, where it pairs as an exchange
 * of its own. The redirected attempt is then half of that call, not a failed call: "Re-run failed
 * calls", `verify` and `mock` leave it out. A client that does not follow redirects sends nothing
 * again, and its redirected request stays the failed call it was.
 */
import type { ExchangeSummary } from '../model/exchange.js';
import { idKey } from '../model/json-rpc.js';

/** The ids of redirected requests the client sent again later, among `exchanges` (in any order). */
export function followedRedirects(exchanges: Iterable<ExchangeSummary>): Set<string> {
  const requests: { ex: ExchangeSummary; key: string; seq: number }[] = [];
  /** The last time each request (session, method, id) was sent, by the seq of its frame. */
  const lastSent = new Map<string, number>();
  for (const ex of exchanges) {
    if (ex.requester !== 'client' || ex.kind !== 'request' || ex.method === undefined || ex.rpcId === undefined) continue;
    const key = `${ex.sessionKey}\n${ex.method}\n${idKey(ex.rpcId)}`;
    // An exchange's id is the seq of the frame that opened it (`.N` for an item of a batch).
    const seq = Number.parseFloat(ex.id);
    requests.push({ ex, key, seq });
    lastSent.set(key, Math.max(lastSent.get(key) ?? -Infinity, seq));
  }
  const followed = new Set<string>();
  for (const { ex, key, seq } of requests) if (ex.transportEvent === 'redirected' && lastSent.get(key)! > seq) followed.add(ex.id);
  return followed;
}
