/**
 * Where the dashboard's built files (index.html and assets/) are, in the two layouts mcpscope runs
 * from; one place decides, so `mcpscope` and `mcpscope open` serve the same files.
 *
 * - A checkout: this module runs from `apps/proxy/src/core/` (tsx, vitest) or `apps/proxy/dist/core/`
 *   (the tsc build), and the dashboard is the Vite build in `apps/web/dist/`.
 * - The published package (release/pack.ts): the proxy is one bundle, `<package>/dist/cli/mcpscope.js`,
 *   two directories below the package root as this module is below apps/proxy/ (so version.ts's
 *   `../../package.json` holds in both), and the dashboard is beside it in `<package>/dist/web/`.
 *
 * Each candidate is relative to this module's URL, which in the bundle is the bundle's; the first
 * with an index.html wins (the packaged one cannot exist in a checkout: apps/proxy/src/web/). With
 * neither built, the checkout's path is returned, and the dashboard port answers 404 as before.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGED = new URL('../web/', import.meta.url);
const CHECKOUT = new URL('../../../web/dist/', import.meta.url);

export function resolveWebRoot(): string {
  for (const candidate of [PACKAGED, CHECKOUT]) {
    const dir = fileURLToPath(candidate);
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return fileURLToPath(CHECKOUT);
}
