/**
 * The dashboard token of a capture file, kept beside it (`capture.db.token`, owner-only), so a
 * restart of mcpscope on the same file keeps the token and every open dashboard tab keeps
 * working: a random token per launch stranded them (issue #23). The file is as private as the
 * capture it sits beside; one that others can read, or that holds no usable token, is replaced.
 * `--token` / MCPSCOPE_TOKEN still win, and an in-memory capture gets a fresh token each launch.
 */
import { chmodSync, openSync, readFileSync, statSync, writeSync, closeSync, renameSync } from 'node:fs';
import { newToken } from '../api/access.js';

/** Where the token of `dbFile` is kept. */
export const tokenFileOf = (dbFile: string) => `${dbFile}.token`;

const USABLE = /^[A-Za-z0-9_-]{32,}$/;

export function stableToken(dbFile: string): string {
  const file = tokenFileOf(dbFile);
  const kept = readKept(file);
  if (kept) return kept;
  const token = newToken();
  // Written whole under another name, then renamed: a crash never leaves half a token behind.
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    writeSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
  chmodSync(temp, 0o600);
  renameSync(temp, file);
  return token;
}

function readKept(file: string): string | undefined {
  try {
    // Group or others may read it: not a secret any more, so not worth keeping.
    if ((statSync(file).mode & 0o077) !== 0) return undefined;
    const text = readFileSync(file, 'utf8').trim();
    return USABLE.test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}
