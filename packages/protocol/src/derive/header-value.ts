/**
 * 2026-07-28 header values that are not plain ASCII travel as `=?base64?<b64>?=`; this reads both.
 */
import { decodeBase64Utf8 } from '../model/base64.js';

export function decodeHeaderValue(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const m = /^=\?base64\?(.*)\?=$/.exec(value);
  if (!m) return value;
  // Not decodable: compare it as sent, which will be reported as a mismatch.
  return decodeBase64Utf8(m[1]!, true) ?? value;
}
