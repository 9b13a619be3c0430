/**
 * The filter language's near misses: `latency > 10` (spaces around the operator), `a OR b` and
 * `a and b` (words where the language has `|` and a space) are valid filters, but free-text ones
 * that search for "latency", ">" and "10". The filter still means what was typed; the status line
 * offers the intended spelling. Quoted text is never touched.
 */
import { FILTER_OPERATORS } from '@mcpscope/protocol';

export interface SyntaxHint {
  /** The filter as it was probably meant. */
  fixed: string;
  /** What was changed, in words. */
  reasons: string[];
}

const FIELDS = new Set(FILTER_OPERATORS.flatMap((o) => (o.field ? [o.field.toLowerCase()] : [])));
const SPACED_OPERATOR = /(^|[\s(!])([A-Za-z][\w.]*)(?:\s+([<>:])\s*|\s*([<>:])\s+)(?=[^\s|&)=])/g;
const OR_WORD = /(?<=\s)OR(?=\s)/gi;
const AND_WORD = /\s+AND(?=\s)/gi;

export function syntaxHint(text: string): SyntaxHint | undefined {
  const reasons = new Set<string>();
  // Odd pieces are quoted strings: kept as they are.
  const pieces = text.split(/("(?:[^"\\]|\\.)*")/);
  const fixed = pieces
    .map((piece, i) => {
      if (i % 2 === 1) return piece;
      // The words first: dropping an `and` can bring a field and an operator together
      // (`latency and > 10`), and the suggestion must not need a second one.
      const out = piece.replace(OR_WORD, () => (reasons.add('| means or'), '|')).replace(AND_WORD, () => (reasons.add('a space means and'), ''));
      return out.replace(SPACED_OPERATOR, (all: string, lead: string, field: string, op1?: string, op2?: string) => {
        if (!FIELDS.has(field.toLowerCase())) return all;
        reasons.add(`no spaces around ${op1 ?? op2}`);
        return `${lead}${field}${op1 ?? op2}`;
      });
    })
    .join('');
  return fixed === text ? undefined : { fixed, reasons: [...reasons] };
}
