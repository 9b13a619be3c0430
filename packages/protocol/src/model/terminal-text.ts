/**
 * Text from traffic made safe to print on a terminal. A server or client controls every byte of
 * what it sends; printed raw, an ESC starts a control sequence (clear the screen, move the cursor,
 * OSC 52 writes the clipboard), a CR returns to the start of the line so the next text overwrites
 * it, and bidi overrides reorder what the reader sees. Each such character is shown as a visible
 * `\uXXXX` escape instead, so the reader sees that it was there and nothing acts on it.
 *
 * Escaped: C0 controls (U+0000–U+001F), DEL (U+007F), C1 controls (U+0080–U+009F, U+009B is a
 * one-byte CSI), the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), the
 * bidi marks (U+200E, U+200F, U+061C) and the line and paragraph separators (U+2028, U+2029).
 * `terminalText` keeps newline and tab (a multi-line message stays readable); `terminalLine`
 * escapes them too, for what must stay on one line (a table cell, a log line).
 */

// eslint-disable-next-line no-control-regex -- these control characters are exactly what is escaped
const UNSAFE_IN_TEXT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- as above, newline and tab included
const UNSAFE_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function visible(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `text` with every terminal control character but newline and tab shown as `\uXXXX`. */
export function terminalText(text: string): string {
  return text.replace(UNSAFE_IN_TEXT, visible);
}

/** `text` on one line: every terminal control character, newline and tab included, shown as `\uXXXX`. */
export function terminalLine(text: string): string {
  return text.replace(UNSAFE_IN_LINE, visible);
}
