/**
 * Where the official MCP schema files (the protocol tests' oracle) come from, and the check that
 * they are the pinned ones. They are the specification's, not ours: never copied into this
 * repository. mcp-spec.lock.json pins the specification repository's commit and each file's
 * SHA-256; scripts/fetch-mcp-spec.ts fills the cache from GitHub at that commit, or from a copy.
 *
 * Looked for, in order:
 *   1. $MCPSCOPE_SPEC_DIR (a directory laid out as `<revision>/schema.json`, as the cache is);
 *   2. `shared/mcp-spec` beside the clone (walking up from here, as the team's machines have it);
 *   3. the cache, `<cache>/mcp-spec/<commit>/` ($MCPSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/mcpscope,
 *      else ~/.cache/mcpscope), whose every file must match its pinned SHA-256.
 * With none of them, `locateSpecDir` throws one line saying how to provide them: the oracle
 * suites then fail (never skip, never pass without their oracle).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface SpecLock {
  /** owner/name on GitHub. */
  repository: string;
  commit: string;
  /** The folder of the repository the file paths are relative to. */
  root: string;
  /** Path (as `<revision>/schema.json`) → SHA-256, hex. */
  files: Record<string, string>;
}

export const SPEC_LOCK = JSON.parse(readFileSync(new URL('./mcp-spec.lock.json', import.meta.url), 'utf8')) as SpecLock;

export const HOW_TO_PROVIDE =
  'the official MCP schema files (the protocol tests’ oracle) are not available: run `pnpm mcp-spec` to download them ' +
  `(GitHub, ${SPEC_LOCK.repository} at ${SPEC_LOCK.commit.slice(0, 12)}, checked against pinned SHA-256s), ` +
  'or `pnpm mcp-spec --from DIR` with a copy of that repository (or of its schema/ folder), or set MCPSCOPE_SPEC_DIR';

export type SpecSource = 'MCPSCOPE_SPEC_DIR' | 'shared/mcp-spec' | 'cache';

export class SpecFilesMissing extends Error {}

/** mcpscope's cache directory (also used for downloaded Node binaries). */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.MCPSCOPE_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'mcpscope');
}

export function specCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), 'mcp-spec', SPEC_LOCK.commit);
}

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** What is wrong with `dir` as the pinned set: missing files, and with `hashes` files that differ. */
export function problemsWith(dir: string, hashes: boolean): string[] {
  const problems: string[] = [];
  for (const [file, pinned] of Object.entries(SPEC_LOCK.files)) {
    const path = join(dir, file);
    if (!existsSync(path)) problems.push(`${file} is missing`);
    else if (hashes) {
      const actual = sha256(readFileSync(path));
      if (actual !== pinned) problems.push(`${file} has SHA-256 ${actual}, pinned ${pinned}`);
    }
  }
  return problems;
}

const summary = (problems: string[]) => problems[0]! + (problems.length > 1 ? ` (and ${problems.length - 1} more)` : '');

/**
 * The directory to read the schema files from. `from` is where to start walking up for
 * shared/mcp-spec (this module's directory by default).
 */
export function locateSpecDir(env: NodeJS.ProcessEnv = process.env, from = dirname(fileURLToPath(import.meta.url))): { dir: string; source: SpecSource } {
  if (env.MCPSCOPE_SPEC_DIR) {
    const problems = problemsWith(env.MCPSCOPE_SPEC_DIR, false);
    if (problems.length) throw new SpecFilesMissing(`MCPSCOPE_SPEC_DIR=${env.MCPSCOPE_SPEC_DIR} does not hold the schema files: ${summary(problems)}`);
    return { dir: env.MCPSCOPE_SPEC_DIR, source: 'MCPSCOPE_SPEC_DIR' };
  }
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'mcp-spec');
    if (existsSync(join(candidate, '2025-11-25', 'schema.json'))) return { dir: candidate, source: 'shared/mcp-spec' };
    if (dirname(dir) === dir) break;
  }
  const cache = specCacheDir(env);
  if (existsSync(cache)) {
    const problems = problemsWith(cache, true);
    if (problems.length) throw new SpecFilesMissing(`the schema cache ${cache} does not match its pins (${summary(problems)}); refill it: ${HOW_TO_PROVIDE}`);
    return { dir: cache, source: 'cache' };
  }
  throw new SpecFilesMissing(HOW_TO_PROVIDE);
}
