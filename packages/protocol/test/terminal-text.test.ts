// terminalText and terminalLine leave nothing a terminal would act on: for any string, the output
// holds no control character (newline and tab aside, for terminalText), no bidi control, and
// every one the input held is shown as a visible \uXXXX escape.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terminalLine, terminalText } from '../src/index.js';

// C0, DEL, C1, bidi marks, embeddings, overrides, isolates, line and paragraph separators.
// eslint-disable-next-line no-control-regex -- the characters the output must not hold
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const controls = fc.constantFrom(...'\u0000\u0007\b\t\n\r\u001b\u007f\u0080\u009b\u009d\u061c\u200e\u200f\u2028\u2029\u202a\u202e\u2066\u2069'.split(''));
const hostile = fc.array(fc.oneof(fc.string({ unit: 'binary' }), controls), { maxLength: 30 }).map((parts) => parts.join(''));

describe('terminalText', () => {
  it('never holds a control character but newline and tab, for any string', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const out = terminalText(text);
        expect(out.replace(/[\n\t]/g, '')).not.toMatch(CONTROL);
      }),
      { numRuns: 2000 },
    );
  });

  it('changes nothing in text without control characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        fc.pre(!CONTROL.test(text));
        expect(terminalText(text)).toBe(text);
        expect(terminalLine(text)).toBe(text);
      }),
    );
  });

  it('shows what it escapes: clear screen, OSC 52, a carriage return, an RTL override', () => {
    expect(terminalText('a\u001b[2Jb')).toBe('a\\u001b[2Jb');
    expect(terminalText('\u001b]52;c;aGk=\u0007')).toBe('\\u001b]52;c;aGk=\\u0007');
    expect(terminalText('bad\rall good\n')).toBe('bad\\u000dall good\n');
    expect(terminalText('\u009b2J \u202etxt.exe')).toBe('\\u009b2J \\u202etxt.exe');
    expect(terminalText('tab\there')).toBe('tab\there');
  });
});

describe('terminalLine', () => {
  it('never holds a control character at all, newline and tab included', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        expect(terminalLine(text)).not.toMatch(CONTROL);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps a fake second line on the first', () => {
    expect(terminalLine('boom\n0 regressed')).toBe('boom\\u000a0 regressed');
  });
});
