import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importedSessionKey } from '@mcpscope/protocol';
import { shortSessionKey } from './short-key.js';

describe('shortSessionKey', () => {
  it('cuts a live key as is', () => expect(shortSessionKey('3f2a9c1e-aaaa', 6)).toBe('3f2a9c'));
  it('two sessions of one imported file keep distinct stubs whenever their own keys differ at the start', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[\w.-]{1,20}$/), fc.uuid(), fc.uuid(), (file, a, b) => {
        fc.pre(a.slice(0, 6) !== b.slice(0, 6));
        expect(shortSessionKey(importedSessionKey(file, a), 6)).not.toBe(shortSessionKey(importedSessionKey(file, b), 6));
      }),
    );
  });
});
