/**
 * A request the server redirected instead of answering (a 307 from `/mcp` to `/mcp/`, as
 * Starlette mounts FastMCP and the Python SDK) is sent again by a client that follows redirects:
 * same session, same method, same JSON-RPC id, at the new address, where it pairs as an exchange
 * of its own. The redirected attempt is then half of that call, not a failed call: "Re-run failed
 * calls", `verify` and `mock` leave it out. A client that does not follow redirects sends nothing
 * again, and its redirected request stays the failed call it was. A notification (the SDK's
 * `notifications/initialized` goes to `/mcp` too) has no id: its redirected copy is followed by a
 * later one of the same method in the same session.
 */
import type { ExchangeSummary } from '../model/exchange.js';
import type { Frame } from '../model/frame.js';
import { idKey } from '../model/json-rpc.js';

/** The ids of redirected requests and notifications the client sent again later, among `exchanges` (in any order). */
export function followedRedirects(exchanges: Iterable<ExchangeSummary>): Set<string> {
  const requests: { ex: ExchangeSummary; key: string; seq: number }[] = [];
  /** The last time each request (session, method, id) was sent, by the seq of its frame. */
  const lastSent = new Map<string, number>();
  for (const ex of exchanges) {
    const id = clientMessageKey(ex);
    if (id === undefined) continue;
    const key = `${ex.sessionKey}\n${ex.method}\n${id}`;
    // An exchange's id is the seq of the frame that opened it (`.N` for an item of a batch).
    const seq = Number.parseFloat(ex.id);
    requests.push({ ex, key, seq });
    lastSent.set(key, Math.max(lastSent.get(key) ?? -Infinity, seq));
  }
  const followed = new Set<string>();
  for (const { ex, key, seq } of requests) if (ex.transportEvent === 'redirected' && lastSent.get(key)! > seq) followed.add(ex.id);
  return followed;
}

/** What names a client message among its session's messages of one method: its id, or that it is a notification. */
function clientMessageKey(ex: ExchangeSummary): string | undefined {
  if (ex.method === undefined) return undefined;
  if (ex.kind === 'request') return ex.requester === 'client' && ex.rpcId !== undefined ? idKey(ex.rpcId) : undefined;
  return ex.kind === 'notification' && ex.direction === 'c2s' && ex.method !== 'transport' ? 'notification' : undefined;
}

/**
 * The rows with client notifications the server redirected marked so. A notification has no id to
 * pair the tap's `redirected` transport row with, so that row stands apart; it was recorded for the
 * same HTTP request (the frames share a connectionId, one per request the tap forwards).
 */
export function markRedirectedNotifications(exchanges: readonly ExchangeSummary[], frameAt: (seq: number) => Frame | undefined): readonly ExchangeSummary[] {
  const connectionOf = (ex: ExchangeSummary) => frameAt(ex.frameSeqs[0]!)?.http?.connectionId;
  const redirected = new Set<string>();
  for (const ex of exchanges) {
    const conn = ex.method === 'transport' && ex.transportEvent === 'redirected' ? connectionOf(ex) : undefined;
    if (conn !== undefined) redirected.add(conn);
  }
  if (redirected.size === 0) return exchanges;
  return exchanges.map((ex) => {
    if (clientMessageKey(ex) !== 'notification' || ex.transportEvent !== undefined) return ex;
    const conn = connectionOf(ex);
    return conn !== undefined && redirected.has(conn) ? { ...ex, transportEvent: 'redirected' as const } : ex;
  });
}
