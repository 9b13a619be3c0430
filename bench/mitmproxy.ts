/**
 * mitmproxy's `mitmdump` in reverse-proxy mode, as the established alternative in the tap
 * comparisons. It is optional: `startMitmdump` returns `{ skipped: reason }` when the binary is
 * missing or does not come up, and the benchmark prints a skipped row rather than failing.
 * Install on Debian with `apt-get install -y mitmproxy`.
 *
 * mitmdump runs with its defaults (it reads each body whole before passing it on, which is what
 * lets it show bodies); `streaming: true` adds `stream_large_bodies=1`, its streaming mode, in
 * which it no longer keeps bodies.
 */
import { spawn, spawnSync } from 'node:child_process';
import { connect, createServer } from 'node:net';
import type { BenchPath } from './paths.js';

export const MITMDUMP = process.env.MITMDUMP ?? 'mitmdump';

/** Why mitmdump cannot run here, or undefined when it can. */
export function mitmdumpUnavailable(): string | undefined {
  const probe = spawnSync(MITMDUMP, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  if (probe.error) return `${MITMDUMP} not found (apt-get install -y mitmproxy)`;
  if (probe.status !== 0) return `${MITMDUMP} --version exited ${probe.status}`;
  return undefined;
}

export function mitmdumpVersion(): string {
  const out = spawnSync(MITMDUMP, ['--version'], { encoding: 'utf8', timeout: 20_000 }).stdout ?? '';
  return /Mitmproxy:\s*(\S+)/.exec(out)?.[1] ?? 'unknown';
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

export async function startMitmdump(upstreamOrigin: string, opts: { streaming?: boolean } = {}): Promise<BenchPath | { skipped: string }> {
  const unavailable = mitmdumpUnavailable();
  if (unavailable) return { skipped: unavailable };
  const target = new URL(upstreamOrigin);
  const port = await freePort();
  const args = ['--mode', `reverse:${target.origin}`, '--listen-host', '127.0.0.1', '--listen-port', String(port), '-q', '--set', 'keep_host_header=true'];
  if (opts.streaming) args.push('--set', 'stream_large_bodies=1');
  const child = spawn(MITMDUMP, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  // Bounded wait: mitmdump (Python) takes a second or two to start.
  for (let i = 0; i < 150 && !(await canConnect(port)); i++) {
    if (child.exitCode !== null) return { skipped: `mitmdump exited ${child.exitCode}: ${stderr.trim().split('\n').pop()}` };
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!(await canConnect(port))) {
    child.kill('SIGKILL');
    return { skipped: 'mitmdump did not start listening within 15 s' };
  }
  // Never leave a mitmdump behind, even when the benchmark itself dies.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    close: () =>
      new Promise((resolve) => {
        process.off('exit', killOnExit);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        // A busy mitmdump can take its time over SIGTERM: bounded, then SIGKILL.
        const force = setTimeout(() => child.kill('SIGKILL'), 3_000);
        child.once('exit', () => (clearTimeout(force), resolve()));
        child.kill('SIGTERM');
      }),
  };
}
