/**
 * The filter parser: text → Filter, or an error with the position and length of the culprit.
 * Never throws, whatever the input (property-tested on random junk).
 *
 *   or   := and ('|' and)*
 *   and  := unary ('&'? unary)*        — juxtaposition means and
 *   unary:= '!' unary | '(' or ')' | field | text
 */
import { FIELD_NAMES, fieldSpec } from './fields.js';
import { lex, type Token } from './lexer.js';
import type { Filter, FilterError, FilterParseResult } from './types.js';

/** Deeper nesting than this is refused rather than risking the call stack. */
const MAX_DEPTH = 100;

class ParseFailure {
  constructor(readonly error: FilterError) {}
}

export function parseFilter(text: string): FilterParseResult {
  const lexed = lex(text);
  if (!lexed.ok) return lexed;
  if (lexed.tokens.length === 0) return { ok: true, filter: null };
  const parser = new Parser(lexed.tokens);
  try {
    const filter = parser.parseOr(0);
    const extra = parser.peek();
    if (extra) {
      throw new ParseFailure(
        extra.type === ')'
          ? { message: 'This ) has no matching (: remove it or add a ( before it.', position: extra.pos, length: 1 }
          : { message: 'Unexpected text here.', position: extra.pos, length: extra.len },
      );
    }
    return { ok: true, filter };
  } catch (err) {
    if (err instanceof ParseFailure) return { ok: false, error: err.error };
    throw err;
  }
}

class Parser {
  private index = 0;
  constructor(private readonly tokens: Token[]) {}

  peek(): Token | undefined {
    return this.tokens[this.index];
  }

  parseOr(depth: number): Filter {
    const items = [this.parseAnd(depth)];
    for (let t = this.peek(); t?.type === '|'; t = this.peek()) {
      this.index++;
      this.expectOperand(t, 'after |');
      items.push(this.parseAnd(depth));
    }
    return items.length === 1 ? items[0]! : { type: 'or', items };
  }

  private parseAnd(depth: number): Filter {
    const items = [this.parseUnary(depth)];
    for (let t = this.peek(); t && t.type !== '|' && t.type !== ')'; t = this.peek()) {
      if (t.type === '&') {
        this.index++;
        this.expectOperand(t, 'after &');
      }
      items.push(this.parseUnary(depth));
    }
    return items.length === 1 ? items[0]! : { type: 'and', items };
  }

  private parseUnary(depth: number): Filter {
    const t = this.peek();
    if (!t) throw new Error('parseUnary past the end'); // callers check for an operand first
    if (depth > MAX_DEPTH) {
      throw new ParseFailure({ message: `Nested more than ${MAX_DEPTH} levels deep.`, position: t.pos, length: t.len });
    }
    switch (t.type) {
      case '!':
        this.index++;
        this.expectOperand(t, 'after !');
        return { type: 'not', item: this.parseUnary(depth + 1) };
      case '(': {
        this.index++;
        const next = this.peek();
        if (!next) throw new ParseFailure({ message: 'This ( is never closed: add a ).', position: t.pos, length: 1 });
        if (next.type === ')') {
          throw new ParseFailure({ message: 'Empty parentheses: put a filter inside or remove them.', position: t.pos, length: next.pos + 1 - t.pos });
        }
        const inner = this.parseOr(depth + 1);
        const close = this.peek();
        if (close?.type !== ')') throw new ParseFailure({ message: 'This ( is never closed: add a ).', position: t.pos, length: 1 });
        this.index++;
        return inner;
      }
      case ')':
        throw new ParseFailure({ message: 'This ) has no matching (: remove it or add a ( before it.', position: t.pos, length: 1 });
      case '|':
      case '&':
        throw new ParseFailure({ message: `${t.type} needs a filter on its left.`, position: t.pos, length: 1 });
      case 'text':
        this.index++;
        return { type: 'text', value: t.value };
      case 'field':
        this.index++;
        return fieldTerm(t);
    }
  }

  /** After an operator, a term must follow: otherwise the error points at the operator. */
  private expectOperand(op: Token, where: string): void {
    const next = this.peek();
    if (!next || next.type === ')' || next.type === '|' || (next.type === '&' && op.type !== '!')) {
      throw new ParseFailure({ message: `A filter is missing ${where}.`, position: op.pos, length: op.len });
    }
  }
}

function fieldTerm(t: Extract<Token, { type: 'field' }>): Filter {
  const name = t.name.toLowerCase();
  const spec = fieldSpec(name);
  if (!spec) {
    throw new ParseFailure({
      message: `Unknown field "${t.name}". Known fields: ${FIELD_NAMES.join(', ')}. To search for this text, put it in quotes.`,
      position: t.pos,
      length: t.name.length,
    });
  }
  if (!spec.ops.includes(t.op)) {
    throw new ParseFailure({
      message: `${name} takes ${spec.ops.map((op) => `${name}${op}`).join(' or ')}, not ${name}${t.op}.`,
      position: t.pos + t.name.length,
      length: 1,
    });
  }
  const valueLen = Math.max(1, t.pos + t.len - t.valuePos);
  // The empty string is a legal JSON-RPC id, so only id:"" may have an empty value.
  if (t.value === '' && !(t.quoted && spec.field === 'id')) {
    throw new ParseFailure({
      message: `${name}${t.op} needs a value, e.g. ${spec.example}.`,
      position: t.pos,
      length: t.len,
    });
  }
  const value = spec.normalize(t.value, t.quoted);
  if (typeof value !== 'string') {
    throw new ParseFailure({ message: `Bad ${name} value "${t.value}": ${value.error}.`, position: t.valuePos, length: valueLen });
  }
  return { type: 'field', field: spec.field, op: t.op, value };
}
