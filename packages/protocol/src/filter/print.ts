/**
 * Filter → canonical text. For every filter parseFilter produces, parseFilter(printFilter(f))
 * deep-equals f: nested groups keep their parentheses and values are quoted only when needed.
 */
import type { Filter } from './types.js';
import { FIELD_HEAD, isBareSafe, quote } from './values.js';

export function printFilter(filter: Filter): string {
  switch (filter.type) {
    case 'and':
      return filter.items.map((item) => (isGroup(item) ? `(${printFilter(item)})` : printFilter(item))).join(' ');
    case 'or':
      return filter.items.map((item) => (item.type === 'or' ? `(${printFilter(item)})` : printFilter(item))).join(' | ');
    case 'not':
      return isGroup(filter.item) ? `!(${printFilter(filter.item)})` : `!${printFilter(filter.item)}`;
    case 'field':
      return `${filter.field}${filter.op}${printValue(filter.field, filter.value)}`;
    case 'text':
      return isBareSafe(filter.value) && !FIELD_HEAD.test(filter.value) && !filter.value.startsWith('!')
        ? filter.value
        : quote(filter.value);
  }
}

function isGroup(filter: Filter): boolean {
  return filter.type === 'and' || filter.type === 'or';
}

function printValue(field: string, value: string): string {
  // An id value is JSON text: a string id is printed in the filter's own quoting.
  if (field === 'id' && value.startsWith('"')) return quote(JSON.parse(value) as string);
  return isBareSafe(value) ? value : quote(value);
}
