/**
 * Which filters a summary alone can answer exactly. Free text searches bodies and `diag:CODE`
 * needs the diagnostics' codes; neither travels in an ExchangeSummary, so a client that holds
 * only summaries (the dashboard) must ask the capture (`GET /api/exchanges?filter=`) for those,
 * or it would show fewer rows than the API and still claim the filter means "a body contains".
 */
import type { Filter } from './types.js';

export function answerableFromSummary(filter: Filter | null): boolean {
  if (filter === null) return true;
  switch (filter.type) {
    case 'text':
      return false;
    case 'field':
      return filter.field !== 'diag';
    case 'not':
      return answerableFromSummary(filter.item);
    case 'and':
    case 'or':
      return filter.items.every(answerableFromSummary);
  }
}
