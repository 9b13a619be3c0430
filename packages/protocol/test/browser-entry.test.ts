// The browser imports only the package root: nothing reachable from src/index.ts may pull in Ajv,
// zod or the MCP SDK (they live behind @mcpscope/protocol/validate, for the proxy).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../src/index.ts', import.meta.url));

function reachable(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
      const spec = m[1]!;
      if (/^import\s+type|^export\s+type/.test(m[0].trim())) continue;
      if (spec.startsWith('.')) stack.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.add(spec);
    }
  }
  return { files, packages };
}

describe('the browser entry', () => {
  const { files, packages } = reachable(ROOT);
  it('reaches the filter, the deriver and the contract', () => {
    expect([...files].some((f) => f.endsWith('filter/parse.ts'))).toBe(true);
    expect([...files].some((f) => f.endsWith('derive/capture-deriver.ts'))).toBe(true);
  });
  it('imports no npm package at runtime (no Ajv, zod or SDK)', () => {
    expect([...packages]).toEqual([]);
  });
});
