/**
 * Filter → a plain sentence ("Exchanges where the method is tools/call and it took longer than
 * 500 ms."), shown under the filter box as the user types. Clauses come from the field registry.
 */
import { fieldSpec } from './fields.js';
import type { Filter } from './types.js';
import { quote } from './values.js';

export function describeFilter(filter: Filter | null): string {
  if (filter === null) return 'Every exchange (the filter is empty).';
  return `Exchanges where ${clause(filter)}.`;
}

function clause(filter: Filter): string {
  switch (filter.type) {
    case 'and':
      return filter.items.map((item) => (item.type === 'or' ? `(${clause(item)})` : clause(item))).join(' and ');
    case 'or':
      return filter.items.map((item) => (item.type === 'and' ? `(${clause(item)})` : clause(item))).join(' or ');
    case 'not':
      // Parentheses always: "not (the client sent it)" reads right whatever the clause says.
      return `not (${clause(filter.item)})`;
    case 'field': {
      const spec = fieldSpec(filter.field);
      return spec ? spec.describe(filter.op, filter.value) : `${filter.field}${filter.op}${filter.value}`;
    }
    case 'text':
      return `the method, target or a body contains ${quote(filter.value)}`;
  }
}
