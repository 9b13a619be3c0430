// The README's package figures are the package's: the tarball release/pack.ts builds (what
// `pnpm pack:release` prints) is within 5% of the sizes the README states, in the same unit
// (1 MB = 1,000,000 bytes). Needs the build (`pnpm run build`), as pack:release does.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, it } from 'vitest';
import { packRelease, type Packed } from '../pack.js';

const README = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
const TOLERANCE = 0.05;

/** The number (in MB) the README gives where `pattern` matches. */
function stated(pattern: RegExp): number {
  const m = pattern.exec(README.replace(/\s+/g, ' '));
  if (!m) throw new Error(`the README no longer says ${pattern}`);
  return Number(m[1]) * 1e6;
}

let packed: Packed;
beforeAll(async () => {
  packed = await packRelease(mkdtempSync(join(tmpdir(), 'mcpscope-readme-figures-')));
});

const sum = (filter: (path: string) => boolean) => packed.files.filter((f) => filter(f.path)).reduce((n, f) => n + f.size, 0);

it("states the package's packed and unpacked size within 5%", () => {
  expect(Math.abs(packed.size / stated(/The package is ([\d.]+) MB/) - 1)).toBeLessThan(TOLERANCE);
  expect(Math.abs(packed.unpackedSize / stated(/The package is [\d.]+ MB \(([\d.]+) MB unpacked/) - 1)).toBeLessThan(TOLERANCE);
});

it("states the bundle's and the dashboard's size within 5%", () => {
  expect(Math.abs(sum((p) => p === 'dist/cli/mcpscope.js') / stated(/one ([\d.]+) MB bundle/) - 1)).toBeLessThan(TOLERANCE);
  expect(Math.abs(sum((p) => p.startsWith('dist/web/')) / stated(/the dashboard \(([\d.]+) MB/) - 1)).toBeLessThan(TOLERANCE);
});
