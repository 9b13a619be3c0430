/**
 * FILTER_OPERATORS: the registry as help popovers and autocomplete read it — every field from
 * the field registry, then the combinators.
 */
import { FIELD_SPECS } from './fields.js';
import type { FilterOperatorInfo } from './types.js';

export const FILTER_OPERATORS: readonly FilterOperatorInfo[] = [
  ...FIELD_SPECS.map((s): FilterOperatorInfo => ({
    syntax: s.syntax,
    field: s.field,
    help: s.help,
    example: s.example,
    ...(s.values ? { values: s.values } : {}),
  })),
  { syntax: 'word | "quoted text"', help: 'Free text: any-case substring of the method, target or bodies.', example: '"rate limit"' },
  { syntax: '!x', help: 'Not: rows that do not match x.', example: '!method:ping' },
  { syntax: 'x y, x & y', help: 'And: rows matching both (a space means and).', example: 'tool:search status:err' },
  { syntax: 'x | y', help: 'Or: rows matching either.', example: 'status:pending | latency>1s' },
  { syntax: '( … )', help: 'Grouping.', example: '!(method:ping | kind:notification)' },
];
