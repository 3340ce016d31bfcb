/**
 * CRC32 (IEEE 802.3 polynomial, as zlib and PNG use) for segment pages, footers and cache checks.
 *
 * Every page and footer of a segment carries one so that a flipped bit on disk or in object storage
 * becomes a CORRUPTION error naming the file instead of a wrong answer. Node 20 has no `zlib.crc32`
 * (it arrives in 22), so this is a slicing-by-8 table-driven version: eight table lookups per 8 bytes,
 * about 1 GB/s here, far below the cost of decoding the page it guards.
 */

const TABLES: Uint32Array[] = (() => {
  const tables: Uint32Array[] = [];
  const base = new Uint32Array(256);
  for (let byteVal = 0; byteVal < 256; byteVal++) {
    let crc = byteVal;
    for (let bitIdx = 0; bitIdx < 8; bitIdx++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
    base[byteVal] = crc >>> 0;
  }
  tables.push(base);
  for (let tableIdx = 1; tableIdx < 8; tableIdx++) {
    const prev = tables[tableIdx - 1];
    const next = new Uint32Array(256);
    for (let byteVal = 0; byteVal < 256; byteVal++) next[byteVal] = (prev[byteVal] >>> 8) ^ base[prev[byteVal] & 0xff];
    tables.push(next);
  }
  return tables;
})();

const [T0, T1, T2, T3, T4, T5, T6, T7] = TABLES;

/**
 * CRC32 of `bytes[start, end)`, continuing from `seed` (the CRC of the bytes before, 0 to start).
 * Returns an unsigned 32-bit value.
 */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length, seed = 0): number {
  let crc = ~seed;
  let pos = start;
  const end8 = end - ((end - start) & 7);
  while (pos < end8) {
    const lo = crc ^ (bytes[pos] | (bytes[pos + 1] << 8) | (bytes[pos + 2] << 16) | (bytes[pos + 3] << 24));
    crc =
      T7[lo & 0xff] ^
      T6[(lo >>> 8) & 0xff] ^
      T5[(lo >>> 16) & 0xff] ^
      T4[lo >>> 24] ^
      T3[bytes[pos + 4]] ^
      T2[bytes[pos + 5]] ^
      T1[bytes[pos + 6]] ^
      T0[bytes[pos + 7]];
    pos += 8;
  }
  while (pos < end) crc = T0[(crc ^ bytes[pos++]) & 0xff] ^ (crc >>> 8);
  return ~crc >>> 0;
}
