/**
 * Requests the tap's Host/Origin guard refused, counted and sampled instead of recorded one by one:
 * a web page can send them as fast as the browser allows, and each would otherwise be a whole
 * door record (its path and headers) in the capture file.
 *
 * Invariants: the first refusal of a Host and Origin pair becomes a door record (answer 'refused',
 * its headers as for any record); every later one of the pair only updates that record's
 * `refusals` (an exact count, the latest time, a ring of the last DOOR_REFUSAL_SAMPLES samples with
 * cut paths). At most REFUSAL_PAIRS_LIMIT pairs get records of their own; refusals of any further
 * pair are counted on one overflow record. So the door's storage for refused requests is bounded
 * by the number of pairs, whatever their count, and the count stays exact.
 */
import { DOOR_REFUSAL_PATH_CHARS, DOOR_REFUSAL_SAMPLES, type DoorRecord, type DoorRefusalSample } from '@mcpscope/protocol';
import type { Refusal } from '../core/request-watch.js';
import type { DoorSink } from './door-watch.js';

/** Host and Origin pairs that get a record each; refusals of more pairs share one record. */
export const REFUSAL_PAIRS_LIMIT = 64;
/** A Host or Origin longer than this is told apart by its start only. */
const KEY_PART_CHARS = 256;

export interface RefusedRequest {
  host: string | undefined;
  origin: string | undefined;
  ts: number;
  method: string;
  /** Redacted path and query. */
  path: string;
  address: string;
}

export class RefusalTally {
  private readonly byPair = new Map<string, DoorRecord>();
  private overflow: DoorRecord | undefined;

  constructor(private readonly sink: DoorSink) {}

  /**
   * Counts a refused request; `record` makes the door record a new pair starts with (called only
   * then, so a refusal of a known pair copies no headers).
   */
  refused(request: RefusedRequest, refusal: Refusal, record: () => DoorRecord): void {
    const { reason } = refusal;
    const key = `${(request.host ?? '').slice(0, KEY_PART_CHARS)}\n${request.origin === undefined ? '' : `=${request.origin.slice(0, KEY_PART_CHARS)}`}`;
    const known = this.byPair.get(key) ?? (this.byPair.size >= REFUSAL_PAIRS_LIMIT ? this.overflow : undefined);
    if (known) {
      const refusals = known.refusals!;
      refusals.count++;
      refusals.lastTs = request.ts;
      refusals.samples.push(sampleOf(request));
      if (refusals.samples.length > DOOR_REFUSAL_SAMPLES) refusals.samples.shift();
      this.sink.doorChanged(known);
      return;
    }
    const first = record();
    first.answer = 'refused';
    first.status = 403;
    first.end = 'complete';
    first.endMs = 0;
    first.refusals = { count: 1, lastTs: request.ts, samples: [sampleOf(request)] };
    if (this.byPair.size < REFUSAL_PAIRS_LIMIT) {
      if (request.origin !== undefined) first.refusals.origin = request.origin;
      if (refusal.refusedHost) first.refusals.refusedHost = { host: refusal.refusedHost.host, fix: refusal.refusedHost.fix };
      first.note = reason;
      this.byPair.set(key, first);
    } else {
      first.note = `Refused requests of more than ${REFUSAL_PAIRS_LIMIT} Host and Origin pairs are counted on this record, each pair after the first ${REFUSAL_PAIRS_LIMIT} sampled here. This one: ${reason}`;
      this.overflow = first;
    }
    this.sink.doorChanged(first);
  }
}

function sampleOf(request: RefusedRequest): DoorRefusalSample {
  return { ts: request.ts, method: request.method.slice(0, 32), path: request.path.slice(0, DOOR_REFUSAL_PATH_CHARS), address: request.address };
}
