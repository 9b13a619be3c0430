/**
 * Secrets kept in a file beside the capture (the dashboard token, the credential-fingerprint
 * key): readable and writable by their owner only.
 *
 * Invariants: a kept file is used only when it is a regular file (never a symlink, checked with
 * lstat), owned by the user running mcpscope, with no group or other permission bits; anything
 * else is refused with a message saying what to do, never silently adopted or replaced (another
 * user could have planted it). A new file is written whole under a fresh random name created
 * with O_EXCL and mode 0600 (so a planted file or symlink at that name fails the write instead of
 * being followed), then renamed over the kept name: a crash never leaves half a secret behind.
 */
import { closeSync, lstatSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { InspectorError } from '../core/errors.js';

/**
 * The text of `file`, or undefined when there is none. Throws `secret_file_refused` when the
 * file is not safe to trust; `what` names it in the message, `instead` says how to do without it.
 */
export function readOwnerFile(file: string, what: string, instead: string): string | undefined {
  let stat;
  try {
    stat = lstatSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const refuse = (why: string) => new InspectorError('secret_file_refused', `${what} ${file} ${why}; mcpscope will not use it. Remove it (mcpscope then makes a new one, readable by you only)${instead ? ` or ${instead}` : ''}.`);
  if (stat.isSymbolicLink()) throw refuse('is a symbolic link');
  if (!stat.isFile()) throw refuse('is not a regular file');
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw refuse(`belongs to another user (uid ${stat.uid}, you are ${uid})`);
  if ((stat.mode & 0o077) !== 0) throw refuse(`can be read or written by others (mode ${(stat.mode & 0o777).toString(8)})`);
  return readFileSync(file, 'utf8');
}

/** Writes `text` as `file`, owner-only, replacing the file there atomically. */
export function writeOwnerFile(file: string, text: string): void {
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  // 'wx' is O_CREAT | O_EXCL: fails on anything already at `temp`, a symlink included.
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, text);
  } catch (err) {
    closeSync(fd);
    unlinkSync(temp);
    throw err;
  }
  closeSync(fd);
  renameSync(temp, file);
}
