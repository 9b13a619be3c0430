/**
 * An official MCP Apps example server from npm (@modelcontextprotocol/server-basic-vanillajs, the
 * ext-apps repository's examples/basic-server-vanillajs) as a real upstream: its own `bin`, started
 * as its README says (Streamable HTTP on $PORT at /mcp), on a free port, stopped after. (It listens
 * on all interfaces; tests only ever connect to 127.0.0.1.)
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freePort } from './free-port.js';

const require = createRequire(import.meta.url);
// Its exports name only the library (dist/server.js); the bin sits beside it.
const BIN = join(dirname(require.resolve('@modelcontextprotocol/server-basic-vanillajs')), 'index.js');

export interface AppsExample {
  url: string;
  close(): Promise<void>;
}

export async function startAppsExample(): Promise<AppsExample> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const read = (c: Buffer) => {
      seen += c.toString();
      if (/listening on/i.test(seen)) resolve();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`server-basic-vanillajs exited with ${code}: ${seen}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
