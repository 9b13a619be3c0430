/**
 * The paths every tap benchmark compares, each a separate process as users run them, all in
 * front of the same upstream:
 *   - direct: the client talks to the upstream (the baseline);
 *   - mcpscope: the tap with capture on;
 *   - mcpscope, capture off: the same tap recording nothing (what capture itself costs);
 *   - mcpscope, door off: frames captured, but no door records (what recording every HTTP request
 *     at the door costs the MCP path);
 *   - node pass-through: node:http in, undici out, bytes piped, nothing else (the floor for the
 *     tap's own approach: it forwards with undici too);
 *   - node:http pipe: node:http in, node:http out on a keep-alive agent, bytes piped (the fastest
 *     floor a Node proxy can reach; every tap row is read against the fastest floor of the run);
 *   - hono pass-through: `hono/proxy` on @hono/node-server (the floor for a Hono + fetch proxy);
 *   - mitmdump: mitmproxy in reverse-proxy mode, default (reads bodies whole) and streaming
 *     (`stream_large_bodies=1`; then it keeps no bodies). Skipped with the reason when missing.
 */
import { mitmdumpVersion, startMitmdump } from './mitmproxy.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startHelper, type Helper } from './support/processes.js';

export interface BenchPath {
  /** The origin a client sends its MCP POSTs to (the endpoint is `${origin}/mcp`). */
  origin: string;
  /** The proxy's process, for memory readings; absent for direct. */
  pid?: number;
  close(): Promise<void>;
}

export type StartedPath = BenchPath | { skipped: string };

export type PathKind = 'direct' | 'mcpscope' | 'capture off' | 'door off' | 'node' | 'node pipe' | 'hono' | 'mitmdump' | 'mitmdump streaming';

export const ALL_PATHS: readonly PathKind[] = ['direct', 'mcpscope', 'capture off', 'door off', 'node', 'node pipe', 'hono', 'mitmdump', 'mitmdump streaming'];

/** The pass-through floors: proxies that forward and keep nothing. */
export const FLOORS: readonly PathKind[] = ['node', 'node pipe', 'hono'];

/** The row label of each path (mitmdump's carries its version, for whoever reruns this). */
export function pathName(kind: PathKind): string {
  switch (kind) {
    case 'direct':
      return 'direct';
    case 'mcpscope':
      return 'mcpscope';
    case 'capture off':
      return 'mcpscope, capture off';
    case 'door off':
      return 'mcpscope, door off';
    case 'node':
      return 'node pass-through';
    case 'node pipe':
      return 'node:http pipe';
    case 'hono':
      return 'hono pass-through';
    case 'mitmdump':
      return `mitmdump ${mitmdumpVersion()}`;
    case 'mitmdump streaming':
      return `mitmdump ${mitmdumpVersion()} streaming`;
  }
}

const fromHelper = (h: Helper): BenchPath => ({ origin: h.origin, pid: h.pid, close: () => h.stop() });

/**
 * Another checkout of mcpscope, built (`BENCH_BEFORE=<dir>`): every mcpscope path also runs from
 * there, as "before: …", so a change is measured against what it changes in the same run.
 */
export const BEFORE = builtCheckout(process.env.BENCH_BEFORE);

/** The checkout, when it has what its tap needs; otherwise what to do, before any path starts. */
function builtCheckout(dir: string | undefined): string | undefined {
  if (!dir) return undefined;
  for (const needed of ['node_modules', 'apps/proxy/dist']) {
    if (!existsSync(join(dir, needed))) throw new Error(`BENCH_BEFORE=${dir} has no ${needed}: run \`pnpm install --frozen-lockfile && pnpm run build\` there first`);
  }
  return dir;
}
const MCPSCOPE_KINDS: readonly PathKind[] = ['mcpscope', 'capture off', 'door off'];

/** `tapEnv` goes to the mcpscope processes (e.g. `DB` for an on-disk store); `tree` runs another checkout's build. */
export async function startPath(kind: PathKind, upstream: Helper, tapEnv: Record<string, string> = {}, tree?: string): Promise<StartedPath> {
  const UPSTREAM = upstream.origin;
  const tap = tree ? join(tree, 'bench/support/tap-process.ts') : './tap-process.ts';
  switch (kind) {
    case 'direct':
      return { origin: UPSTREAM, close: async () => {} };
    case 'mcpscope':
      return fromHelper(await startHelper(tap, { UPSTREAM, ...tapEnv }));
    case 'capture off':
      // Records nothing, so it needs no store file (and must not take the capture-on tap's lock).
      return fromHelper(await startHelper(tap, { UPSTREAM, CAPTURE: 'off' }));
    case 'door off':
      return fromHelper(await startHelper(tap, { UPSTREAM, DOOR: 'off' }));
    case 'node':
      return fromHelper(await startHelper('./node-pass-through.ts', { UPSTREAM }));
    case 'node pipe':
      return fromHelper(await startHelper('./node-pipe.ts', { UPSTREAM }));
    case 'hono':
      return fromHelper(await startHelper('./hono-pass-through.ts', { UPSTREAM }));
    case 'mitmdump':
      return startMitmdump(UPSTREAM);
    case 'mitmdump streaming':
      return startMitmdump(UPSTREAM, { streaming: true });
  }
}

export interface PathSet {
  /** Every requested path by its label, in order; skipped ones say why. */
  all: [name: string, path: StartedPath][];
  /** The ones that started. */
  live: [name: string, path: BenchPath][];
  close(): Promise<void>;
}

export async function startPaths(kinds: readonly PathKind[], upstream: Helper, tapEnv: Record<string, string> = {}): Promise<PathSet> {
  const all: [string, StartedPath][] = [];
  const live = () => all.filter((p): p is [string, BenchPath] => !('skipped' in p[1]));
  const close = async () => void (await Promise.all(live().map(([, p]) => p.close())));
  try {
    for (const kind of kinds) {
      all.push([pathName(kind), await startPath(kind, upstream, tapEnv)]);
      // A store file is this checkout's: the other one gets its own.
      if (BEFORE && MCPSCOPE_KINDS.includes(kind)) all.push([`before: ${pathName(kind)}`, await startPath(kind, upstream, tapEnv.DB ? { ...tapEnv, DB: `${tapEnv.DB}.before` } : tapEnv, BEFORE)]);
    }
  } catch (error) {
    await close(); // never leave the paths that did start running
    throw error;
  }
  return { all, live: live(), close };
}
