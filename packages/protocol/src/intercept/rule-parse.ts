/**
 * Rule text → InterceptRule, or an error naming the position and length of the culprit. Never
 * throws, whatever the input.
 *
 *   rule   := FILTER '=>' action count?
 *   action := 'pause' ('request'|'response')? ('for' DURATION)? | 'delay' DURATION
 *           | 'error' CODE QUOTED? | 'is-error' QUOTED? | 'replace' JSON-OBJECT | 'inflate' SIZE
 *           | 'drop' | 'http' STATUS (NAME=VALUE)* | 'cut-stream' 'after' N 'events'? | 'notify' METHOD
 *   count  := 'once' | N 'times' | N '%' | 'always'
 */
import { parseFilter } from '../filter/parse.js';
import type { FilterError } from '../filter/types.js';
import { parseDuration, parseSize } from '../filter/values.js';
import type { JsonValue } from '../model/json-rpc.js';
import { DEFAULT_PAUSE_DEADLINE_MS, MAX_INFLATE_BYTES, MAX_RULE_WAIT_MS, RULE_ACTIONS } from './rule-defaults.js';
import type { RuleAction, RuleCount, RuleParseResult } from './rule-types.js';
import { arrowAt, ruleWords, type RuleWord } from './rule-words.js';

/** The message of an `error` action written without one. */
export const DEFAULT_ERROR_MESSAGE = 'Error injected by mcpscope';
/** The text of an `is-error` action written without one. */
export const DEFAULT_IS_ERROR_TEXT = 'Tool error injected by mcpscope';

class RuleFailure {
  constructor(readonly error: FilterError) {}
}

const fail = (message: string, at: { pos: number; len: number }): never => {
  throw new RuleFailure({ message, position: at.pos, length: Math.max(1, at.len) });
};

export function parseRule(text: string): RuleParseResult {
  try {
    return { ok: true, rule: readRule(text) };
  } catch (err) {
    if (err instanceof RuleFailure) return { ok: false, error: err.error };
    throw err;
  }
}

function readRule(text: string) {
  const arrow = arrowAt(text);
  if (arrow === -1) fail('A rule needs => between the filter and the action, e.g. method:tools/call => delay 5s.', { pos: 0, len: text.length });
  const filterText = text.slice(0, arrow);
  const parsed = parseFilter(filterText);
  if (!parsed.ok) throw new RuleFailure(parsed.error);
  if (parsed.filter === null) fail('A rule needs a filter before => (which traffic it acts on), e.g. tool:search.', { pos: arrow, len: 2 });
  const words = ruleWords(text, arrow + 2);
  if (!words.ok) throw new RuleFailure(words.error);
  const cursor = new Words(words.words, { pos: arrow, len: 2 });
  const action = readAction(cursor);
  const count = readCount(cursor);
  const extra = cursor.next();
  if (extra) fail(`Unexpected "${extra.text}" after the rule: a rule ends with its count (once, N times, N% or always).`, extra);
  return { filter: parsed.filter!, action, count };
}

class Words {
  private index = 0;
  constructor(
    private readonly words: RuleWord[],
    /** Where errors about a missing word point: the word before, or the arrow. */
    private last: { pos: number; len: number },
  ) {}

  peek(): RuleWord | undefined {
    return this.words[this.index];
  }

  next(): RuleWord | undefined {
    const word = this.words[this.index];
    if (word) {
      this.index++;
      this.last = word;
    }
    return word;
  }

  /** The next word, or an error after the last one saying what was expected. */
  need(what: string): RuleWord {
    const word = this.next();
    if (!word) fail(`${what} is missing here.`, { pos: this.last.pos + this.last.len, len: 1 });
    return word!;
  }

  /** Takes the next word when it is this bare keyword. */
  take(keyword: string): boolean {
    const word = this.peek();
    if (word?.kind !== 'bare' || word.text.toLowerCase() !== keyword) return false;
    this.next();
    return true;
  }
}

const ACTION_NAMES = RULE_ACTIONS.map((a) => a.action);

function readAction(words: Words): RuleAction {
  const word = words.need(`An action (${ACTION_NAMES.join(', ')})`);
  const name = word.text.toLowerCase();
  switch (word.kind === 'bare' ? name : '') {
    case 'pause': {
      const on = words.take('response') ? 'response' : (words.take('request'), 'request');
      const deadlineMs = words.take('for') ? duration(words.need('A deadline (e.g. 20s)')) : DEFAULT_PAUSE_DEADLINE_MS;
      return { type: 'pause', on, deadlineMs };
    }
    case 'delay':
      return { type: 'delay', ms: duration(words.need('A duration (e.g. 90s)')) };
    case 'error': {
      const codeWord = words.need('A JSON-RPC error code (e.g. -32602)');
      if (!/^-?\d{1,15}$/.test(codeWord.text) || codeWord.kind !== 'bare') fail(`"${codeWord.text}" is not an error code: write an integer such as -32602.`, codeWord);
      const message = words.peek()?.kind === 'quoted' ? words.next()!.text : DEFAULT_ERROR_MESSAGE;
      return { type: 'error', code: Number(codeWord.text), message };
    }
    case 'is-error':
      return { type: 'is-error', text: words.peek()?.kind === 'quoted' ? words.next()!.text : DEFAULT_IS_ERROR_TEXT };
    case 'replace': {
      const json = words.need('The result to answer with, as a JSON object (e.g. {"content":[]})');
      return { type: 'replace', result: jsonObject(json) };
    }
    case 'inflate': {
      const sizeWord = words.need('A size (e.g. 2mb)');
      const bytes = parseSize(sizeWord.text.toLowerCase());
      if (bytes === undefined || sizeWord.kind !== 'bare' || !Number.isInteger(bytes)) fail(`"${sizeWord.text}" is not a size: write bytes or 10kb, 2mb.`, sizeWord);
      if (bytes! > MAX_INFLATE_BYTES) fail(`inflate goes up to ${MAX_INFLATE_BYTES / 1024 / 1024}mb.`, sizeWord);
      return { type: 'inflate', bytes: bytes! };
    }
    case 'drop':
      return { type: 'drop' };
    case 'http':
      return httpAction(words);
    case 'cut-stream': {
      if (!words.take('after')) fail('Write cut-stream after N (the number of events the client still gets).', word);
      const n = integer(words.need('How many events (e.g. 1)'), 0);
      words.take('events');
      return { type: 'cut-stream', afterEvents: n };
    }
    case 'notify': {
      const method = words.need('A notification method (e.g. notifications/tools/list_changed)');
      if (method.kind === 'json' || method.text === '') fail('notify needs a method name, e.g. notifications/tools/list_changed.', method);
      return { type: 'notify', method: method.text };
    }
    default:
      return fail(`Unknown action "${word.text}". Actions: ${ACTION_NAMES.join(', ')}.`, word);
  }
}

function httpAction(words: Words): RuleAction {
  const statusWord = words.need('An HTTP status (e.g. 401)');
  const status = integer(statusWord, 100);
  if (status > 599) fail('An HTTP status is between 100 and 599.', statusWord);
  const headers: Record<string, string> = {};
  for (let word = words.peek(); word?.kind === 'bare' && word.text.includes('='); word = words.peek()) {
    words.next();
    const eq = word.text.indexOf('=');
    const name = word.text.slice(0, eq).toLowerCase();
    if (!/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) fail(`"${word.text.slice(0, eq)}" is not a header name.`, word);
    headers[name] = word.text.slice(eq + 1);
  }
  return { type: 'http', status, headers };
}

function readCount(words: Words): RuleCount {
  const word = words.peek();
  if (!word || word.kind !== 'bare') return { type: 'always' };
  const text = word.text.toLowerCase();
  if (text === 'always') return words.next(), { type: 'always' };
  if (text === 'once') return words.next(), { type: 'times', n: 1 };
  if (/^\d+%$/.test(text)) {
    words.next();
    const p = Number(text.slice(0, -1));
    if (p < 1 || p > 100) fail('A percentage is between 1% and 100%.', word);
    return { type: 'percent', p };
  }
  if (/^\d+$/.test(text)) {
    words.next();
    const n = integer(word, 1);
    if (!words.take('times')) fail(`Write ${text} times (how many matches the rule acts on).`, word);
    return { type: 'times', n };
  }
  return fail(`"${word.text}" is not a count: write once, N times, N% or always.`, word);
}

function duration(word: RuleWord): number {
  const ms = word.kind === 'bare' ? parseDuration(word.text.toLowerCase()) : undefined;
  if (ms === undefined || !Number.isInteger(ms)) fail(`"${word.text}" is not a duration: write 500ms, 5s or 1.5s.`, word);
  if (ms! > MAX_RULE_WAIT_MS) fail(`A rule waits at most ${MAX_RULE_WAIT_MS / 60_000} minutes.`, word);
  return ms!;
}

function integer(word: RuleWord, min: number): number {
  if (word.kind !== 'bare' || !/^\d{1,9}$/.test(word.text) || Number(word.text) < min) fail(`"${word.text}" is not a whole number of at least ${min}.`, word);
  return Number(word.text);
}

function jsonObject(word: RuleWord): JsonValue {
  let value: unknown;
  try {
    value = word.kind === 'json' ? JSON.parse(word.text) : undefined;
  } catch {
    fail('This is not valid JSON.', word);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('replace needs a JSON object (the result), e.g. {"content":[{"type":"text","text":"hi"}]}.', word);
  return value as JsonValue;
}
