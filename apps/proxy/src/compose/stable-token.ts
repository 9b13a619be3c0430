/**
 * The dashboard token of a capture file, kept beside it (`capture.db.token`, owner-only), so a
 * restart of mcpscope on the same file keeps the token and every open dashboard tab keeps
 * working. The file is trusted only as owner-file.ts says (a regular file of this user, mode
 * 0600); any other is refused with a message, never adopted. One that holds no usable token is
 * replaced. `--token` / MCPSCOPE_TOKEN still win (and then the file is never read), and an
 * in-memory capture gets a fresh token each launch.
 */
import { newToken } from '../api/access.js';
import { readOwnerFile, writeOwnerFile } from './owner-file.js';

/** Where the token of `dbFile` is kept. */
export const tokenFileOf = (dbFile: string) => `${dbFile}.token`;

const USABLE = /^[A-Za-z0-9_-]{32,}$/;

export function stableToken(dbFile: string): string {
  const file = tokenFileOf(dbFile);
  const kept = readOwnerFile(file, 'The dashboard token file', 'pass --token T')?.trim();
  if (kept && USABLE.test(kept)) return kept;
  const token = newToken();
  writeOwnerFile(file, `${token}\n`);
  return token;
}
