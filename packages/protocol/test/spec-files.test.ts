// Finding the official schema files (support/spec-files.ts) and filling their cache
// (scripts/fetch-mcp-spec.ts, run as `pnpm mcp-spec` runs it): the order of the sources, the
// SHA-256 check on the way in and on the way out, and the one line a clone without them gets.
// The download path runs against a local HTTP mirror of the specification's schema folder
// (`--base-url`), the same code that fetches from raw.githubusercontent.com by default.
import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOW_TO_PROVIDE, locateSpecDir, SPEC_LOCK, SpecFilesMissing, specCacheDir } from './support/spec-files.js';

const SCRIPT = fileURLToPath(new URL('../scripts/fetch-mcp-spec.ts', import.meta.url));
/** The files as this machine has them (the team's shared folder, or a cache): the script's input. */
const { dir: official } = locateSpecDir();
const temp = (name: string) => mkdtempSync(join(tmpdir(), `mcpscope-spec-${name}-`));
/** Somewhere with no shared/mcp-spec on the way up. */
const nowhere = () => temp('clone');

/** An HTTP mirror of `dir` (`GET /<revision>/schema.json`), with `alter` applied to what it serves. */
async function mirrorOf(dir: string, alter: (path: string, body: Buffer) => Buffer = (_p, b) => b): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url!, 'http://mirror').pathname).replace(/^\/schema\//, '');
    requests.push(path);
    if (path.includes('..') || !existsSync(join(dir, path))) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(alter(path, readFileSync(join(dir, path))));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/schema/`,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

function fetchSpec(args: string[], cacheDir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { env: { ...process.env, MCPSCOPE_CACHE_DIR: cacheDir } }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the official schema files', () => {
  it('pins every revision and the 2026-07-28 examples', () => {
    const files = Object.keys(SPEC_LOCK.files);
    for (const revision of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']) expect(files).toContain(`${revision}/schema.json`);
    expect(files.filter((f) => f.startsWith('2026-07-28/examples/')).length).toBeGreaterThan(100);
    expect(SPEC_LOCK.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('come from MCPSCOPE_SPEC_DIR first, and say so when it lacks them', () => {
    expect(locateSpecDir({ MCPSCOPE_SPEC_DIR: official, MCPSCOPE_CACHE_DIR: temp('empty') }, nowhere())).toEqual({ dir: official, source: 'MCPSCOPE_SPEC_DIR' });
    const empty = temp('spec-dir');
    expect(() => locateSpecDir({ MCPSCOPE_SPEC_DIR: empty }, nowhere())).toThrow(`MCPSCOPE_SPEC_DIR=${empty} does not hold the schema files: 2024-11-05/schema.json is missing (and`);
  });

  it('come from shared/mcp-spec beside the clone, found by walking up', () => {
    const parent = temp('team');
    cpSync(official, join(parent, 'shared', 'mcp-spec'), { recursive: true });
    const clone = join(parent, 'mcpscope', 'packages', 'protocol');
    expect(locateSpecDir({ MCPSCOPE_CACHE_DIR: temp('empty') }, clone)).toEqual({ dir: join(parent, 'shared', 'mcp-spec'), source: 'shared/mcp-spec' });
  });

  it('without any source, fail with one line saying how to provide them', () => {
    let error: unknown;
    try {
      locateSpecDir({ MCPSCOPE_CACHE_DIR: temp('empty') }, nowhere());
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SpecFilesMissing);
    expect((error as Error).message).toBe(HOW_TO_PROVIDE);
    expect(HOW_TO_PROVIDE).not.toContain('\n');
    expect(HOW_TO_PROVIDE).toMatch(/pnpm mcp-spec.*--from DIR.*MCPSCOPE_SPEC_DIR/);
  });

  it('fill the cache from a copy with `pnpm mcp-spec --from DIR`, and are found there', async () => {
    const cache = temp('cache');
    const run = await fetchSpec(['--from', official], cache);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('every SHA-256 as pinned');
    expect(locateSpecDir({ MCPSCOPE_CACHE_DIR: cache }, nowhere())).toEqual({ dir: specCacheDir({ MCPSCOPE_CACHE_DIR: cache }), source: 'cache' });
  });

  it('refuse a file that is not the pinned one, and write nothing', async () => {
    const copy = temp('altered');
    cpSync(official, copy, { recursive: true });
    appendFileSync(join(copy, '2025-06-18', 'schema.json'), ' ');
    const cache = temp('cache');
    const run = await fetchSpec(['--from', copy], cache);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^mcp-spec: refused: 2025-06-18\/schema.json has SHA-256 [0-9a-f]{64}, pinned [0-9a-f]{64}\n/);
    expect(run.stderr).toContain('nothing written');
    expect(existsSync(specCacheDir({ MCPSCOPE_CACHE_DIR: cache }))).toBe(false);
  });

  it('refuse a cache that was changed after it was filled', async () => {
    const cache = temp('cache');
    expect((await fetchSpec(['--from', official], cache)).code).toBe(0);
    appendFileSync(join(specCacheDir({ MCPSCOPE_CACHE_DIR: cache }), '2026-07-28', 'schema.json'), '\n');
    expect(() => locateSpecDir({ MCPSCOPE_CACHE_DIR: cache }, nowhere())).toThrow(/does not match its pins \(2026-07-28\/schema.json has SHA-256/);
  });

  it('download into the cache from the specification repository (here a local mirror of it), every file checked', async () => {
    const mirror = await mirrorOf(official);
    try {
      const cache = temp('cache');
      const run = await fetchSpec(['--base-url', mirror.url], cache);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`${Object.keys(SPEC_LOCK.files).length} files of ${SPEC_LOCK.repository}@${SPEC_LOCK.commit.slice(0, 12)}, every SHA-256 as pinned`);
      expect(mirror.requests.sort()).toEqual(Object.keys(SPEC_LOCK.files).sort());
      expect(locateSpecDir({ MCPSCOPE_CACHE_DIR: cache }, nowhere())).toEqual({ dir: specCacheDir({ MCPSCOPE_CACHE_DIR: cache }), source: 'cache' });
    } finally {
      await mirror.close();
    }
  });

  it('refuse a download that is not the pinned file (another commit, a proxy that rewrites), and write nothing', async () => {
    const mirror = await mirrorOf(official, (path, body) => (path === '2025-11-25/schema.json' ? body.subarray(0, body.length - 10) : body));
    try {
      const cache = temp('cache');
      const run = await fetchSpec(['--base-url', mirror.url], cache);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^mcp-spec: refused: 2025-11-25\/schema.json has SHA-256 [0-9a-f]{64}, pinned [0-9a-f]{64}\n/);
      expect(existsSync(specCacheDir({ MCPSCOPE_CACHE_DIR: cache }))).toBe(false);
    } finally {
      await mirror.close();
    }
  });

  it('offline, say in one line what cannot be reached and what to do instead', async () => {
    const mirror = await mirrorOf(official);
    await mirror.close(); // a port nothing listens on any more
    const cache = temp('cache');
    const run = await fetchSpec(['--base-url', mirror.url], cache);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^mcp-spec: cannot download http:\/\/127\.0\.0\.1:\d+\/schema\/\S+ \(ECONNREFUSED\): this machine cannot reach 127\.0\.0\.1:\d+; copy the files from one that can and use --from DIR\n$/);
    expect(existsSync(specCacheDir({ MCPSCOPE_CACHE_DIR: cache }))).toBe(false);
  });
});
