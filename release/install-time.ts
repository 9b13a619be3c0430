/**
 * How long `npm install -g` of a mcpscope tarball takes on each supported Node: the figures the
 * README gives. Each install starts from an empty npm cache (every dependency from the registry,
 * as a user's first install) into a fresh prefix, one after another.
 *
 *   node --import tsx release/install-time.ts [--compile] [--sqlite-addon ADDON.tgz] MCPSCOPE.tgz
 *
 * Without `--compile`, as release/test/installed.ts installs: the registry is reached, better-sqlite3's
 * prebuilt addon is served for the workspace's Node only, and on the other Nodes its compile
 * fallback fails at once (no headers). With `--compile` it is given the Node's headers and no
 * prebuilt addon, so an install that runs its script compiles it, as on a machine that cannot
 * reach GitHub. `--sqlite-addon` serves the companion package as if published (./test/scope-registry.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { NODE_MAJORS, nodeRuntime } from './node-runtimes.js';
import { prebuildMirror, runWith, userEnv } from './test/installed.js';
import { scopeRegistry } from './test/scope-registry.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { compile: { type: 'boolean' }, 'sqlite-addon': { type: 'string' }, node: { type: 'string', multiple: true } } });
const tarball = resolve(positionals[0] ?? '');
const mirror = await prebuildMirror();
const registry = values['sqlite-addon'] ? await scopeRegistry(resolve(values['sqlite-addon'])) : undefined;
const majors = values.node ? NODE_MAJORS.filter((m) => values.node!.includes(String(m))) : NODE_MAJORS;
try {
  for (const major of majors) {
    const runtime = nodeRuntime(major);
    const scratch = mkdtempSync(join(tmpdir(), `mcpscope-install-time-${major}-`));
    const env = userEnv(runtime, {
      ...registry?.env,
      npm_config_cache: join(scratch, 'cache'),
      npm_config_better_sqlite3_binary_host: values.compile ? 'http://127.0.0.1:9/' : mirror.url,
      npm_config_nodedir: values.compile ? runtime.nodedir ?? '' : mkdtempSync(join(scratch, 'no-headers-')),
    });
    if (values.compile && !runtime.nodedir) delete env.npm_config_nodedir; // this process's Node: node-gyp finds its headers itself
    const began = performance.now();
    const npm = await runWith('npm', ['install', '--global', '--prefix', join(scratch, 'prefix'), '--no-audit', '--no-fund', '--loglevel=error', tarball], env);
    const seconds = ((performance.now() - began) / 1000).toFixed(1);
    console.log(`Node ${runtime.version}: ${npm.code === 0 ? `${seconds} s` : `failed (${npm.code}) after ${seconds} s: ${npm.stderr.trim().split('\n').at(-1)}`}`);
    rmSync(scratch, { recursive: true, force: true });
  }
} finally {
  await mirror.close();
  await registry?.close();
}
