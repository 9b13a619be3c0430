/**
 * @modelcontextprotocol/server-everything (the reference server) spawned for a spec on a free
 * loopback port, Streamable HTTP, stopped after.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export interface Everything {
  url: string;
  stop(): void;
}

export async function startEverything(): Promise<Everything> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  const entry = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
  const child = spawn(process.execPath, [entry, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let log = '';
    child.stderr!.on('data', (d: Buffer) => (log += d.toString()).includes('listening') && resolve());
    child.once('exit', () => reject(new Error(log)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => void child.kill() };
}
