/**
 * Runs the real `mcpscope` command as a user would (built CLI, real ports, real SQLite file) and
 * reads the URLs from its `--ready-json` line (the proxy's tests do the same:
 * apps/proxy/test/support/mcpscope.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from '@playwright/test';

const BIN = new URL('../../apps/proxy/bin/mcpscope.js', import.meta.url).pathname;
/**
 * How long a start may take before it counts as hung: a hang guard, not a speed check. With the
 * gate's other steps and other work sharing the two cores, a cold start of the built CLI has taken
 * more than 20 s.
 */
const READY_WITHIN_MS = 60_000;

export interface RunningMcpscope {
  mcpUrl: string;
  dashboardLoginUrl: string;
  dashboardUrl: string;
  dbFile: string;
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/**
 * `wrap`: a command that runs node for us, node's argv following it (e.g. `unshare … sh -c '…
 * exec "$@"'` to give mcpscope a file system of its own); `dbFile` overrides the temporary one.
 */
export async function runMcpscope(args: string[] = [], env: Record<string, string> = {}, options: { wrap?: string[]; dbFile?: string } = {}): Promise<RunningMcpscope> {
  const dbFile = options.dbFile ?? join(mkdtempSync(join(tmpdir(), 'mcpscope-e2e-')), 'capture.db');
  const argv = [BIN, '--port', '0', '--ui-port', '0', '--no-open', '--ready-json', '--db', dbFile, ...args];
  const [command, ...prefix] = options.wrap ?? [process.execPath];
  const child = spawn(command!, options.wrap ? [...prefix, process.execPath, ...argv] : argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + READY_WITHIN_MS;
  let ready: { mcpUrl: string; dashboardLoginUrl: string } | undefined;
  while (!ready) {
    // Only whole lines: the last piece may still be arriving.
    const line = out.split('\n').slice(0, -1).find((l) => l.startsWith('{"mcpscope":"ready"'));
    if (line) ready = JSON.parse(line) as { mcpUrl: string; dashboardLoginUrl: string };
    else if (child.exitCode !== null) throw new Error(`mcpscope exited early:\n${out}`);
    else if (Date.now() > deadline) throw new Error(`mcpscope did not say it was ready:\n${out}`);
    else await new Promise((r) => setTimeout(r, 50));
  }
  const { mcpUrl, dashboardLoginUrl } = ready;
  return {
    mcpUrl,
    dashboardLoginUrl,
    dashboardUrl: new URL(dashboardLoginUrl).origin,
    dbFile,
    process: child,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** `mcpscope open FILE` (read-only dashboard over an export), ready once its `--ready-json` line is out. */
export interface OpenedFile {
  dashboardLoginUrl: string;
  output(): string;
  stop(): void;
}

export async function runOpen(file: string): Promise<OpenedFile> {
  const child = spawn(process.execPath, [BIN, 'open', file, '--ui-port', '0', '--no-open', '--ready-json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + READY_WITHIN_MS;
  for (;;) {
    const line = out.split('\n').slice(0, -1).find((l) => l.startsWith('{"mcpscope":"ready"'));
    if (line) {
      const { dashboardLoginUrl } = JSON.parse(line) as { dashboardLoginUrl: string };
      return { dashboardLoginUrl, output: () => out, stop: () => void child.kill('SIGTERM') };
    }
    if (child.exitCode !== null) throw new Error(`mcpscope open exited early:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`mcpscope open did not say it was ready:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface McpscopeHandle {
  /** The running mcpscope; read it inside tests and hooks, after beforeAll. */
  readonly app: RunningMcpscope;
}

/**
 * One mcpscope for the tests of the file (or describe block) that calls this: started before
 * them with `args`, stopped after them.
 */
export function mcpscopeForTests(args: string[] = [], env: Record<string, string> = {}): McpscopeHandle {
  let app: RunningMcpscope | undefined;
  test.beforeAll(async () => {
    app = await runMcpscope(args, env);
  });
  test.afterAll(async () => {
    await app?.stop();
  });
  return {
    get app() {
      if (!app) throw new Error('mcpscope is not running: read it inside a test or hook, after beforeAll');
      return app;
    },
  };
}
