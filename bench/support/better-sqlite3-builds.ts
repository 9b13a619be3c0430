/**
 * better-sqlite3 compiled for another Node's ABI, for comparing drivers on the same Node in
 * bench/sqlite-drivers.ts. The workspace's own copy is built for the Node that installed it; a
 * copy for Node 22 or 24 is compiled once (about a minute of CPU: GitHub, where its prebuilt
 * binaries live, is out of reach here) into the cache directory and reused.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { cacheDir, type NodeRuntime } from '@mcpscope/release/node-runtimes';

const require = createRequire(import.meta.url);

/** The version the workspace pins (the published package depends on the same). */
export function betterSqlite3Version(): string {
  return (JSON.parse(readFileSync(join(require.resolve('better-sqlite3'), '..', '..', 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * The entry point of a better-sqlite3 that loads under `runtime`: the workspace's for this
 * process's Node, else a cached build. Undefined when none is built and `build` is false.
 */
export function betterSqlite3For(runtime: NodeRuntime, build: boolean): string | undefined {
  if (runtime.node === process.execPath) return require.resolve('better-sqlite3');
  const version = betterSqlite3Version();
  const dir = join(cacheDir(), `better-sqlite3-${version}-node-${runtime.version}`);
  const entry = join(dir, 'node_modules', 'better-sqlite3', 'lib', 'index.js');
  if (existsSync(join(dir, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))) return entry;
  if (!build || !runtime.nodedir) return undefined;
  console.log(`   compiling better-sqlite3 ${version} for Node ${runtime.version} (once; cached in ${dir})`);
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', '--prefix', staging, `better-sqlite3@${version}`], {
    stdio: 'inherit',
    env: { ...process.env, PATH: `${runtime.binDir}:${process.env.PATH}`, npm_config_nodedir: runtime.nodedir },
  });
  if (!existsSync(dir)) renameSync(staging, dir);
  else rmSync(staging, { recursive: true, force: true });
  return entry;
}
