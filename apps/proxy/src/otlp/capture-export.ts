/**
 * `mcpscope export --format otlp`: a stored capture's exchanges as spans, through the same
 * mapping as live export and the same SDK exporter, but nothing is dropped: each span waits for
 * room in the queue. Ids are those live export used (span-ids.ts), so a capture exported after it
 * was streamed lands on the same traces instead of duplicating them under new ids.
 */
import type { ExchangeSummary, Filter, OtlpStatus } from '@mcpscope/protocol';
import type { ExchangeFinder } from '../capture/capture-reader.js';
import { readFacts, type FactsSource } from './exchange-facts.js';
import type { BodyAttributes } from './span-bodies.js';
import { planSpan } from './span-plan.js';
import type { SpanSender } from './span-sender.js';

export interface ExportSelection {
  exchange?: string;
  session?: string;
  filter?: Filter;
}

export type SelectionSource = FactsSource & { exchangesInCaptureOrder(session?: string): Iterable<ExchangeSummary> };

/** The selected exchanges: one by id, those a filter matches (newest first), or all in capture order. */
export function* selectExchanges(source: SelectionSource, find: ExchangeFinder, selection: ExportSelection): Iterable<ExchangeSummary> {
  if (selection.exchange !== undefined) {
    const ex = source.exchange(selection.exchange);
    if (ex) yield ex;
    return;
  }
  if (!selection.filter) {
    yield* source.exchangesInCaptureOrder(selection.session);
    return;
  }
  let before: number | undefined;
  do {
    const page = find(selection.filter, 500, before);
    for (const ex of page.exchanges) if (selection.session === undefined || ex.sessionKey === selection.session) yield ex;
    before = page.nextBefore;
  } while (before !== undefined);
}

/** Sends every exchange as a span and waits for the exporter's answer about each. */
export async function exportExchanges(exchanges: Iterable<ExchangeSummary>, source: FactsSource, sender: SpanSender, bodies?: BodyAttributes): Promise<OtlpStatus> {
  for (const ex of exchanges) await sender.send(planSpan(readFacts(source, ex, bodies !== undefined), bodies));
  await sender.flush();
  const status = sender.status();
  await sender.close();
  return status;
}
