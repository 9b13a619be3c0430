/**
 * A large frame is derived from its skeleton: the same JSON with every long string cut to its
 * first SKELETON_STRING_CHARS characters (keys, ids and methods stay whole). Classifying, pairing and checking need the structure
 * (ids, methods, result shapes), not 50 MB of text: parsing the whole body cost a 50 MB result
 * about 0.2 s of the event loop and a second copy of the text in the parse tree (profile-tap
 * --large=50). The raw text is stored whole; only what the deriver reads is cut.
 *
 * The skeleton never turns an invalid body into a valid one: a cut string's dropped part is
 * checked for what JSON forbids inside strings (control characters, bad escapes), and anything the
 * scan cannot vouch for returns undefined (the caller parses the whole body, as for small frames).
 */

/** Frames this long (characters) or longer are derived from their skeleton. */
export const SKELETON_FROM_CHARS = 1024 * 1024;
/** Characters a cut string keeps (a multiple of 4: a cut base64 value stays base64). */
export const SKELETON_STRING_CHARS = 1024;

/**
 * The skeleton of `raw`, or undefined when it has no long string or cannot be cut safely. Run by
 * the large-frame writer's worker (large-writer-worker.ts) and by re-deriving (capture-engine.ts).
 */
export function frameSkeleton(raw: string, keep = SKELETON_STRING_CHARS): string | undefined {
  // JSON forbids raw control characters inside strings.
  // eslint-disable-next-line no-control-regex
  const CONTROL = /[\u0000-\u001f]/;
  /** A backslash that does not start a JSON escape (checked at every backslash, so no false pass). */
  const BAD_ESCAPE = /\\(?!["\\/bfnrt]|u[0-9a-fA-F]{4})/;

  /** The index of the quote that closes a string whose content starts at `start` (-1: none). */
  const closingQuote = (start: number): number => {
    let at = start;
    for (;;) {
      const q = raw.indexOf('"', at);
      if (q === -1) return -1;
      let slashes = 0;
      while (raw.charCodeAt(q - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 === 0) return q;
      at = q + 1;
    }
  };

  /** Where to cut a string's content at most `keep` characters in, never inside an escape. */
  const escapeBoundary = (start: number): number => {
    const end = start + keep;
    let at = start;
    while (at < end) {
      if (raw.charCodeAt(at) !== 0x5c) {
        at++;
        continue;
      }
      const length = raw.charCodeAt(at + 1) === 0x75 /* u */ ? 6 : 2;
      if (at + length > end) return at;
      at += length;
    }
    return at;
  };

  /** Whether the string that closed just before `at` is an object key (a colon follows). */
  const isKey = (at: number): boolean => {
    let c = raw.charCodeAt(at);
    while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = raw.charCodeAt(++at);
    return c === 0x3a;
  };

  const parts: string[] = [];
  let from = 0;
  let cut = false;
  /** The key just read, when short (the value after it may be an id or a method). */
  let lastKey: string | undefined;
  for (;;) {
    const open = raw.indexOf('"', from);
    if (open === -1) break;
    const close = closingQuote(open + 1);
    if (close === -1) return undefined;
    // Keys stay whole (a cut key would be another key), and so do the values of `id` and
    // `method`: pairing matches them with the other side's, read whole.
    const key = isKey(close + 1);
    const cuttable = !key && lastKey !== 'id' && lastKey !== 'method';
    lastKey = key && close - open - 1 <= 6 ? raw.slice(open + 1, close) : undefined;
    if (cuttable && close - open - 1 > keep) {
      const at = escapeBoundary(open + 1);
      const dropped = raw.slice(at, close);
      if (CONTROL.test(dropped) || BAD_ESCAPE.test(dropped)) return undefined;
      parts.push(raw.slice(from, at), '"');
      cut = true;
    } else {
      parts.push(raw.slice(from, close + 1));
    }
    from = close + 1;
  }
  if (!cut) return undefined;
  parts.push(raw.slice(from));
  return parts.join('');
}
