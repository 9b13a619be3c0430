// packages/protocol runs unchanged in the browser: no Node built-ins, no I/O, no timers.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../src/', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('packages/protocol is browser-safe', () => {
  const files = sources(SRC);
  it('has sources to check', () => expect(files.length).toBeGreaterThan(5));
  it.each(files)('%s imports no Node built-in and does no I/O', (file) => {
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/from\s+['"]node:/);
    expect(text).not.toMatch(/require\(/);
    expect(text).not.toMatch(/\b(fetch|setTimeout|setInterval|XMLHttpRequest|WebSocket|localStorage|process\.)\s*[(.]/);
  });
});
