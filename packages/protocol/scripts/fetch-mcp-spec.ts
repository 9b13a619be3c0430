/**
 * `pnpm mcp-spec [--from DIR | --base-url URL] [--dest DIR] [--if-needed]` (this file, run by tsx): fills the cache
 * of official MCP schema files that the protocol tests use as their oracle
 * (packages/protocol/test/support/spec-files.ts), when the team's `../shared/mcp-spec` is not
 * beside the clone.
 *
 * Source: by default each file is downloaded from GitHub, `raw.githubusercontent.com/<repository>/
 * <commit>/schema/<file>`, at the commit pinned in mcp-spec.lock.json. No npm package carries
 * these files (the specification's own package.json is private; @modelcontextprotocol/sdk, /core
 * and /conformance hold none), so a machine that reaches only the npm registry uses
 * `--from DIR`: a checkout of the specification repository, its schema/ folder, or a directory
 * laid out like the cache (`<revision>/schema.json`), e.g. copied from another machine.
 *
 * `--base-url URL` downloads from a mirror of that folder instead (`URL/<revision>/schema.json`):
 * a proxy of raw.githubusercontent.com inside a company network, or a test's local server.
 *
 * Every file is checked against its pinned SHA-256 before anything is written; one that differs
 * (another commit, a truncated download, an edited copy) is refused with its name and both
 * hashes, and the cache is left as it was. `--dest` writes somewhere else than the cache.
 * `--if-needed` does nothing when the tests already find the files (.ci/run uses it). When they
 * do not and no source is given, a clone made from a local checkout (`git clone /work/main /tmp/x`)
 * first looks for `shared/mcp-spec` beside that checkout, as the tests would have beside it: the
 * same pins apply.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { locateSpecDir, SPEC_LOCK, sha256, specCacheDir, SpecFilesMissing } from '../test/support/spec-files.js';

const DOWNLOADS_AT_ONCE = 8;

/** The pinned commit's schema folder on GitHub. */
const GITHUB_BASE = `https://raw.githubusercontent.com/${SPEC_LOCK.repository}/${SPEC_LOCK.commit}/${SPEC_LOCK.root}`;

async function download(base: string, file: string): Promise<Buffer> {
  const url = `${base.replace(/\/+$/, '')}/${file}`;
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    throw new Error(`cannot download ${url} (${cause}): this machine cannot reach ${new URL(url).host}; copy the files from one that can and use --from DIR`, { cause: err });
  }
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/** The directory under DIR whose layout is `<revision>/schema.json`. */
function specRoot(dir: string): string {
  const first = Object.keys(SPEC_LOCK.files)[0]!;
  for (const candidate of [dir, join(dir, SPEC_LOCK.root)]) if (existsSync(join(candidate, first))) return candidate;
  throw new Error(`${dir} holds no ${first}, nor ${SPEC_LOCK.root}/${first}: give a checkout of ${SPEC_LOCK.repository}, its ${SPEC_LOCK.root}/ folder, or a copy of the cache`);
}

async function collect(from: string | undefined, base: string): Promise<Map<string, Buffer>> {
  const files = Object.keys(SPEC_LOCK.files);
  const got = new Map<string, Buffer>();
  if (from) {
    const root = specRoot(resolve(from));
    for (const file of files) if (existsSync(join(root, file))) got.set(file, readFileSync(join(root, file)));
    return got;
  }
  const queue = [...files];
  await Promise.all(
    Array.from({ length: DOWNLOADS_AT_ONCE }, async () => {
      for (let file = queue.shift(); file; file = queue.shift()) got.set(file, await download(base, file));
    }),
  );
  return got;
}

/** `shared/mcp-spec` beside the local checkout this clone was made from, if it was made from one. */
function besideOrigin(): string | undefined {
  let origin: string;
  try {
    origin = execFileSync('git', ['config', '--get', 'remote.origin.url'], { cwd: dirname(fileURLToPath(import.meta.url)), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
  const path = origin.startsWith('file://') ? fileURLToPath(origin) : origin;
  if (!path.startsWith('/') || !existsSync(path)) return undefined;
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'mcp-spec');
    if (existsSync(join(candidate, '2025-11-25', 'schema.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { from: { type: 'string' }, 'base-url': { type: 'string' }, dest: { type: 'string' }, 'if-needed': { type: 'boolean' } }, strict: true });
  if (values.from && values['base-url']) throw new Error('--from and --base-url are two sources: give one');
  if (values['if-needed']) {
    try {
      const found = locateSpecDir();
      process.stdout.write(`mcp-spec: the tests read the schema files from ${found.dir} (${found.source}); nothing to do\n`);
      return 0;
    } catch (err) {
      if (!(err instanceof SpecFilesMissing)) throw err;
    }
  }
  const from = values.from ?? (values['if-needed'] && !values['base-url'] ? besideOrigin() : undefined);
  if (from && !values.from) process.stdout.write(`mcp-spec: reading the schema files from ${from}, beside the checkout this was cloned from\n`);
  const dest = resolve(values.dest ?? specCacheDir());
  const got = await collect(from, values['base-url'] ?? GITHUB_BASE);
  const problems: string[] = [];
  for (const [file, pinned] of Object.entries(SPEC_LOCK.files)) {
    const bytes = got.get(file);
    if (!bytes) problems.push(`${file} is missing`);
    else if (sha256(bytes) !== pinned) problems.push(`${file} has SHA-256 ${sha256(bytes)}, pinned ${pinned}`);
  }
  if (problems.length) {
    for (const p of problems.slice(0, 10)) process.stderr.write(`mcp-spec: refused: ${p}\n`);
    if (problems.length > 10) process.stderr.write(`mcp-spec: … and ${problems.length - 10} more\n`);
    process.stderr.write(`mcp-spec: nothing written; the files must be ${SPEC_LOCK.repository}'s at ${SPEC_LOCK.commit}\n`);
    return 1;
  }
  // Written beside the destination, then swapped in: an interrupted run leaves no half cache.
  const staging = `${dest}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  for (const [file, bytes] of got) {
    mkdirSync(dirname(join(staging, file)), { recursive: true });
    writeFileSync(join(staging, file), bytes);
  }
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dirname(dest), { recursive: true });
  renameSync(staging, dest);
  process.stdout.write(`mcp-spec: ${got.size} files of ${SPEC_LOCK.repository}@${SPEC_LOCK.commit.slice(0, 12)}, every SHA-256 as pinned, in ${dest}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`mcp-spec: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
