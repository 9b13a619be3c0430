/**
 * Credential fingerprints: what lets conversations join requests that carried the same bearer
 * credential without the capture ever holding it. The tap takes the fingerprint before redaction
 * replaces the header: an HMAC-SHA-256 of the whole `Authorization` value under a key kept
 * outside the capture (beside the file, compose/fingerprint-key.ts), cut to 96 bits. Equal
 * credentials give equal fingerprints under one key; nothing about the credential can be read
 * back, and without the key (never in the capture file nor an export) a guessed token or
 * password cannot be checked against one.
 */
import { createHmac } from 'node:crypto';

export type CredentialFingerprint = (authorization: string | undefined) => string | undefined;

export function credentialFingerprinter(key: string): CredentialFingerprint {
  // A client sends the same credential on every request: remember the last one.
  let lastValue: string | undefined;
  let lastPrint: string | undefined;
  return (authorization) => {
    if (!authorization) return undefined;
    if (authorization !== lastValue) {
      lastValue = authorization;
      lastPrint = createHmac('sha256', key).update(authorization).digest('base64url').slice(0, 16);
    }
    return lastPrint;
  };
}
