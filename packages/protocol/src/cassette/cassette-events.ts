/**
 * What the server sent while it answered one call: the frames between the request and its
 * answer that belong to that call. Over Streamable HTTP that is exactly the POST's own SSE stream
 * (same connection); elsewhere (a GET stream, stdio, HTTP+SSE) it is what the deriver linked to
 * the call (progress by `progressToken`), plus server requests sent while this call was the only
 * one in flight in its session. A server request carries the client's captured reply, so a mock
 * can wait for the live client's and verify can answer as the client did.
 */
import type { ExchangeSummary } from '../model/exchange.js';
import type { Frame } from '../model/frame.js';
import { wireValue, type Single } from '../derive/item-context.js';
import type { JsonObject, Message } from '../model/json-rpc.js';

export type CassetteEvent =
  | { kind: 'notification'; offsetMs: number; message: JsonObject }
  | { kind: 'request'; offsetMs: number; message: JsonObject; method: string; reply?: { offsetMs: number; message: JsonObject } };

export class EventIndex {
  /** Server→client data frames by the HTTP connection they rode on, in capture order. */
  private readonly byConnection = new Map<string, Frame[]>();
  /** Server-initiated request exchanges by the seq of their request frame. */
  private readonly serverRequests = new Map<number, ExchangeSummary>();
  /** The seqs of those requests per session, ascending (for a range search). */
  private readonly serverRequestSeqs = new Map<string, number[]>();
  /** Client calls that no other call of their session overlapped. */
  private readonly lone = new Set<string>();
  /** Server→client frames some call's events hold, by seq: that call's exchange id (what is left are pushes). */
  readonly claimed = new Map<number, string>();

  constructor(
    frames: readonly Frame[],
    private readonly bySeq: ReadonlyMap<number, Frame>,
    private readonly messages: ReadonlyMap<number, Message>,
    exchanges: Iterable<ExchangeSummary>,
  ) {
    for (const f of frames) {
      const conn = f.http?.connectionId;
      if (f.direction === 's2c' && f.kind === 'data' && conn !== undefined) {
        let list = this.byConnection.get(conn);
        if (!list) this.byConnection.set(conn, (list = []));
        list.push(f);
      }
    }
    const calls = new Map<string, ExchangeSummary[]>();
    for (const ex of exchanges) {
      if (ex.requestSeq === undefined) continue;
      if (ex.requester === 'server') {
        this.serverRequests.set(ex.requestSeq, ex);
        push(this.serverRequestSeqs, ex.sessionKey, ex.requestSeq);
      }
      if (ex.requester === 'client') push(calls, ex.sessionKey, ex);
    }
    for (const list of this.serverRequestSeqs.values()) list.sort((a, b) => a - b);
    // One sweep per session in request order: a call is alone when every earlier call ended
    // before it started and the next one started after it ended.
    for (const list of calls.values()) {
      list.sort((a, b) => a.requestSeq! - b.requestSeq!);
      let endedBefore = Number.NEGATIVE_INFINITY;
      list.forEach((ex, i) => {
        const end = ex.responseSeq ?? Number.POSITIVE_INFINITY;
        const next = list[i + 1];
        if (endedBefore < ex.requestSeq! && (!next || next.requestSeq! > end)) this.lone.add(ex.id);
        endedBefore = Math.max(endedBefore, end);
      });
    }
  }

  /** The events of one client call, in capture order, timed from its request frame. */
  eventsOf(ex: ExchangeSummary, request: Frame): CassetteEvent[] {
    const end = ex.responseSeq ?? Number.POSITIVE_INFINITY;
    const seqs = new Set<number>();
    const conn = request.http?.connectionId;
    for (const f of conn !== undefined ? (this.byConnection.get(conn) ?? []) : []) if (f.seq > request.seq && f.seq < end) seqs.add(f.seq);
    for (const s of ex.frameSeqs) if (s > request.seq && s < end && this.bySeq.get(s)?.direction === 's2c') seqs.add(s);
    if (this.lone.has(ex.id)) {
      const list = this.serverRequestSeqs.get(ex.sessionKey) ?? [];
      for (let i = firstAbove(list, request.seq); i < list.length && list[i]! < end; i++) seqs.add(list[i]!);
    }
    const events: CassetteEvent[] = [];
    for (const seq of [...seqs].sort((a, b) => a - b)) {
      const frame = this.bySeq.get(seq)!;
      if (frame.kind !== 'data') continue;
      this.claimed.set(seq, ex.id);
      const offsetMs = Math.max(0, frame.ts - request.ts);
      for (const item of items(this.messages.get(seq))) {
        if (item.kind === 'notification') events.push({ kind: 'notification', offsetMs, message: wireValue(item) });
        if (item.kind === 'request') {
          const event: CassetteEvent = { kind: 'request', offsetMs, message: wireValue(item), method: item.method };
          const reply = this.replyTo(seq, item, request.ts);
          if (reply) event.reply = reply;
          events.push(event);
        }
      }
    }
    return events;
  }

  private replyTo(seq: number, request: Extract<Single, { kind: 'request' }>, callTs: number): { offsetMs: number; message: JsonObject } | undefined {
    const sr = this.serverRequests.get(seq);
    const frame = sr?.responseSeq !== undefined ? this.bySeq.get(sr.responseSeq) : undefined;
    if (!frame) return undefined;
    const answer = items(this.messages.get(frame.seq)).find((m) => (m.kind === 'response' || m.kind === 'error') && m.id === request.id);
    return answer ? { offsetMs: Math.max(0, frame.ts - callTs), message: wireValue(answer) } : undefined;
  }
}

/** The single messages of a frame's message (a batch's items). */
export function items(message: Message | undefined): Single[] {
  if (!message) return [];
  return message.kind === 'batch' ? message.items.filter((m): m is Single => m.kind !== 'batch') : [message];
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The index of the first element greater than `seq` in an ascending list. */
function firstAbove(list: readonly number[], seq: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
