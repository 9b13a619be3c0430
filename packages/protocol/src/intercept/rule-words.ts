/**
 * The words after a rule's `=>`, each with its place in the rule text so an error can point at it:
 * a bare word, a quoted string (`"…"`, `\x` stands for `x`), a JSON object or array (read to its
 * closing bracket), or `name="quoted value"` (a header).
 */
import type { FilterError } from '../filter/types.js';

export interface RuleWord {
  /** The word's value: unquoted, or the JSON text as written. */
  text: string;
  kind: 'bare' | 'quoted' | 'json';
  pos: number;
  len: number;
}

export type WordsResult = { ok: true; words: RuleWord[] } | { ok: false; error: FilterError };

export function ruleWords(text: string, from: number): WordsResult {
  const words: RuleWord[] = [];
  let i = from;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '"') {
      const q = readQuoted(text, i);
      if ('error' in q) return { ok: false, error: q.error };
      words.push({ text: q.value, kind: 'quoted', pos: i, len: q.end - i });
      i = q.end;
      continue;
    }
    if (ch === '{' || ch === '[') {
      const end = jsonEnd(text, i);
      if (end === undefined) return { ok: false, error: { message: `This ${ch} is never closed: the JSON must end with its matching ${ch === '{' ? '}' : ']'}.`, position: i, length: text.length - i } };
      words.push({ text: text.slice(i, end), kind: 'json', pos: i, len: end - i });
      i = end;
      continue;
    }
    let end = i;
    while (end < text.length && !/\s/.test(text[end]!) && !(text[end] === '"' && text[end - 1] === '=')) end++;
    if (text[end] === '"' && text[end - 1] === '=') {
      const q = readQuoted(text, end);
      if ('error' in q) return { ok: false, error: q.error };
      words.push({ text: text.slice(i, end) + q.value, kind: 'bare', pos: i, len: q.end - i });
      i = q.end;
      continue;
    }
    words.push({ text: text.slice(i, end), kind: 'bare', pos: i, len: end - i });
    i = end;
  }
  return { ok: true, words };
}

function readQuoted(text: string, start: number): { value: string; end: number } | { error: FilterError } {
  let value = '';
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') return { value, end: i + 1 };
    if (ch === '\\' && i + 1 < text.length) value += text[++i];
    else value += ch;
  }
  return { error: { message: 'This quoted string is never closed: add a closing ".', position: start, length: text.length - start } };
}

/** Where the JSON value opened at `start` ends (after its closing bracket), strings and escapes skipped. */
function jsonEnd(text: string, start: number): number | undefined {
  let depth = 0;
  return firstOutsideStrings(text, start, (ch, i) => {
    if (ch === '{' || ch === '[') depth++;
    else if ((ch === '}' || ch === ']') && --depth === 0) return i + 1;
    return undefined;
  });
}

/**
 * Where a rule's `=>` is: the first one outside a quoted string that starts a word (after a space,
 * a `)` or a closing quote, or at the start), so a filter value such as `tool:a=>b` stays a value.
 * A filter word that itself starts with `=>` must be quoted.
 */
export function arrowAt(text: string): number {
  const at = firstOutsideStrings(text, 0, (ch, i) => (ch === '=' && text[i + 1] === '>' && (i === 0 || /[\s)"]/.test(text[i - 1]!)) ? i : undefined));
  return at ?? -1;
}

/** The first answer `visit` gives for a character outside the quoted strings of `text`, from `start`. */
function firstOutsideStrings(text: string, start: number, visit: (ch: string, i: number) => number | undefined): number | undefined {
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else {
      const found = visit(ch, i);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
