/**
 * Causality between exchanges: which `tools/call` a server→client request (sampling, elicitation,
 * roots) was sent during, and back. Pure: spans in, links out.
 *
 * Over Streamable HTTP a server that relates its request to the call it is working on sends it on
 * that call's POST answer stream, so the frame's HTTP request (`connectionId`) names the call
 * exactly: basis `stream`. A request that rode on a POST carrying no tools/call (a prompts/get,
 * say) was caused by that request, not by any call, and links to none. Everything else (the
 * standalone GET stream, stdio, a legacy SSE channel) can only be matched by time: the calls of
 * the same session still open when the request was sent, basis `overlap`, which the dashboard
 * words as a guess.
 *
 * The reverse direction is defined through the forward one, so a call lists exactly the requests
 * that list it.
 */
import type { ExchangeSummary } from '../model/exchange.js';

/** The requests a server sends its client while it works on something. */
export const SERVER_TO_CLIENT_REQUESTS: readonly string[] = ['sampling/createMessage', 'elicitation/create', 'roots/list'];

/** A `tools/call` as causality needs it. */
export interface CallSpan {
  id: string;
  sessionKey: string;
  startTs: number;
  /** When its answer came; undefined while it is still open. */
  endTs?: number;
  /** The HTTP request its request frame rode on (one per POST); absent off HTTP. */
  connectionId?: string;
}

/** A server→client request as causality needs it. */
export interface ServerRequestSpan {
  id: string;
  sessionKey: string;
  startTs: number;
  /** The HTTP request whose answer carried the frame (a POST's SSE stream, or the GET stream). */
  via?: { method: string; connectionId?: string };
}

export type CausalBasis = 'stream' | 'overlap';

export interface CausalLink {
  id: string;
  basis: CausalBasis;
}

/** Whether the exchange is a server's request of the kind that a call can cause. */
export function isServerToClientRequest(ex: Pick<ExchangeSummary, 'kind' | 'requester' | 'method'>): boolean {
  return ex.kind === 'request' && ex.requester === 'server' && ex.method !== undefined && SERVER_TO_CLIENT_REQUESTS.includes(ex.method);
}

/** Whether the exchange is a client's tools/call. */
export function isToolCall(ex: Pick<ExchangeSummary, 'kind' | 'requester' | 'method'>): boolean {
  return ex.kind === 'request' && ex.requester === 'client' && ex.method === 'tools/call';
}

/** Whether the call was open at `ts` (sent at or before it, not yet answered). */
export function openAt(call: CallSpan, ts: number): boolean {
  return call.startTs <= ts && (call.endTs === undefined || ts <= call.endTs);
}

/** The calls `request` was sent during, exactly (its POST's stream) or by time overlap. */
export function callsBehind(request: ServerRequestSpan, calls: readonly CallSpan[]): CausalLink[] {
  const session = calls.filter((c) => c.sessionKey === request.sessionKey);
  const post = request.via?.method === 'POST' ? request.via.connectionId : undefined;
  if (post !== undefined) return session.filter((c) => c.connectionId === post).map((c) => ({ id: c.id, basis: 'stream' }));
  return session.filter((c) => openAt(c, request.startTs)).map((c) => ({ id: c.id, basis: 'overlap' }));
}

/** The requests sent during `call`: those whose callsBehind names it. */
export function requestsDuring(call: CallSpan, requests: readonly ServerRequestSpan[], calls: readonly CallSpan[]): CausalLink[] {
  const all = calls.some((c) => c.id === call.id) ? calls : [...calls, call];
  const links: CausalLink[] = [];
  for (const r of requests) {
    const link = callsBehind(r, all).find((l) => l.id === call.id);
    if (link) links.push({ id: r.id, basis: link.basis });
  }
  return links;
}
