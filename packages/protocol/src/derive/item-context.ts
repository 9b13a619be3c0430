/**
 * What every per-message check sees: one message (a batch is checked item by item), who sent it,
 * the revision it is judged by, its session, and — for an answer — the request it answers.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Frame } from '../model/frame.js';
import type { JsonObject, Message } from '../model/json-rpc.js';
import type { SessionSummary } from '../session/session-summary.js';
import type { Revision } from '../revisions/revisions.js';

export type Single = Exclude<Message, { kind: 'batch' }>;

export interface ItemContext {
  frame: Frame;
  item: Single;
  /** `$` for a single message, `$[2]` for the third item of a batch: the base of every path. */
  base: string;
  sender: 'client' | 'server';
  /** The revision the message is judged by, when one is known. */
  revision?: Revision;
  session?: SessionSummary;
  /** For a response or error: the request it answers (method, params, target). */
  request?: { method: string; params?: JsonObject; target?: string };
  exchangeId?: string;
  /**
   * For a notification: the request in flight from the other side whose id one of its params
   * (`id`, `requestId`, `callId`) holds — a reply sent as a notification.
   */
  namesRequest?: { exchangeId: string; method: string; field: string };
}

/** A finding before it is tied to its frame and exchange. */
export type Finding = Pick<Diagnostic, 'code' | 'severity' | 'message'> & { path?: string };

/** Rebuilds the wire object of a classified message (classification keeps every member that matters). */
export function wireValue(item: Single): JsonObject {
  switch (item.kind) {
    case 'request':
      return { jsonrpc: '2.0', id: item.id, method: item.method, ...(item.params ? { params: item.params } : {}) };
    case 'notification':
      return { jsonrpc: '2.0', method: item.method, ...(item.params ? { params: item.params } : {}) };
    case 'response':
      return { jsonrpc: '2.0', id: item.id, result: item.result };
    case 'error':
      return { jsonrpc: '2.0', ...(item.noId ? {} : { id: item.id }), error: item.error };
    case 'invalid':
      return {};
  }
}

