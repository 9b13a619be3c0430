/**
 * Starts a bench helper script in its own Node process and waits for its `READY <origin>` line.
 * The helper imports mcpscope from its build (dist/), as users run it, not from source through tsx.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface Helper {
  origin: string;
  /** The helper's process id (for memory readings from /proc). */
  pid: number;
  stop(): Promise<void>;
}

/** `nodeArgs` go to Node before the script (e.g. `--cpu-prof`). */
export function startHelper(script: string, env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<Helper> {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  // A benchmark that dies must not leave its helpers running (they hold ports and CPU).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /READY (\S+)/.exec(out);
      if (m) {
        resolve({
          origin: m[1]!,
          pid: child.pid!,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${out}`)));
  });
}
