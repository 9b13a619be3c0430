/**
 * The key that salts credential fingerprints (redaction/credential-fingerprint.ts), kept out of
 * the capture file: with it, a fingerprint in the file would be an offline oracle for guessing
 * the credential (a Basic-auth password against a word list). A capture file's key lives beside
 * it as `capture.db.key`, owner-only and trusted only as owner-file.ts says, like the dashboard
 * token; an in-memory capture gets a random key for the life of the process.
 *
 * Fingerprints join a conversation's sessions only when they were taken under the same key: if
 * the key file is removed (or the capture is moved without it), traffic from then on gets new
 * fingerprints and joins new conversations instead of the ones recorded before.
 */
import { randomBytes } from 'node:crypto';
import { readOwnerFile, writeOwnerFile } from './owner-file.js';

/** Where the fingerprint key of `dbFile` is kept. */
export const fingerprintKeyFileOf = (dbFile: string) => `${dbFile}.key`;

const USABLE = /^[0-9a-f]{64}$/;

export function fingerprintKey(dbFile: string): string {
  if (dbFile === ':memory:') return randomBytes(32).toString('hex');
  const file = fingerprintKeyFileOf(dbFile);
  const kept = readOwnerFile(file, 'The credential-fingerprint key file', '')?.trim();
  if (kept && USABLE.test(kept)) return kept;
  const key = randomBytes(32).toString('hex');
  writeOwnerFile(file, `${key}\n`);
  return key;
}
