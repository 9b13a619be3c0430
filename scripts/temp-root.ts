/**
 * One temporary directory per test or bench run. Set as TMPDIR before the run's workers and
 * processes start, so every temporary file the run makes (os.tmpdir(), mkdtemp, and the same in
 * every process it spawns, which inherit TMPDIR) lands under it; removed whole when the run ends.
 * A run therefore leaves nothing in the system's temporary directory, whether or not each test
 * cleans up after itself (a run killed outright leaves its one directory).
 *
 * Used as vitest's and Playwright's `globalSetup` (the function it returns is the teardown) and
 * by bench/run.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function useTempRoot(name: string): () => void {
  const root = mkdtempSync(join(tmpdir(), `mcpscope-${name}-run-`));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true, maxRetries: 3 });
}

export default function setup(): () => void {
  return useTempRoot('test');
}
