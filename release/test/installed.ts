/**
 * The published package as a user gets it: `npm install -g` of the tarball into a temporary
 * prefix (npm, not pnpm; no workspace), run by a given Node binary through the `mcpscope` bin
 * link with that Node first on PATH, as a shell would.
 *
 * better-sqlite3's native addon: its install script (prebuild-install) downloads a prebuilt
 * binary from GitHub, which CI machines here cannot reach, and compiling it instead costs minutes
 * per Node ABI on 2 shared cores. `prebuildMirror` serves, on loopback, the addon this workspace
 * compiled from the same version for this Node, through prebuild-install's documented mirror
 * setting (`npm_config_better_sqlite3_binary_host`, as behind a corporate proxy): the install runs
 * the same script a user's does, minus the download. It has only the workspace's own ABI, which
 * is enough: better-sqlite3 comes through `@mcpscope/sqlite-addon` (served by ./scope-registry.ts),
 * which npm leaves out on Node 22.16+. There the compile fallback is also given an empty header
 * directory (`nativeBuild: false`), so that an install that did run the script would fail at once,
 * its request seen by the mirror, instead of compiling for minutes.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { NodeRuntime } from '@mcpscope/release/node-runtimes';

export interface Installed {
  runtime: NodeRuntime;
  /** `<prefix>/bin/mcpscope`, the link npm made. */
  bin: string;
  /** The installed package's directory. */
  packageDir: string;
  /** PATH with this Node first, and nothing from the workspace's environment that would help. */
  env: NodeJS.ProcessEnv;
}

/**
 * The environment a user's shell would give: this Node first on PATH, and nothing inherited that
 * could let the installed package reach the workspace (pnpm's shims export NODE_PATH into the
 * workspace's modules, which would hide a missing dependency) or change how it runs.
 */
export function userEnv(runtime: NodeRuntime, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // Identity, locale, temp dir, and how this machine reaches the registry (proxy, CA bundle).
    if (/^(HOME|USER|LOGNAME|SHELL|TERM|LANG|LC_[A-Z]+|TZ|TMPDIR|(HTTPS?|NO|ALL)_PROXY|NODE_EXTRA_CA_CERTS|SSL_CERT_(FILE|DIR))$/i.test(key)) env[key] = value;
  }
  const system = (process.env.PATH ?? '').split(':').filter((dir) => !dir.includes('node_modules'));
  return { ...env, PATH: [runtime.binDir, ...system].join(':'), ...extra };
}

export interface InstallOptions {
  npmCache: string;
  /** The prebuild mirror's URL. */
  mirror: string;
  /** false: better-sqlite3's install script, if it ran, would fail at once (see above). */
  nativeBuild: boolean;
  /** npm settings that reach the `@mcpscope` scope's registry (./scope-registry.ts). */
  registryEnv: Record<string, string>;
}

/** Asynchronous on purpose: the prebuild mirror and the scope's registry answer from this same process meanwhile. */
export async function installTarball(runtime: NodeRuntime, tarball: string, options: InstallOptions): Promise<Installed> {
  const prefix = mkdtempSync(join(tmpdir(), `mcpscope-install-node${runtime.major}-`));
  const env = userEnv(runtime, {
    ...options.registryEnv,
    npm_config_cache: options.npmCache,
    npm_config_better_sqlite3_binary_host: options.mirror,
    ...(options.nativeBuild ? {} : { npm_config_nodedir: mkdtempSync(join(tmpdir(), 'mcpscope-no-headers-')) }),
  });
  const began = performance.now();
  const args = ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error', tarball];
  const npm = await runWith('npm', args, env);
  if (npm.code !== 0) throw new Error(`npm ${args.join(' ')} failed (${npm.code}):\n${npm.stderr}`);
  console.log(`npm install -g of ${tarball} under Node ${runtime.version}: ${((performance.now() - began) / 1000).toFixed(1)} s`);
  return { runtime, bin: join(prefix, 'bin', 'mcpscope'), packageDir: join(prefix, 'lib', 'node_modules', 'mcpscope'), env: userEnv(runtime) };
}

/** A loopback stand-in for better-sqlite3's GitHub release downloads, serving this Node's build. */
export interface PrebuildMirror {
  url: string;
  /** The paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function prebuildMirror(): Promise<PrebuildMirror> {
  const require = createRequire(import.meta.url);
  const root = dirname(dirname(require.resolve('better-sqlite3')));
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  // prebuild-install unpacks build/Release/better_sqlite3.node from the archive, as from GitHub's.
  const archive = execFileSync('tar', ['-czf', '-', '-C', root, 'build/Release/better_sqlite3.node'], { maxBuffer: 64 << 20 });
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === `/v${version}/${name}`) res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': archive.length }).end(archive);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const started = new Set<ChildProcess>();

/** Kills whatever this module started that is still running (a failed test leaves no strays). */
export function killStarted(): void {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  started.clear();
}

function track(child: ChildProcess): ChildProcess {
  started.add(child);
  child.once('exit', () => started.delete(child));
  return child;
}

export interface Running {
  mcpUrl: string;
  dashboardUrl: string;
  token: string;
  banner(): string;
  /** Ctrl-C, then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts the installed `mcpscope` with `args` and waits for its `--ready-json` line. */
export async function startInstalled(installed: Installed, args: string[]): Promise<Running> {
  const child = track(spawn(installed.bin, [...args, '--ready-json'], { env: installed.env, stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    // Only whole lines: the last piece may still be arriving.
    const line = out.split('\n').slice(0, -1).find((l) => l.startsWith('{"mcpscope":"ready"'));
    if (line) {
      const ready = JSON.parse(line) as { mcpUrl: string; dashboardUrl: string; token: string };
      return {
        mcpUrl: ready.mcpUrl,
        dashboardUrl: ready.dashboardUrl,
        token: ready.token,
        banner: () => out,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGINT');
          return exited;
        },
      };
    }
    if (child.exitCode !== null) throw new Error(`mcpscope exited with ${child.exitCode} before it was ready:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`mcpscope was not ready in 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs the installed `mcpscope` to completion. */
export function runInstalled(installed: Installed, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runWith(installed.bin, args, installed.env);
}

/** Runs `file args` to completion, collecting its output. */
export function runWith(file: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = track(spawn(file, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
