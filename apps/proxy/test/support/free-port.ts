/**
 * A loopback port nothing listens on right now: bind to port 0, note the port, close. For an
 * upstream a test starts on it, or for one that must stay down (nothing will bind it meanwhile on
 * a test machine, which is all these tests need).
 */
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}
