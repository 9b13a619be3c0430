import { describe, expect, it } from 'vitest';
import { readPastedToken } from './token.js';

const here = 'http://127.0.0.1:7789/?q=status%3Aerr';

describe('a pasted URL or token', () => {
  it('takes the token from the URL mcpscope printed, and notices another dashboard', () => {
    expect(readPastedToken(' http://127.0.0.1:7789/?token=abcdefghijklmnopq ', here)).toEqual({ token: 'abcdefghijklmnopq' });
    expect(readPastedToken('http://127.0.0.1:7801/?token=abcdefghijklmnopq', here)).toEqual({ token: 'abcdefghijklmnopq', origin: 'http://127.0.0.1:7801' });
  });

  it('takes a bare token, and refuses what is neither', () => {
    expect(readPastedToken('Xy_9-abcdefghijklmnop', here)).toEqual({ token: 'Xy_9-abcdefghijklmnop' });
    expect(readPastedToken('http://127.0.0.1:7789/', here)).toBeUndefined();
    expect(readPastedToken('short', here)).toBeUndefined();
    expect(readPastedToken('two words here please', here)).toBeUndefined();
    expect(readPastedToken('', here)).toBeUndefined();
  });
});
