/**
 * UTF-8 lengths without encoding: sizes a user reads (an exchange's bytes, a frame's) are what went
 * over the wire, while JavaScript strings count UTF-16 code units. Runs on every captured frame,
 * so it allocates nothing (TextEncoder would copy the whole text to count it).
 */

/** Bytes of `text` in UTF-8, a lone surrogate as the encoders write it (U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      // A pair is 2 units and 4 bytes.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
