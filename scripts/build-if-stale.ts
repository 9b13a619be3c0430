/**
 * `pnpm start`'s first step: builds the checkout only when its build is older than its sources
 * (build-freshness.ts), so starting again after no change takes a second, not a build.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { whyRebuild } from './build-freshness.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const why = whyRebuild(root);
if (why === undefined) {
  process.stderr.write('mcpscope: the build is newer than the sources, starting it (`pnpm run build` rebuilds anyway)\n');
} else {
  process.stderr.write(`mcpscope: building first: ${why}\n`);
  const build = spawnSync('pnpm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  process.exit(build.status ?? 1);
}
