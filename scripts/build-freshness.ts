/**
 * Whether a checkout's build is older than its sources, for `pnpm start`: the build is stale when
 * a package's `dist/` is missing, or when any input (a package's files outside `node_modules/`,
 * `dist/` and `test/`, or the workspace's package.json, lockfile and base tsconfig) changed after
 * the oldest of the packages' builds. Directory times count too, so a deleted file is a change.
 * Conservative: any doubt (a file it cannot read) means rebuild.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The workspace packages `pnpm run build` builds, each into its own `dist/`. */
export const BUILT_PACKAGES = ['packages/protocol', 'apps/proxy', 'apps/web'];
const WORKSPACE_INPUTS = ['package.json', 'pnpm-lock.yaml', 'tsconfig.base.json'];
const NOT_INPUTS = new Set(['node_modules', 'dist', 'test']);

interface Newest {
  path: string;
  mtimeMs: number;
}

function newestIn(dir: string, skip: ReadonlySet<string>): Newest {
  let newest: Newest = { path: dir, mtimeMs: statSync(dir).mtimeMs };
  const stack = [dir];
  while (stack.length > 0) {
    const at = stack.pop()!;
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (skip.has(entry.name)) continue;
      const path = join(at, entry.name);
      const { mtimeMs } = statSync(path);
      if (mtimeMs > newest.mtimeMs) newest = { path, mtimeMs };
      if (entry.isDirectory()) stack.push(path);
    }
  }
  return newest;
}

/** Why the checkout at `root` needs a build, or undefined when every `dist/` is newer than its inputs. */
export function whyRebuild(root: string, packages: readonly string[] = BUILT_PACKAGES): string | undefined {
  try {
    let builtAt = Infinity;
    for (const pkg of packages) {
      const dist = join(root, pkg, 'dist');
      let built: Newest;
      try {
        built = newestIn(dist, new Set());
      } catch {
        return `${pkg}/dist is missing`;
      }
      builtAt = Math.min(builtAt, built.mtimeMs);
    }
    const inputs = [...packages.map((pkg) => newestIn(join(root, pkg), NOT_INPUTS)), ...WORKSPACE_INPUTS.map((file) => ({ path: join(root, file), mtimeMs: statSync(join(root, file)).mtimeMs }))];
    const changed = inputs.reduce((a, b) => (b.mtimeMs > a.mtimeMs ? b : a));
    return changed.mtimeMs > builtAt ? `${relative(root, changed.path)} changed after the last build` : undefined;
  } catch (err) {
    return `the build's freshness could not be checked (${(err as Error).message})`;
  }
}
