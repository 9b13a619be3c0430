/**
 * Where the dashboard's built files (index.html and assets/) are, in the two layouts mcpscope runs
 * from. One place decides, so the CLI, `mcpscope open` and the tests serve the same files.
 *
 * - The published package: the whole proxy is one bundle, `<package>/dist/mcpscope.js`, with the
 *   dashboard beside it in `<package>/dist/web/` (release/pack.ts lays it out so).
 * - A checkout: this module runs from `apps/proxy/src/assets/` (tsx, vitest) or
 *   `apps/proxy/dist/assets/` (the tsc build), and the dashboard is `apps/web/dist/` (vite build).
 *
 * Each candidate is relative to this module's URL, which in the bundle is the bundle's own; the
 * first with an index.html wins. With neither built, the checkout's path is returned, so the
 * dashboard port answers 404 there as it always did.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGED = new URL('web/', import.meta.url);
const CHECKOUT = new URL('../../../web/dist/', import.meta.url);

export function resolveWebRoot(): string {
  for (const candidate of [PACKAGED, CHECKOUT]) {
    const dir = fileURLToPath(candidate);
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return fileURLToPath(CHECKOUT);
}
