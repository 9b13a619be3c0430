/**
 * `pnpm pack:release`: the publishable `mcpscope` package, as `mcpscope-<version>.tgz`.
 *
 * Layout of the package (what users install):
 *   package.json      name mcpscope, bin mcpscope, engines, registry dependencies only
 *   README.md         the repository's
 *   dist/cli/mcpscope.js  the proxy and every workspace module it imports (packages/protocol), in
 *                     one ESM bundle; registry packages stay imports, installed by npm as usual.
 *   dist/cli/engine-worker.js, dist/cli/large-writer-worker.js  the capture engine's worker and the
 *                     large-frame writer's (capture/engine-worker.ts, capture/large-writer-worker.ts),
 *                     worker modules the bundle starts from beside itself, bundled the same way.
 *                     Two levels below the root, as apps/proxy/src/<layer>/ is below apps/proxy/,
 *                     so module-relative URLs (core/version.ts, core/web-root.ts) hold in both
 *   dist/web/         the dashboard as Vite built it (apps/web/dist), found by core/web-root.ts
 *
 * The bundle is not minified and has no source map: its stack traces read as the source does
 * (esbuild keeps names, and marks each module with its path), and a map would double the size.
 * Which registry packages it needs is what esbuild saw imported, not a hand-kept list; each
 * must be pinned by the proxy or the protocol package (the version they are tested with), and the
 * build fails on one that is not. better-sqlite3 is loaded at run time (capture/sqlite.ts) and
 * comes through the optional dependency `@mcpscope/sqlite-addon` (./sqlite-addon.ts), packed
 * beside mcpscope and published with it: npm installs it only on the Nodes without a usable
 * node:sqlite, and a failed native build there never fails the install.
 *
 * Run `pnpm run build` first (the dashboard must be built); `--out DIR` puts the tarball there
 * (default: the repository root). Prints the tarball's path, sizes and file list.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { packSqliteAddon, SQLITE_ADDON } from './sqlite-addon.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const path = (...parts: string[]) => join(ROOT, ...parts);

interface Manifest {
  version: string;
  description?: string;
  dependencies?: Record<string, string>;
}
const readManifest = (file: string) => JSON.parse(readFileSync(path(file), 'utf8')) as Manifest;

/** The package name of an import specifier (`@scope/name/sub` → `@scope/name`). */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Leaves every registry import as an import and records its package; bundles the workspace. */
function registryExternals(seen: Set<string>): Plugin {
  const builtins = new Set(builtinModules);
  return {
    name: 'registry-externals',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('@mcpscope/')) return undefined; // workspace: bundle it
        if (args.path.startsWith('node:') || builtins.has(args.path)) return { external: true };
        seen.add(packageName(args.path));
        return { external: true };
      });
    },
  };
}

export interface Packed {
  tarball: string;
  /** Bytes of the .tgz. */
  size: number;
  /** Bytes of the files it holds. */
  unpackedSize: number;
  files: { path: string; size: number }[];
  dependencies: Record<string, string>;
  /** The companion package's tarball, beside this one (./sqlite-addon.ts). */
  sqliteAddon: string;
}

export async function packRelease(outDir: string = ROOT): Promise<Packed> {
  const proxy = readManifest('apps/proxy/package.json');
  const protocol = readManifest('packages/protocol/package.json');
  const webDist = path('apps/web/dist');
  if (!existsSync(join(webDist, 'index.html'))) throw new Error('apps/web/dist/index.html is missing: run `pnpm run build` first');

  const stage = mkdtempSync(join(tmpdir(), 'mcpscope-pack-'));
  try {
    const seen = new Set<string>();
    await build({
      // The CLI, and the worker modules it starts beside itself (capture/answering-worker.ts's
      // `moduleWorkerUrl`): each a bundle of its own.
      entryPoints: { mcpscope: path('apps/proxy/src/commands/cli.ts'), 'engine-worker': path('apps/proxy/src/capture/engine-worker.ts'), 'large-writer-worker': path('apps/proxy/src/capture/large-writer-worker.ts') },
      outdir: join(stage, 'dist', 'cli'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      // Workspace packages resolve to their TypeScript source, as in tsc, Vite and Vitest.
      conditions: ['mcpscope-source'],
      banner: { js: '#!/usr/bin/env node' },
      legalComments: 'none',
      logLevel: 'warning',
      plugins: [registryExternals(seen)],
    });
    cpSync(webDist, join(stage, 'dist', 'web'), { recursive: true });

    const pinned = { ...protocol.dependencies, ...proxy.dependencies };
    const dependencies: Record<string, string> = {};
    for (const name of [...seen].sort()) {
      const version = pinned[name];
      if (!version || version.startsWith('workspace:')) {
        throw new Error(`the bundle imports ${name}, which neither apps/proxy nor packages/protocol depends on`);
      }
      dependencies[name] = version;
    }
    const betterSqlite3 = proxy.dependencies?.['better-sqlite3'];
    if (!betterSqlite3) throw new Error('apps/proxy no longer pins better-sqlite3: update release/pack.ts');

    const manifest = {
      name: 'mcpscope',
      version: proxy.version,
      description: 'See every MCP frame between a client and a server: a transparent proxy that records MCP traffic into SQLite and shows it live in a browser dashboard.',
      keywords: ['mcp', 'model-context-protocol', 'proxy', 'inspector', 'debugging', 'json-rpc', 'chatgpt'],
      type: 'module',
      bin: { mcpscope: 'dist/cli/mcpscope.js' },
      files: ['dist'],
      engines: { node: '>=20.19.0' },
      dependencies,
      optionalDependencies: { [SQLITE_ADDON]: proxy.version },
    };
    writeFileSync(join(stage, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
    cpSync(path('README.md'), join(stage, 'README.md'));

    mkdirSync(outDir, { recursive: true });
    const out = execFileSync('npm', ['pack', '--json', '--loglevel=error', '--pack-destination', resolve(outDir)], { cwd: stage, encoding: 'utf8' });
    const [info] = JSON.parse(out) as { filename: string; size: number; unpackedSize: number; files: { path: string; size: number }[] }[];
    const sqliteAddon = packSqliteAddon(proxy.version, betterSqlite3, outDir);
    return { tarball: join(resolve(outDir), info!.filename), size: info!.size, unpackedSize: info!.unpackedSize, files: info!.files, dependencies, sqliteAddon };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Sizes as npm and the README give them: 1 MB = 1,000,000 bytes (release/test/readme-figures.test.ts). */
export const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
const kb = (n: number) => `${(n / 1e3).toFixed(0)} kB`;

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const outArg = process.argv.indexOf('--out');
  const packed = await packRelease(outArg > 0 ? process.argv[outArg + 1] : undefined);
  console.log(packed.tarball);
  console.log(`  packed ${mb(packed.size)}, unpacked ${mb(packed.unpackedSize)}, ${packed.files.length} files`);
  for (const f of packed.files) console.log(`  ${kb(f.size).padStart(9)}  ${f.path}`);
  console.log(`  dependencies: ${Object.entries(packed.dependencies).map(([n, v]) => `${n}@${v}`).join(', ')} (+ optional ${SQLITE_ADDON})`);
  console.log(`${packed.sqliteAddon}\n  ${SQLITE_ADDON}: better-sqlite3 for the Nodes without node:sqlite; publish it with mcpscope, at the same version`);
}
