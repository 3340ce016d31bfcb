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

/**
 * Sort `rows` (indexes of byte strings bytes[offsets[row], offsets[row + 1])) in place by those bytes, as
 * compareBytes orders them: a multikey quicksort (Bentley & Sedgewick), which reads each byte of a shared
 * prefix once per partition level instead of once per comparison, so long common prefixes cost little.
 */
export function sortByteRanges(rows: Int32Array, offsets: Int32Array, bytes: Uint8Array): void {
  const byteAt = (row: number, depth: number): number => {
    const pos = offsets[row] + depth;
    return pos < offsets[row + 1] ? bytes[pos] : -1;
  };
  /** Pending ranges as (lo, hi exclusive, depth) triples; every row in a range shares its first `depth` bytes. */
  const stack: number[] = [0, rows.length, 0];
  while (stack.length > 0) {
    const depth = stack.pop()!;
    const hi = stack.pop()!;
    const lo = stack.pop()!;
    if (hi - lo < 12) {
      for (let idx = lo + 1; idx < hi; idx++) {
        const row = rows[idx];
        let to = idx;
        while (to > lo && compareBytes(bytes, offsets[rows[to - 1]] + depth, offsets[rows[to - 1] + 1], bytes, offsets[row] + depth, offsets[row + 1]) > 0) {
          rows[to] = rows[to - 1];
          to--;
        }
        rows[to] = row;
      }
      continue;
    }
    // Pivot: the median of the first, middle and last rows' byte at this depth.
    const first = byteAt(rows[lo], depth);
    const middle = byteAt(rows[(lo + hi) >>> 1], depth);
    const last = byteAt(rows[hi - 1], depth);
    const pivot = first < middle ? (middle < last ? middle : first < last ? last : first) : first < last ? first : middle < last ? last : middle;
    let less = lo;
    let greater = hi - 1;
    let idx = lo;
    while (idx <= greater) {
      const row = rows[idx];
      const value = byteAt(row, depth);
      if (value < pivot) {
        rows[idx++] = rows[less];
        rows[less++] = row;
      } else if (value > pivot) {
        rows[idx] = rows[greater];
        rows[greater--] = row;
      } else {
        idx++;
      }
    }
    stack.push(lo, less, depth, greater + 1, hi, depth);
    // Rows equal at this depth continue on the next byte, unless they all ended here (equal strings).
    if (pivot >= 0) stack.push(less, greater + 1, depth + 1);
  }
}
