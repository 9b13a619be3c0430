/** Secret values the security tests send through the tap, and a search of the capture file's bytes. */
import { existsSync, readFileSync } from 'node:fs';
import { SET_COOKIE_SECRET } from './fixtures/faulty-upstream.js';

export const SECRETS = {
  bearer: 'SECRET-BEARER-9f8e7d6c5b4a3928',
  cookie: 'SECRET-COOKIE-0a1b2c3d4e5f',
  apiKey: 'SECRET-APIKEY-1234abcd5678',
  proxy: 'SECRET-PROXYAUTH-feedbeef',
  setCookie: SET_COOKIE_SECRET,
};

/** Which of `secrets` occur in the database file or its WAL (as UTF-8 bytes). */
export function secretsOnDisk(dbFile: string, secrets: string[]): string[] {
  const files = [dbFile, `${dbFile}-wal`, `${dbFile}-journal`].filter(existsSync).map((f) => readFileSync(f));
  return secrets.filter((s) => files.some((bytes) => bytes.includes(Buffer.from(s))));
}
