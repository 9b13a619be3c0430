/**
 * What the start of a cut answer says about it: a body too large to keep whole (frame.http.cut)
 * keeps only its first part, which cannot be parsed, but a JSON-RPC answer names its `id` and
 * whether it carries `result` or `error` in the object's top level, which serialisers write
 * before the large value. Reads only the top level of the object; never guesses past the cut.
 */
import type { JsonRpcId } from './json-rpc.js';

export interface CutEnvelope {
  /** The `id` read before the cut (undefined: none was read, e.g. it came after the result). */
  id?: JsonRpcId;
  /** The member whose value was cut: the answer was a result or an error. */
  member: 'result' | 'error';
}

/** How far into the kept head the top-level keys are looked for. */
const SCAN_CHARS = 64 * 1024;

/** The envelope of a cut JSON-RPC answer, or undefined when its head does not read as one. */
export function cutEnvelope(head: string): CutEnvelope | undefined {
  const text = head.length > SCAN_CHARS ? head.slice(0, SCAN_CHARS) : head;
  let at = skipSpace(text, 0);
  if (text[at] !== '{') return undefined;
  at++;
  let id: JsonRpcId | undefined;
  let jsonrpc = false;
  for (;;) {
    at = skipSpace(text, at);
    if (text[at] === ',') at = skipSpace(text, at + 1);
    if (text[at] !== '"') return undefined;
    const keyEnd = stringEnd(text, at);
    if (keyEnd === -1) return undefined;
    const key = JSON.parse(text.slice(at, keyEnd + 1)) as string;
    at = skipSpace(text, keyEnd + 1);
    if (text[at] !== ':') return undefined;
    at = skipSpace(text, at + 1);
    if (key === 'result' || key === 'error') return jsonrpc ? { ...(id !== undefined ? { id } : {}), member: key } : undefined;
    const valueEnd = scalarEnd(text, at);
    if (valueEnd === -1) return undefined;
    const value = JSON.parse(text.slice(at, valueEnd)) as unknown;
    if (key === 'jsonrpc') jsonrpc = value === '2.0';
    else if (key === 'id' && (typeof value === 'string' || typeof value === 'number')) id = value;
    at = valueEnd;
  }
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && (text[at] === ' ' || text[at] === '\n' || text[at] === '\r' || text[at] === '\t')) at++;
  return at;
}

/** The index of the quote closing the string that opens at `at` (-1: cut before it). */
function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/** The end (exclusive) of a scalar value at `at`: a string, number, true, false or null (-1: other or cut). */
function scalarEnd(text: string, at: number): number {
  if (text[at] === '"') {
    const end = stringEnd(text, at);
    return end === -1 ? -1 : end + 1;
  }
  const m = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)(?=\s*[,}])/.exec(text.slice(at, at + 64));
  return m ? at + m[0].length : -1;
}
