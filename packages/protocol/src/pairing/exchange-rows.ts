/**
 * The rows pairing makes: what a new exchange summary holds when a frame opens it (a request, an
 * answer that came first, a notification, junk, a transport failure nobody waited on), and how an
 * answer sets a row's outcome. Which row a frame belongs to is exchange-tracker.ts's job.
 */
import { bodyBytes, type Frame } from '../model/frame.js';
import { isJsonObject, type ErrorMessage, type JsonObject, type NotificationMessage, type RequestMessage, type ResponseMessage } from '../model/json-rpc.js';
import type { ExchangeSummary } from '../model/exchange.js';
import type { TransportEvent } from '../model/transport-frame.js';

export type Side = 'client' | 'server';

/** A request waiting for its answer. */
export function requestRow(frame: Frame, msg: RequestMessage, rowId: string, side: Side, target: string | undefined): ExchangeSummary {
  const ex: ExchangeSummary = {
    id: rowId,
    sessionKey: frame.sessionKey,
    requester: side,
    direction: frame.direction,
    kind: 'request',
    method: msg.method,
    rpcId: msg.id,
    status: 'pending',
    startTs: frame.ts,
    requestSeq: frame.seq,
    frameSeqs: [frame.seq],
    size: bodyBytes(frame),
    diagnostics: 0,
    updatedSeq: frame.seq,
  };
  if (target !== undefined) ex.target = target;
  const rule = frame.http?.rule;
  if (rule !== undefined) ex.intercepted = { rule: rule.rule, text: rule.text, action: rule.action };
  return ex;
}

/** An answer whose request has not been seen (yet): it waits for it as an orphan. */
export function orphanRow(frame: Frame, msg: ResponseMessage | ErrorMessage, rowId: string, requester: Side): ExchangeSummary {
  const orphan: ExchangeSummary = {
    id: rowId,
    sessionKey: frame.sessionKey,
    requester,
    direction: frame.direction === 'c2s' ? 's2c' : 'c2s',
    kind: 'request',
    rpcId: msg.id,
    status: 'orphan',
    startTs: frame.ts,
    endTs: frame.ts,
    responseSeq: frame.seq,
    frameSeqs: [frame.seq],
    size: bodyBytes(frame),
    diagnostics: 1,
    updatedSeq: frame.seq,
  };
  applyOutcome(orphan, msg);
  if (orphan.status === 'ok') orphan.status = 'orphan';
  return orphan;
}

export function notificationRow(frame: Frame, msg: NotificationMessage, rowId: string): ExchangeSummary {
  return {
    id: rowId,
    sessionKey: frame.sessionKey,
    requester: 'none',
    direction: frame.direction,
    kind: 'notification',
    method: msg.method,
    status: 'ok',
    startTs: frame.ts,
    frameSeqs: [frame.seq],
    size: bodyBytes(frame),
    diagnostics: 0,
    updatedSeq: frame.seq,
  };
}

/** Bytes that are not a JSON-RPC message, answering nothing pending on their connection. */
export function invalidRow(frame: Frame, reason: string, rowId: string): ExchangeSummary {
  return {
    id: rowId,
    sessionKey: frame.sessionKey,
    requester: frame.direction === 'c2s' ? 'client' : 'server',
    direction: frame.direction,
    kind: 'invalid',
    status: 'invalid',
    startTs: frame.ts,
    frameSeqs: [frame.seq],
    errorMessage: reason,
    size: bodyBytes(frame),
    diagnostics: 1,
    updatedSeq: frame.seq,
  };
}

/** A failure of the path (upstream down, stream cut) with no request waiting on that connection. */
export function transportRow(frame: Frame, message: string, event: TransportEvent | undefined): ExchangeSummary {
  const row: ExchangeSummary = {
    id: String(frame.seq),
    sessionKey: frame.sessionKey,
    requester: 'none',
    kind: 'notification',
    method: 'transport',
    status: 'transport_error',
    startTs: frame.ts,
    frameSeqs: [frame.seq],
    errorMessage: message,
    size: 0,
    diagnostics: 0,
    updatedSeq: frame.seq,
  };
  if (event !== undefined) row.transportEvent = event;
  return row;
}

/** Adds a frame to a row and marks the row changed. */
export function attach(ex: ExchangeSummary, frame: Frame, changed: Set<ExchangeSummary>): void {
  ex.frameSeqs.push(frame.seq);
  ex.updatedSeq = frame.seq;
  changed.add(ex);
}

/** Progress notes kept per exchange for the waterfall; a call that reports 10,000 times keeps its first ones. */
export const PROGRESS_MARKS_MAX = 32;

/** Notes when a progress notification came, as ms after the request (the waterfall's ticks). */
export function noteProgress(ex: ExchangeSummary, frame: Frame): void {
  const at = (ex.progressAt ??= []);
  if (at.length < PROGRESS_MARKS_MAX) at.push(Math.max(0, frame.ts - ex.startTs));
}

/** Sets status and error fields from the answer. */
export function applyOutcome(ex: ExchangeSummary, msg: ResponseMessage | ErrorMessage): void {
  if (msg.kind === 'error') {
    ex.status = 'protocol_error';
    ex.errorCode = msg.error.code;
    ex.errorMessage = msg.error.message;
    return;
  }
  if (msg.result.isError === true) {
    ex.status = 'business_error';
    ex.errorMessage = firstText(msg.result) ?? 'tool reported isError: true';
    return;
  }
  ex.status = 'ok';
}

function firstText(result: JsonObject): string | undefined {
  const content = result.content;
  if (!Array.isArray(content)) return undefined;
  for (const block of content) {
    if (isJsonObject(block) && block.type === 'text' && typeof block.text === 'string') return block.text.slice(0, 300);
  }
  return undefined;
}
