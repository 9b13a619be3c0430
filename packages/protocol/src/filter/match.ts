/**
 * Evaluates a filter against an exchange summary. A filter is compiled to a predicate once and
 * cached by identity, so filtering 100,000 rows does no per-row parsing or regex building.
 */
import type { ExchangeSummary } from '../model/exchange.js';
import { fieldSpec, type ExchangePredicate } from './fields.js';
import type { Filter, FilterContext } from './types.js';

const compiled = new WeakMap<Filter, ExchangePredicate>();

export function matchesExchange(filter: Filter | null, ex: ExchangeSummary, ctx?: FilterContext): boolean {
  if (filter === null) return true;
  let predicate = compiled.get(filter);
  if (!predicate) {
    predicate = compile(filter);
    compiled.set(filter, predicate);
  }
  return predicate(ex, ctx);
}

/** Builds the predicate for a filter; exported for callers that filter many rows in a loop. */
export function compileFilter(filter: Filter | null): (ex: ExchangeSummary, ctx?: FilterContext) => boolean {
  if (filter === null) return () => true;
  return compile(filter);
}

function compile(filter: Filter): ExchangePredicate {
  return compileTree<ExchangeSummary, FilterContext | undefined>(
    filter,
    (f) => fieldSpec(f.field)?.compile(f.op, f.value) ?? (() => false),
    (value) => {
      const needle = value.toLowerCase();
      return (ex, ctx) =>
        (ex.method !== undefined && ex.method.toLowerCase().includes(needle)) ||
        (ex.target !== undefined && ex.target.toLowerCase().includes(needle)) ||
        (ctx?.bodyText !== undefined && ctx.bodyText().toLowerCase().includes(needle));
    },
  );
}

/**
 * A filter tree as one predicate, for any kind of row: `leaf` compiles a field term, `text` free
 * text; `!`, `&` and `|` are the same for every kind (exchanges here, door records in door-match).
 */
export function compileTree<R, C>(
  filter: Filter,
  leaf: (term: Extract<Filter, { type: 'field' }>) => (row: R, ctx: C) => boolean,
  text: (value: string) => (row: R, ctx: C) => boolean,
): (row: R, ctx: C) => boolean {
  const down = (f: Filter) => compileTree(f, leaf, text);
  switch (filter.type) {
    case 'and': {
      const parts = filter.items.map(down);
      return (row, ctx) => parts.every((p) => p(row, ctx));
    }
    case 'or': {
      const parts = filter.items.map(down);
      return (row, ctx) => parts.some((p) => p(row, ctx));
    }
    case 'not': {
      const inner = down(filter.item);
      return (row, ctx) => !inner(row, ctx);
    }
    case 'field':
      return leaf(filter);
    case 'text':
      return text(filter.value);
  }
}
