// `pnpm start` builds only when the build is older than the sources: a missing dist, a source
// changed (or deleted) after the build, or a changed lockfile asks for one; nothing changed, none.
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { whyRebuild } from '../../scripts/build-freshness.js';

const PACKAGES = ['packages/a', 'apps/b'];
let root: string;

/** Writes a file and sets its time to `at` seconds. */
function put(path: string, at: number): void {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, path);
  utimesSync(full, at, at);
}

function checkout(): void {
  root = mkdtempSync(join(tmpdir(), 'mcpscope-freshness-'));
  for (const file of ['package.json', 'pnpm-lock.yaml', 'tsconfig.base.json']) put(file, 1000);
  for (const pkg of PACKAGES) {
    put(`${pkg}/package.json`, 1000);
    put(`${pkg}/src/index.ts`, 1000);
    put(`${pkg}/test/index.test.ts`, 1000);
    put(`${pkg}/dist/index.js`, 2000);
    for (const dir of ['', '/src', '/test']) utimesSync(join(root, pkg + dir), 1000, 1000);
    utimesSync(join(root, pkg, 'dist'), 2000, 2000);
  }
  for (const dir of ['', 'packages', 'apps']) utimesSync(join(root, dir), 1000, 1000);
}

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('whether pnpm start builds', () => {
  it('not when every dist is newer than every input (tests are no input)', () => {
    checkout();
    expect(whyRebuild(root, PACKAGES)).toBeUndefined();
    put('apps/b/test/index.test.ts', 3000);
    expect(whyRebuild(root, PACKAGES)).toBeUndefined();
  });

  it('when a dist is missing', () => {
    checkout();
    rmSync(join(root, 'apps/b/dist'), { recursive: true });
    expect(whyRebuild(root, PACKAGES)).toBe('apps/b/dist is missing');
  });

  it('when a source, a deleted source or the lockfile changed after the build', () => {
    checkout();
    put('packages/a/src/index.ts', 3000);
    expect(whyRebuild(root, PACKAGES)).toBe('packages/a/src/index.ts changed after the last build');
    checkout();
    unlinkSync(join(root, 'apps/b/src/index.ts'));
    expect(whyRebuild(root, PACKAGES)).toBe('apps/b/src changed after the last build');
    checkout();
    put('pnpm-lock.yaml', 3000);
    expect(whyRebuild(root, PACKAGES)).toBe('pnpm-lock.yaml changed after the last build');
  });
});
