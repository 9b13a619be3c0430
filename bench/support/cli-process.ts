/**
 * The built CLI (apps/proxy/bin/mcpscope.js) in its own process, as a user runs it, ready when it
 * prints its `--ready-json` line. The caller passes the command's own arguments; `--no-open` and
 * `--ready-json` are added. `BENCH_MCPSCOPE_BIN` runs another build's CLI instead (a checkout
 * before a change, measured in the same machine state), and so does a caller's `bin`.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = process.env.BENCH_MCPSCOPE_BIN ?? fileURLToPath(new URL('../../apps/proxy/bin/mcpscope.js', import.meta.url));

/** The fields of the ready line both `mcpscope open` and the tap print. */
export interface CliReady {
  dashboardUrl: string;
  dashboardLoginUrl: string;
  token: string;
  /** The tap's MCP endpoint (absent for `open`). */
  mcpUrl?: string;
}

export interface CliProcess {
  ready: CliReady;
  pid: number;
  /** Milliseconds from spawn to the ready line. */
  readyMs: number;
  stop(): Promise<void>;
}

/** The CLI of a built checkout (its `apps/proxy/bin/mcpscope.js`). */
export const checkoutBin = (checkout: string): string => join(checkout, 'apps/proxy/bin/mcpscope.js');

export function startCli(args: string[], bin = BIN): Promise<CliProcess> {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, ...args, '--no-open', '--ready-json'], { stdio: ['ignore', 'pipe', 'inherit'] });
  // A benchmark that dies must not leave the CLI running (it holds ports, CPU and the file).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"mcpscope":"ready"'));
      if (line) resolve({ ready: JSON.parse(line) as CliReady, pid: child.pid!, readyMs: performance.now() - started, stop });
    });
    child.once('exit', (code) => reject(new Error(`mcpscope ${args[0] ?? ''} exited with ${code}:\n${out}`)));
  });
}
