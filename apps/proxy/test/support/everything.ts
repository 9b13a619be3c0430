/**
 * @modelcontextprotocol/server-everything as a real upstream: spawned on a free loopback port in
 * the mode a test asks for, stopped after. (It listens on all interfaces; tests only ever
 * connect to 127.0.0.1.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { freePort } from './free-port.js';

const require = createRequire(import.meta.url);
export const EVERYTHING_BIN = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

export interface Everything {
  /** The MCP endpoint: `/mcp` for streamableHttp, `/sse` for sse. */
  url: string;
  close(): Promise<void>;
}

export async function startEverything(mode: 'streamableHttp' | 'sse'): Promise<Everything> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING_BIN, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (c: Buffer) => {
      seen += c.toString();
      if (/listening on port|running on port/i.test(seen)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything ${mode} exited with ${code}: ${seen}`)));
  });
  return {
    url: `http://127.0.0.1:${port}${mode === 'sse' ? '/sse' : '/mcp'}`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
