/**
 * Bit packing of unsigned 32-bit lanes: `count` values of `width` bits (0..32) packed LSB-first into
 * 32-bit little-endian words. The building block of frame-of-reference, dictionary codes and null maps.
 * Loops work on whole typed arrays; width 0 means "all zero" and takes no space.
 */

/** Words needed for `count` values of `width` bits. */
export function packedWords(count: number, width: number): number {
  return Math.ceil((count * width) / 32);
}

/** Bits needed to hold `maxValue` (0 -> 0). `maxValue` must be below 2^32. */
export function bitWidth(maxValue: number): number {
  return maxValue <= 0 ? 0 : 32 - Math.clz32(maxValue);
}

/** Pack `values[0, count)` (each below 2^width) into a new word array. */
export function packBits(values: ArrayLike<number>, count: number, width: number): Uint32Array {
  const out = new Uint32Array(packedWords(count, width));
  if (width === 0) return out;
  if (width === 32) {
    for (let valueIdx = 0; valueIdx < count; valueIdx++) out[valueIdx] = values[valueIdx];
    return out;
  }
  let bitPos = 0;
  for (let valueIdx = 0; valueIdx < count; valueIdx++) {
    const value = values[valueIdx];
    const wordIdx = bitPos >>> 5;
    const shift = bitPos & 31;
    out[wordIdx] |= value << shift;
    if (shift + width > 32) out[wordIdx + 1] |= value >>> (32 - shift);
    bitPos += width;
  }
  return out;
}

/** Unpack `count` values of `width` bits from `words` into `out` (a Uint32Array of at least count). */
export function unpackBits(words: Uint32Array, count: number, width: number, out: Uint32Array): Uint32Array {
  if (width === 0) {
    out.fill(0, 0, count);
    return out;
  }
  if (width === 32) {
    out.set(words.subarray(0, count));
    return out;
  }
  if (width === 8 || width === 16) {
    // Byte-aligned widths: read through a narrower view, no shifting.
    const narrow = width === 8 ? new Uint8Array(words.buffer, words.byteOffset, count) : new Uint16Array(words.buffer, words.byteOffset, count);
    for (let valueIdx = 0; valueIdx < count; valueIdx++) out[valueIdx] = narrow[valueIdx];
    return out;
  }
  const mask = (1 << width) - 1;
  let bitPos = 0;
  for (let valueIdx = 0; valueIdx < count; valueIdx++) {
    const wordIdx = bitPos >>> 5;
    const shift = bitPos & 31;
    let value = words[wordIdx] >>> shift;
    if (shift + width > 32) value |= words[wordIdx + 1] << (32 - shift);
    out[valueIdx] = value & mask;
    bitPos += width;
  }
  return out;
}
