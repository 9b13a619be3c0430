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
  switch (filter.type) {
    case 'and': {
      const parts = filter.items.map(compile);
      return (ex, ctx) => parts.every((p) => p(ex, ctx));
    }
    case 'or': {
      const parts = filter.items.map(compile);
      return (ex, ctx) => parts.some((p) => p(ex, ctx));
    }
    case 'not': {
      const inner = compile(filter.item);
      return (ex, ctx) => !inner(ex, ctx);
    }
    case 'field': {
      const spec = fieldSpec(filter.field);
      if (!spec) return () => false;
      return spec.compile(filter.op, filter.value);
    }
    case 'text': {
      const needle = filter.value.toLowerCase();
      return (ex, ctx) =>
        (ex.method !== undefined && ex.method.toLowerCase().includes(needle)) ||
        (ex.target !== undefined && ex.target.toLowerCase().includes(needle)) ||
        (ctx?.bodyText !== undefined && ctx.bodyText().toLowerCase().includes(needle));
    }
  }
}
