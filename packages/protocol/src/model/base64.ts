/** Base64 text to the UTF-8 string it encodes (header values, resource blobs). */

declare function atob(data: string): string;

/** Undefined when `b64` is not base64 or (with `fatal`) not valid UTF-8. */
export function decodeBase64Utf8(b64: string, fatal = false): string | undefined {
  try {
    const binary = atob(b64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new TextDecoder('utf-8', { fatal }).decode(bytes);
  } catch {
    return undefined;
  }
}
