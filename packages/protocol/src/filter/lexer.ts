/**
 * Tokens of the filter language, each with its position in the text so every parse error can
 * point at the characters it is about. `!` is an operator only where a term starts; inside a word
 * it is an ordinary character (`hello!` is free text).
 */
import type { FilterError, FilterOp } from './types.js';
import { fieldSpec } from './fields.js';
import { FIELD_HEAD, WORD_BREAK } from './values.js';

export type Token =
  | { type: '(' | ')' | '|' | '&' | '!'; pos: number; len: number }
  | { type: 'text'; value: string; pos: number; len: number }
  | {
      type: 'field';
      name: string;
      op: FilterOp;
      value: string;
      quoted: boolean;
      pos: number;
      len: number;
      /** Where the value starts, for errors about the value. */
      valuePos: number;
    };

export type LexResult = { ok: true; tokens: Token[] } | { ok: false; error: FilterError };

export function lex(text: string): LexResult {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '(' || ch === ')' || ch === '|' || ch === '&' || ch === '!') {
      tokens.push({ type: ch, pos: i, len: 1 });
      i++;
      continue;
    }
    if (ch === '"') {
      const q = readQuoted(text, i);
      if ('error' in q) return { ok: false, error: q.error };
      tokens.push({ type: 'text', value: q.value, pos: i, len: q.end - i });
      i = q.end;
      continue;
    }
    let end = i;
    while (end < text.length && !WORD_BREAK.test(text[end]!)) end++;
    const word = text.slice(i, end);
    const head = FIELD_HEAD.exec(word);
    if (!head || (head[2] === '=' && !fieldSpec(head[1]!.toLowerCase())?.ops.includes('='))) {
      tokens.push({ type: 'text', value: word, pos: i, len: end - i });
      i = end;
      continue;
    }
    const valuePos = i + head[0].length;
    let value = word.slice(head[0].length);
    let quoted = false;
    if (value === '' && text[end] === '"') {
      const q = readQuoted(text, end);
      if ('error' in q) return { ok: false, error: q.error };
      value = q.value;
      quoted = true;
      end = q.end;
    }
    tokens.push({ type: 'field', name: head[1]!, op: head[2] as FilterOp, value, quoted, pos: i, len: end - i, valuePos });
    i = end;
  }
  return { ok: true, tokens };
}

/** Reads `"…"` starting at the quote; `\x` stands for `x`. */
function readQuoted(text: string, start: number): { value: string; end: number } | { error: FilterError } {
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') return { value, end: i + 1 };
    if (ch === '\\' && i + 1 < text.length) {
      value += text[i + 1];
      i += 2;
      continue;
    }
    value += ch;
    i++;
  }
  return {
    error: { message: 'This quoted string is never closed: add a closing ".', position: start, length: text.length - start },
  };
}
