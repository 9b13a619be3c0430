/**
 * The control replay of an evidence pack: the failed call sent once more, in a fresh session,
 * to the same live server, and its answer compared with the captured one (the cassette compare,
 * as `mcpscope verify` does). The replay itself is handed in by compose/ (the replay service);
 * it exists only in a running mcpscope with an upstream, never over a capture file alone, and
 * an imported session is never replayed: no live server is known to have answered it.
 */
import { comparableStatus, compareOutcomes, isImportedSession, isJsonObject, outcomeOf, type CallOutcome, type Comparison, type ExchangeSummary, type JsonObject, type JsonValue } from '@mcpscope/protocol';
import type { CaptureReader } from '../capture/capture-reader.js';

export type ControlReplayResult = { ok: true; exchange: ExchangeSummary } | { ok: false; message: string; exchange?: ExchangeSummary };

/** Sends `message` (the captured request of `exchangeId`) in a fresh session to the upstream. */
export type ControlReplay = (request: { exchangeId: string; message: JsonObject }, signal: AbortSignal) => Promise<ControlReplayResult>;

export type ControlReplayOutcome =
  | { status: 'done'; replayOf: string; exchange: ExchangeSummary; comparison?: Comparison }
  | { status: 'not-run' | 'failed'; replayOf: string; note: string; exchange?: ExchangeSummary };

/** Why `ex` cannot be replayed, or undefined when it can. */
export function notReplayable(ex: ExchangeSummary, replay: ControlReplay | undefined): string | undefined {
  if (!replay) return 'no live server here: a control replay needs a running mcpscope with an upstream (--target or --stdio), not a capture file';
  if (isImportedSession(ex.sessionKey)) return `session ${ex.sessionKey} was imported from a file: no live server is known to have answered it, so nothing is sent`;
  if (ex.kind !== 'request' || ex.requester !== 'client' || ex.requestSeq === undefined) return `exchange ${ex.id} is not a client's request with a captured request frame`;
  return undefined;
}

export async function runControlReplay(source: CaptureReader, ex: ExchangeSummary, replay: ControlReplay | undefined, signal: AbortSignal): Promise<ControlReplayOutcome> {
  const refused = notReplayable(ex, replay);
  if (refused) return { status: 'not-run', replayOf: ex.id, note: refused };
  const message = messageOf(source, ex.requestSeq!, ex);
  if (!message) return { status: 'not-run', replayOf: ex.id, note: `the request of exchange ${ex.id} is not a JSON-RPC message that can be sent again` };
  const result = await replay!({ exchangeId: ex.id, message }, signal);
  if (!result.ok) return { status: 'failed', replayOf: ex.id, note: result.message, ...(result.exchange ? { exchange: result.exchange } : {}) };
  const before = outcomeFor(source, ex);
  const after = outcomeFor(source, result.exchange);
  return { status: 'done', replayOf: ex.id, exchange: result.exchange, ...(before && after ? { comparison: compareOutcomes(before, after) } : {}) };
}

/** How an exchange ended, as the cassette compare reads it; undefined when it has no comparable end. */
function outcomeFor(source: CaptureReader, ex: ExchangeSummary): CallOutcome | undefined {
  const status = comparableStatus(ex.status);
  if (status === undefined) return undefined;
  if (status === 'transport_error') return outcomeOf(undefined, ex.transportEvent ?? ex.errorMessage ?? 'transport error');
  const answer = ex.responseSeq === undefined ? undefined : messageOf(source, ex.responseSeq, ex);
  return outcomeOf(answer as JsonValue | undefined);
}

/** The JSON-RPC message of an exchange in a frame (in a batch, the item with the exchange's id). */
function messageOf(source: CaptureReader, seq: number, ex: ExchangeSummary): JsonObject | undefined {
  const raw = source.frameRaw(seq)?.raw;
  if (raw === undefined) return undefined;
  try {
    let value = JSON.parse(raw) as unknown;
    if (Array.isArray(value)) value = value.find((m) => isJsonObject(m) && m.id === ex.rpcId);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
