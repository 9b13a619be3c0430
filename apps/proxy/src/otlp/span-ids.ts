/**
 * Trace and span ids that follow from the capture, not from chance: a session's trace id is a
 * hash of its key and first timestamp, an exchange's span id a hash of its trace id and exchange
 * id. So every span of a session lands in one trace, a replay can link to its original's span
 * without any table of what was sent, and exporting the same capture again (live, then with
 * `mcpscope export --format otlp`) yields the same ids rather than a second copy of each trace.
 *
 * The SDK asks its IdGenerator for ids as a span starts; `PresetIds` hands it the ids chosen for
 * the span about to start (spans are started one at a time, synchronously, each after a preset).
 */
import { createHash } from 'node:crypto';
import type { IdGenerator } from '@opentelemetry/sdk-trace';

export interface SpanIds {
  traceId: string;
  spanId: string;
}

function digest(text: string, hexChars: number): string {
  const hex = createHash('sha256').update(text).digest('hex').slice(0, hexChars);
  // All zeros is the invalid id; a hash that starts so is all but impossible, but never send it.
  return /^0+$/.test(hex) ? '1'.padStart(hexChars, '0') : hex;
}

/** The trace of a session: 32 hex characters. `firstTs` keeps two captures that reuse a key (stdio:1234) apart. */
export function traceIdOf(sessionKey: string, firstTs: number | undefined): string {
  return digest(`mcpscope trace\u0000${sessionKey}\u0000${firstTs ?? ''}`, 32);
}

/** The span of an exchange within its session's trace: 16 hex characters. */
export function spanIdOf(traceId: string, exchangeId: string): string {
  return digest(`mcpscope span\u0000${traceId}\u0000${exchangeId}`, 16);
}

export class PresetIds implements IdGenerator {
  private next: SpanIds | undefined;

  /** The ids the next span started takes. */
  preset(ids: SpanIds): void {
    this.next = ids;
  }

  generateTraceId(): string {
    return this.take().traceId;
  }

  generateSpanId(): string {
    return this.take().spanId;
  }

  private take(): SpanIds {
    if (!this.next) throw new Error('PresetIds: a span was started without preset ids');
    return this.next;
  }
}
