import { describe, expect, it } from 'vitest';
import { importedFileName, importedFilePrefix, importedSessionKey, isImportedSession } from '../../src/index.js';

describe('imported session keys', () => {
  it('name exactly one file, whatever colons the file name or the original key holds', () => {
    const a = importedSessionKey('a', 'b:c');
    const ab = importedSessionKey('a:b', 'c');
    expect(a).not.toBe(ab);
    expect(importedFilePrefix(a)).toBe(importedSessionKey('a', ''));
    expect(importedFilePrefix(ab)).toBe(importedSessionKey('a:b', ''));
    expect(ab.startsWith(importedFilePrefix(a)!)).toBe(false);
    expect(importedFileName(ab)).toBe('a:b');
    expect(importedFileName(importedSessionKey('100%:x%3A.jsonl', 's'))).toBe('100%:x%3A.jsonl');
  });

  it('say nothing of a live session', () => {
    expect(isImportedSession('abc')).toBe(false);
    expect(importedFilePrefix('abc')).toBeUndefined();
    expect(importedFileName('abc')).toBeUndefined();
  });
});
