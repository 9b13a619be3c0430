/**
 * 2026-07-28 header values that are not plain ASCII travel as `=?base64?<b64>?=`; this reads both.
 */

declare function atob(data: string): string;

export function decodeHeaderValue(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const m = /^=\?base64\?(.*)\?=$/.exec(value);
  if (!m) return value;
  try {
    const binary = atob(m[1]!);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return value; // not decodable: compare it as sent, which will be reported as a mismatch
  }
}
