/**
 * `--otlp URL` during capture: listens to the capture pipeline's batches (never to the tap) and
 * sends one span per exchange once the exchange has finished (any status but `pending`), once.
 *
 * The batch listener only takes a place in the sender's bounded queue and notes the exchange;
 * reading its frames and building the span happen on a later turn of the event loop, so the
 * pipeline's write tick is not lengthened by export work, and an exchange that finds the queue
 * full costs nothing beyond its count. An exchange still pending when mcpscope stops is not sent
 * (`mcpscope export --format otlp` sends it from the file, with its status).
 */
import { isTerminal, type ExchangeSummary } from '@mcpscope/protocol';
import type { CaptureBatch } from '../capture/capture-pipeline.js';
import { readFacts, type FactsSource } from './exchange-facts.js';
import type { BodyAttributes } from './span-bodies.js';
import { planSpan } from './span-plan.js';
import type { SpanSender } from './span-sender.js';

/** How many exchange ids are remembered as sent (a later update of an older one is not resent). */
const SENT_MEMORY = 100_000;

export interface LiveExportDeps {
  onBatch(listener: (batch: CaptureBatch) => void): () => void;
  source: FactsSource;
  sender: SpanSender;
  bodies?: BodyAttributes;
}

export class LiveOtlpExport {
  private readonly sent = new Set<string>();
  private queue: ExchangeSummary[] = [];
  private scheduled = false;
  private readonly detach: () => void;

  constructor(private readonly deps: LiveExportDeps) {
    this.detach = deps.onBatch((batch) => this.take(batch.exchanges));
  }

  /** Stops listening, sends what was taken, and waits (briefly) for the exporter. */
  async close(): Promise<void> {
    this.detach();
    this.drain();
    await this.deps.sender.close();
  }

  private take(exchanges: readonly ExchangeSummary[]): void {
    for (const ex of exchanges) {
      if (!isTerminal(ex.status) || this.sent.has(ex.id)) continue;
      this.remember(ex.id);
      if (this.deps.sender.reserve()) this.queue.push(ex);
    }
    if (this.queue.length > 0 && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.drain());
    }
  }

  private drain(): void {
    this.scheduled = false;
    const queue = this.queue;
    this.queue = [];
    const bodies = this.deps.bodies;
    for (const ex of queue) {
      try {
        this.deps.sender.start(planSpan(readFacts(this.deps.source, ex, bodies !== undefined), bodies));
      } catch (err) {
        // The capture closed under us (shutdown), or a row could not be read: that span is lost.
        this.deps.sender.abandon(`exchange ${ex.id} could not be read: ${(err as Error).message}`);
      }
    }
  }

  private remember(id: string): void {
    this.sent.add(id);
    if (this.sent.size > SENT_MEMORY) this.sent.delete(this.sent.values().next().value!);
  }
}
