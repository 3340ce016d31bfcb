/**
 * Character counting, the one home for it: VARCHAR(n) limits, char_length(), casts and Stream Load all
 * count characters (Unicode code points) the same way, over UTF-8 bytes or over JS strings.
 */

/** Characters (code points) in a UTF-8 byte range: every byte that is not a continuation byte. */
export function utf8CharCount(bytes: Uint8Array, start: number, end: number): number {
  let count = 0;
  for (let byteIdx = start; byteIdx < end; byteIdx++) count += (bytes[byteIdx] & 0xc0) !== 0x80 ? 1 : 0;
  return count;
}

/**
 * Characters (code points) of a JS string, counted without building an array: every UTF-16 unit except
 * the low half of a surrogate pair (a lone surrogate counts as one character, as Array.from counts it).
 */
export function jsCharCount(text: string): number {
  let count = 0;
  for (let unitIdx = 0; unitIdx < text.length; unitIdx++) {
    const code = text.charCodeAt(unitIdx);
    count++;
    if (code >= 0xd800 && code <= 0xdbff && unitIdx + 1 < text.length) {
      const next = text.charCodeAt(unitIdx + 1);
      if (next >= 0xdc00 && next <= 0xdfff) unitIdx++;
    }
  }
  return count;
}

/** Byte-wise comparison of two JS strings' UTF-8 forms without encoding (code-point order equals UTF-8 order). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const len = Math.min(a.length, b.length);
  for (let charIdx = 0; charIdx < len; charIdx++) {
    const ca = a.codePointAt(charIdx)!;
    const cb = b.codePointAt(charIdx)!;
    if (ca !== cb) return ca - cb;
    if (ca > 0xffff) charIdx++;
  }
  return a.length - b.length;
}
