/**
 * What a rule's filter sees of a client message at the tap, before any answer: the message as an
 * exchange row that has just opened (pending, no latency yet). Fields that need an answer
 * (`status:ok`, `latency>`, `code:`) match nothing here, so a rule acts on what the request says.
 */
import type { ExchangeSummary } from '../model/exchange.js';
import { classifyText, type JsonObject, type JsonRpcId } from '../model/json-rpc.js';
import { targetOf } from '../model/target.js';
import { utf8Length } from '../model/utf8.js';

/** A single client request a rule may act on; undefined for batches, answers and junk. */
export interface RuleSubject {
  summary: ExchangeSummary;
  method: string;
  /** The request's id (a notification has none: only delay, pause and drop apply to it). */
  rpcId?: JsonRpcId;
  params?: JsonObject;
}

export function ruleSubject(raw: string, sessionKey: string, ts: number): RuleSubject | undefined {
  const message = classifyText(raw);
  if (message.kind !== 'request' && message.kind !== 'notification') return undefined;
  const summary: ExchangeSummary = {
    id: '',
    sessionKey,
    requester: message.kind === 'request' ? 'client' : 'none',
    direction: 'c2s',
    kind: message.kind,
    method: message.method,
    status: 'pending',
    startTs: ts,
    frameSeqs: [],
    size: utf8Length(raw),
    diagnostics: 0,
    updatedSeq: 0,
  };
  const target = targetOf(message.method, message.params);
  if (target !== undefined) summary.target = target;
  const params = message.params ? { params: message.params } : {};
  if (message.kind === 'request') {
    summary.rpcId = message.id;
    return { summary, method: message.method, rpcId: message.id, ...params };
  }
  return { summary, method: message.method, ...params };
}
