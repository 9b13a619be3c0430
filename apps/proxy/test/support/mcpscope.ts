/**
 * The one way a proxy test starts mcpscope, in two forms:
 * - in process (`startTestMcpscope`): the composition root itself, on an in-memory capture and
 *   free ports, for everything a test can observe through the returned handle;
 * - as a child process (`startMcpscopeProcess`, `spawnMcpscope`), for what only a real process
 *   shows: kill -9, its own peak memory, exit codes, two processes on one file. `from: 'source'`
 *   runs src/ through tsx (no build needed); `from: 'build'` runs bin/mcpscope.js as users do.
 * A child is ready when it prints its `--ready-json` line; tests never scrape the banner.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startMcpscope, type Mcpscope, type StartOptions } from '../../src/compose/start-mcpscope.js';
import type { ReadyLine } from '../../src/commands/run.js';

export async function startTestMcpscope(options: StartOptions = {}): Promise<Mcpscope> {
  return startMcpscope({ db: ':memory:', port: 0, uiPort: 0, ...options });
}

const SOURCE_CLI = fileURLToPath(new URL('../../src/commands/cli.ts', import.meta.url));
export const BUILT_BIN = fileURLToPath(new URL('../../bin/mcpscope.js', import.meta.url));
const BUILT_CLI = fileURLToPath(new URL('../../dist/commands/cli.js', import.meta.url));

export interface SpawnOptions {
  /** `source` (default): src/ through tsx. `build`: bin/mcpscope.js, as installed. */
  from?: 'source' | 'build';
  env?: Record<string, string>;
  /**
   * A command that runs node for us (`['unshare', '-rm', 'sh', '-c', 'mount … && exec "$@"', 'sh']`):
   * node and its arguments follow it, and the child's pid is node's when the wrapper execs.
   */
  wrap?: string[];
}

export interface McpscopeChild {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr interleaved. */
  output(): string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal name). */
  exited: Promise<number | string>;
  /** SIGTERM and wait; resolves at once if it already exited. */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown code runs at all. */
  kill9(): Promise<void>;
}

/** Runs `mcpscope ARGS` exactly as given (for subcommands and refusals to start). */
export function spawnMcpscope(args: string[], options: SpawnOptions = {}): McpscopeChild {
  if (options.from === 'build' && !existsSync(BUILT_CLI)) throw new Error('apps/proxy is not built: run `pnpm run build` first');
  const argv = options.from === 'build' ? [BUILT_BIN, ...args] : ['--conditions=mcpscope-source', '--import', 'tsx', SOURCE_CLI, ...args];
  const [command, ...prefix] = options.wrap ?? [process.execPath];
  const child = spawn(command!, options.wrap ? [...prefix, process.execPath, ...argv] : argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
  let out = '';
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    stdout += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    out += d.toString();
    stderr += d.toString();
  });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { child, output: () => out, stdout: () => stdout, stderr: () => stderr, exited, stop: () => end('SIGTERM'), kill9: () => end('SIGKILL') };
}

export type RunningMcpscope = McpscopeChild & ReadyLine;

/** Starts mcpscope on free ports and waits (bounded) for its ready line. */
export async function startMcpscopeProcess(args: string[], options: SpawnOptions = {}): Promise<RunningMcpscope> {
  const p = spawnMcpscope(['--port', '0', '--ui-port', '0', '--no-open', '--ready-json', ...args], options);
  const deadline = Date.now() + 30_000;
  for (;;) {
    // Only whole lines: the last piece may still be arriving.
    const line = p.output().split('\n').slice(0, -1).find((l) => l.startsWith('{"mcpscope":"ready"'));
    if (line) return { ...p, ...(JSON.parse(line) as ReadyLine) };
    if (p.child.exitCode !== null) throw new Error(`mcpscope exited early (${p.child.exitCode}):\n${p.output()}`);
    if (Date.now() > deadline) {
      await p.kill9();
      throw new Error(`mcpscope did not say it was ready:\n${p.output()}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}
