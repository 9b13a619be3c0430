/**
 * The real `mcpscope` command as a child process (the built CLI, real ports, a real SQLite file),
 * for what an in-process server cannot show: kill -9, peak memory of the proxy alone, exit codes.
 * Needs `pnpm run build` first (the gate builds before it tests).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../bin/mcpscope.js', import.meta.url));
const BUILT = fileURLToPath(new URL('../../dist/commands/cli.js', import.meta.url));

export interface CliProcess {
  mcpUrl: string;
  dashboardUrl: string;
  token: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM and wait; resolves at once if it already exited. */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown code runs at all. */
  kill9(): Promise<void>;
}

export async function runCli(args: string[]): Promise<CliProcess> {
  if (!existsSync(BUILT)) throw new Error('apps/proxy is not built: run `pnpm run build` before the reliability suite');
  const child = spawn(process.execPath, [CLI, '--port', '0', '--ui-port', '0', '--no-open', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 20_000;
  while (!/Dashboard:\s+\S+/.test(out)) {
    if (child.exitCode !== null) throw new Error(`mcpscope exited early (${child.exitCode}):\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`mcpscope did not print its banner:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const mcpUrl = /Tap \(point your MCP client here\):\s+(\S+)/.exec(out)![1]!;
  const login = new URL(/Dashboard:\s+(\S+)/.exec(out)![1]!);
  const exited = new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
  return {
    mcpUrl,
    dashboardUrl: login.origin,
    token: login.searchParams.get('token') ?? '',
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    kill9: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Runs the CLI expecting it to refuse to start; resolves with its exit code and output. */
export function runCliExpectingExit(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, '--no-open', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const guard = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, output: out });
    });
  });
}

/** Resident memory of a process in bytes, now (`VmRSS`) and at its peak (`VmHWM`), from /proc. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}
