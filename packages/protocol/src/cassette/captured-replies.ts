/**
 * Answers a live server's requests the way the captured client answered them (`mcpscope verify`
 * and `mcpscope load` re-play the client side of a capture). During a call, the k-th request of
 * a method gets the captured reply to the k-th one of that call; a request the call never saw,
 * or one outside any call (roots/list on the session's stream), gets the session's captured
 * reply to the same method outside calls, in turn, the last one again once they are used up.
 * `ping` is always answered; anything else the captured client never answered gets a JSON-RPC
 * error that says so, in `who`'s name.
 */
import type { JsonObject, RequestMessage } from '../model/json-rpc.js';
import type { CassetteCall } from './cassette.js';
import type { CassettePush } from './cassette-pushes.js';

export function answerAsCaptured(call: CassetteCall | undefined, pushes: readonly CassettePush[], who: string): (request: RequestMessage) => JsonObject {
  const used = new Map<string, number>();
  const pushed = new Map<string, number>();
  return (request): JsonObject => {
    const k = used.get(request.method) ?? 0;
    used.set(request.method, k + 1);
    const captured = (call?.events ?? []).filter((e) => e.kind === 'request' && e.method === request.method);
    const event = captured[Math.min(k, captured.length - 1)];
    let reply = event?.kind === 'request' ? event.reply?.message : undefined;
    if (!reply) {
      const outside = pushes.filter((p) => p.kind === 'request' && p.method === request.method && p.reply);
      const j = pushed.get(request.method) ?? 0;
      pushed.set(request.method, j + 1);
      reply = outside[Math.min(j, outside.length - 1)]?.reply?.message;
    }
    if (reply) return { ...reply, id: request.id };
    if (request.method === 'ping') return { jsonrpc: '2.0', id: request.id, result: {} };
    return { jsonrpc: '2.0', id: request.id, error: { code: -32601, message: `${who}: the captured client never answered ${request.method}${call ? ' during this call' : ''}` } };
  };
}
