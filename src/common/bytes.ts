/**
 * Byte-range comparison, the one home for it: strings compare as UTF-8 bytes (Doris's default binary
 * collation) in sorts, merges, zone maps, delete bitmaps and the comparison kernels.
 */

/** Compare two byte ranges: negative, zero or positive (a proper prefix sorts first). */
export function compareBytes(aBytes: Uint8Array, aStart: number, aEnd: number, bBytes: Uint8Array, bStart: number, bEnd: number): number {
  const aLen = aEnd - aStart;
  const bLen = bEnd - bStart;
  const common = aLen < bLen ? aLen : bLen;
  for (let byteIdx = 0; byteIdx < common; byteIdx++) {
    const diff = aBytes[aStart + byteIdx] - bBytes[bStart + byteIdx];
    if (diff !== 0) return diff;
  }
  return aLen - bLen;
}

/** compareBytes over two whole arrays. */
export function compareByteArrays(a: Uint8Array, b: Uint8Array): number {
  return compareBytes(a, 0, a.length, b, 0, b.length);
}
