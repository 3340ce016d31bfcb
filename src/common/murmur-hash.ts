/**
 * The MurmurHash variants Doris uses for its sketch functions, bit for bit, so a value hashes to the
 * number Doris stores: bitmap_hash (MurmurHash3 x86_32, seed 104729), bitmap_hash64 (Doris's 64-bit
 * MurmurHash3 over 8-byte blocks, seed 0) and hll_hash (MurmurHash64A, seed 0xadc83b19). Checked against
 * Doris's documented results (bitmap_hash('hello') = 1321743225, bitmap_hash64('hello') =
 * 15231136565543391023, hll_to_base64(hll_hash('abc')) = 'AQEC5XSzrpDsdw==').
 */
import { mix32 } from './bucket-hash';

const MASK64 = (1n << 64n) - 1n;

/** Doris's HashUtil::MURMUR3_32_SEED. */
export const MURMUR3_32_SEED = 104729;
/** Doris's HashUtil::MURMUR_SEED (hll_hash). */
export const MURMUR64A_SEED = 0xadc83b19n;

/** MurmurHash3 x86_32 of bytes[start, end), as an unsigned 32-bit number. */
export function murmur3x86_32(bytes: Uint8Array, start: number, end: number, seed: number): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  const length = end - start;
  const blockEnd = start + (length & ~3);
  let h = seed | 0;
  for (let pos = start; pos < blockEnd; pos += 4) {
    let k = bytes[pos] | (bytes[pos + 1] << 8) | (bytes[pos + 2] << 16) | (bytes[pos + 3] << 24);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const rest = length & 3;
  if (rest > 0) {
    let k = bytes[blockEnd];
    if (rest > 1) k ^= bytes[blockEnd + 1] << 8;
    if (rest > 2) k ^= bytes[blockEnd + 2] << 16;
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
  }
  return mix32(h ^ length);
}

function rotl64(x: bigint, r: bigint): bigint {
  return ((x << r) | (x >> (64n - r))) & MASK64;
}

function fmix64(k: bigint): bigint {
  k ^= k >> 33n;
  k = (k * 0xff51afd7ed558ccdn) & MASK64;
  k ^= k >> 33n;
  k = (k * 0xc4ceb9fe1a85ec53n) & MASK64;
  return k ^ (k >> 33n);
}

/** Little-endian 64-bit word at pos (pos + 8 <= bytes.length). */
function word64(bytes: Uint8Array, pos: number): bigint {
  const low = (bytes[pos] | (bytes[pos + 1] << 8) | (bytes[pos + 2] << 16) | (bytes[pos + 3] << 24)) >>> 0;
  const high = (bytes[pos + 4] | (bytes[pos + 5] << 8) | (bytes[pos + 6] << 16) | (bytes[pos + 7] << 24)) >>> 0;
  return (BigInt(high) << 32n) | BigInt(low);
}

/** The tail (fewer than 8 bytes) as a little-endian word. */
function tail64(bytes: Uint8Array, from: number, count: number): bigint {
  let k = 0n;
  for (let byteIdx = count - 1; byteIdx >= 0; byteIdx--) k = (k << 8n) | BigInt(bytes[from + byteIdx]);
  return k;
}

/** Doris's murmur_hash3_x64_64: MurmurHash3's x64 mixing over 8-byte blocks, one 64-bit lane. */
export function murmur3x64_64(bytes: Uint8Array, start: number, end: number, seed: bigint): bigint {
  const c1 = 0x87c37b91114253d5n;
  const c2 = 0x4cf5ad432745937fn;
  const length = end - start;
  const blockEnd = start + (length & ~7);
  let h = seed & MASK64;
  for (let pos = start; pos < blockEnd; pos += 8) {
    let k = (word64(bytes, pos) * c1) & MASK64;
    k = (rotl64(k, 31n) * c2) & MASK64;
    h ^= k;
    h = (rotl64(h, 27n) * 5n + 0x52dce729n) & MASK64;
  }
  if ((length & 7) !== 0) {
    let k = (tail64(bytes, blockEnd, length & 7) * c1) & MASK64;
    k = (rotl64(k, 31n) * c2) & MASK64;
    h ^= k;
  }
  return fmix64(h ^ BigInt(length));
}

/** MurmurHash64A (Austin Appleby), as Doris's HashUtil::murmur_hash64A. */
export function murmur64A(bytes: Uint8Array, start: number, end: number, seed: bigint): bigint {
  const m = 0xc6a4a7935bd1e995n;
  const length = end - start;
  const blockEnd = start + (length & ~7);
  let h = (seed ^ ((BigInt(length) * m) & MASK64)) & MASK64;
  for (let pos = start; pos < blockEnd; pos += 8) {
    let k = (word64(bytes, pos) * m) & MASK64;
    k ^= k >> 47n;
    k = (k * m) & MASK64;
    h ^= k;
    h = (h * m) & MASK64;
  }
  if ((length & 7) !== 0) {
    h ^= tail64(bytes, blockEnd, length & 7);
    h = (h * m) & MASK64;
  }
  h ^= h >> 47n;
  h = (h * m) & MASK64;
  return h ^ (h >> 47n);
}
