/**
 * `@mcpscope/sqlite-addon`: the package that brings better-sqlite3 to the Nodes that need it, and
 * only to those. It holds nothing but a manifest: `engines` is the range of Nodes without a usable
 * node:sqlite (capture/sqlite.ts, `loadNodeSqlite`: before 22.16, and 23 before 23.10), and its one
 * dependency is better-sqlite3 at the version the proxy pins. mcpscope lists it as an optional
 * dependency, published beside mcpscope at the same version.
 *
 * Why a package of its own: npm checks `engines` of an optional dependency while it plans the
 * install, and marks one that does not fit this Node inert together with everything only it needs,
 * so nothing of it is fetched, unpacked or built (@npmcli/arborist build-ideal-tree.js,
 * `#checkEngineAndPlatform`, since arborist 2.2.3 / npm 7.6: npm/arborist#231, "skip optional deps
 * with mismatched platform or engine"; `--force` does not change it). better-sqlite3's own
 * `engines` accepts every Node, so naming it directly would build it everywhere. A package bundled
 * inside mcpscope's tarball would not do: npm checks neither the engines of a bundled package nor
 * installs its dependencies, and a `file:` dependency inside a tarball installs nothing.
 * On a Node in the range the addon's failed build fails this optional package with it, so npm
 * still installs mcpscope (npm docs, package.json, "optionalDependencies").
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const SQLITE_ADDON = '@mcpscope/sqlite-addon';

/** The Nodes whose node:sqlite mcpscope cannot use (the same bounds as capture/sqlite.ts). */
export const SQLITE_ADDON_NODES = '>=20.19.0 <22.16.0 || >=23.0.0 <23.10.0';

/** Packs the companion as `mcpscope-sqlite-addon-<version>.tgz` in `outDir`; returns its path. */
export function packSqliteAddon(version: string, betterSqlite3: string, outDir: string): string {
  const stage = mkdtempSync(join(tmpdir(), 'mcpscope-sqlite-addon-'));
  try {
    const manifest = {
      name: SQLITE_ADDON,
      version,
      description: `better-sqlite3 for mcpscope on Node ${SQLITE_ADDON_NODES} (no usable node:sqlite there); npm skips this optional dependency of mcpscope on every other Node.`,
      engines: { node: SQLITE_ADDON_NODES },
      dependencies: { 'better-sqlite3': betterSqlite3 },
    };
    writeFileSync(join(stage, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
    const out = execFileSync('npm', ['pack', '--json', '--loglevel=error', '--pack-destination', resolve(outDir)], { cwd: stage, encoding: 'utf8' });
    const [info] = JSON.parse(out) as { filename: string }[];
    return join(resolve(outDir), info!.filename);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
