/** Starting and stopping listeners, as promises. */
import type { Server } from 'node:http';
import type { ServerType } from '@hono/node-server';

export function listen<T extends ServerType>(server: T): Promise<T> {
  return new Promise((resolve, reject) => {
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

/** Closes a listener, cutting open connections (a stalled dashboard or client would hold it). */
export function closeServer(server: ServerType): Promise<void> {
  return new Promise((resolve) => {
    (server as Server).closeAllConnections?.();
    server.close(() => resolve());
  });
}
