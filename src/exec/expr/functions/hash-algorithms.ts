/**
 * The non-cryptographic hashes Doris exposes as SQL functions, over a byte range: MurmurHash3 x86_32,
 * x64_128 (its first half, murmur_hash3_64_v2) and Doris's own x64_64 variant (murmur_hash3_64:
 * be/src/util/murmur_hash3.cpp), XXH32 and XXH64. 32-bit arithmetic uses Math.imul; 64-bit uses
 * BigInt.asUintN (a few hundred ns a row: these are row functions, not scan kernels).
 */

const rotl32 = (x: number, r: number): number => (x << r) | (x >>> (32 - r));

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const readU32 = (b: Uint8Array, at: number): number => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

/** MurmurHash3_x86_32 of bytes[start, end) with a 32-bit seed; unsigned. */
export function murmur3x86_32(bytes: Uint8Array, start: number, end: number, seed: number): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  const len = end - start;
  let h = seed >>> 0;
  const blockEnd = start + (len & ~3);
  for (let at = start; at < blockEnd; at += 4) {
    let k = Math.imul(readU32(bytes, at), c1);
    k = Math.imul(rotl32(k, 15), c2);
    h = rotl32(h ^ k, 13);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const rem = len & 3;
  if (rem !== 0) {
    let k = 0;
    for (let idx = rem - 1; idx >= 0; idx--) k = (k << 8) | bytes[blockEnd + idx];
    h ^= Math.imul(rotl32(Math.imul(k, c1), 15), c2);
  }
  return fmix32(h ^ len);
}

const M64 = (1n << 64n) - 1n;
const u64 = (x: bigint): bigint => x & M64;
const rotl64 = (x: bigint, r: bigint): bigint => u64((x << r) | (x >> (64n - r)));

function fmix64(k: bigint): bigint {
  k ^= k >> 33n;
  k = u64(k * 0xff51afd7ed558ccdn);
  k ^= k >> 33n;
  k = u64(k * 0xc4ceb9fe1a85ec53n);
  return k ^ (k >> 33n);
}

function readU64(b: Uint8Array, at: number): bigint {
  return BigInt(readU32(b, at)) | (BigInt(readU32(b, at + 4)) << 32n);
}

/** The little-endian integer of the 1..7 tail bytes at `at`. */
function tail64(b: Uint8Array, at: number, count: number): bigint {
  let k = 0n;
  for (let idx = count - 1; idx >= 0; idx--) k = (k << 8n) | BigInt(b[at + idx]);
  return k;
}

const MC1 = 0x87c37b91114253d5n;
const MC2 = 0x4cf5ad432745937fn;

/** Doris's murmur_hash3_x64_64: the x64 mixing of one 64-bit lane; unsigned 64 bits. */
export function murmur3x64_64(bytes: Uint8Array, start: number, end: number, seed: bigint): bigint {
  const len = end - start;
  let h1 = u64(seed);
  const blockEnd = start + (len & ~7);
  for (let at = start; at < blockEnd; at += 8) {
    const k1 = u64(rotl64(u64(readU64(bytes, at) * MC1), 31n) * MC2);
    h1 = u64(rotl64(h1 ^ k1, 27n) * 5n + 0x52dce729n);
  }
  if ((len & 7) !== 0) h1 ^= u64(rotl64(u64(tail64(bytes, blockEnd, len & 7) * MC1), 31n) * MC2);
  return fmix64(h1 ^ BigInt(len));
}

/** The first 64 bits of MurmurHash3_x64_128 (h1 = h2 = seed); unsigned. */
export function murmur3x64_128First(bytes: Uint8Array, start: number, end: number, seed: bigint): bigint {
  const len = end - start;
  let h1 = u64(seed);
  let h2 = u64(seed);
  const blockEnd = start + (len & ~15);
  for (let at = start; at < blockEnd; at += 16) {
    const k1 = u64(rotl64(u64(readU64(bytes, at) * MC1), 31n) * MC2);
    h1 = u64(rotl64(h1 ^ k1, 27n) + h2);
    h1 = u64(h1 * 5n + 0x52dce729n);
    const k2 = u64(rotl64(u64(readU64(bytes, at + 8) * MC2), 33n) * MC1);
    h2 = u64(rotl64(h2 ^ k2, 31n) + h1);
    h2 = u64(h2 * 5n + 0x38495ab5n);
  }
  const rem = len & 15;
  if (rem > 8) h2 ^= u64(rotl64(u64(tail64(bytes, blockEnd + 8, rem - 8) * MC2), 33n) * MC1);
  if (rem > 0) h1 ^= u64(rotl64(u64(tail64(bytes, blockEnd, Math.min(rem, 8)) * MC1), 31n) * MC2);
  h1 ^= BigInt(len);
  h2 ^= BigInt(len);
  h1 = u64(h1 + h2);
  h2 = u64(h2 + h1);
  h1 = fmix64(h1);
  h2 = fmix64(h2);
  return u64(h1 + h2);
}

const P32_1 = 0x9e3779b1;
const P32_2 = 0x85ebca77;
const P32_3 = 0xc2b2ae3d;
const P32_4 = 0x27d4eb2f;
const P32_5 = 0x165667b1;

const round32 = (acc: number, lane: number): number => Math.imul(rotl32((acc + Math.imul(lane, P32_2)) | 0, 13), P32_1);

/** XXH32 of bytes[start, end) with a 32-bit seed; unsigned. */
export function xxhash32(bytes: Uint8Array, start: number, end: number, seed: number): number {
  const len = end - start;
  let at = start;
  let h: number;
  if (len >= 16) {
    let v1 = (seed + P32_1 + P32_2) | 0;
    let v2 = (seed + P32_2) | 0;
    let v3 = seed | 0;
    let v4 = (seed - P32_1) | 0;
    const limit = end - 16;
    while (at <= limit) {
      v1 = round32(v1, readU32(bytes, at));
      v2 = round32(v2, readU32(bytes, at + 4));
      v3 = round32(v3, readU32(bytes, at + 8));
      v4 = round32(v4, readU32(bytes, at + 12));
      at += 16;
    }
    h = (rotl32(v1, 1) + rotl32(v2, 7) + rotl32(v3, 12) + rotl32(v4, 18)) | 0;
  } else {
    h = (seed + P32_5) | 0;
  }
  h = (h + len) | 0;
  for (; at + 4 <= end; at += 4) h = Math.imul(rotl32((h + Math.imul(readU32(bytes, at), P32_3)) | 0, 17), P32_4);
  for (; at < end; at++) h = Math.imul(rotl32((h + Math.imul(bytes[at], P32_5)) | 0, 11), P32_1);
  h ^= h >>> 15;
  h = Math.imul(h, P32_2);
  h ^= h >>> 13;
  h = Math.imul(h, P32_3);
  return (h ^ (h >>> 16)) >>> 0;
}

const P64_1 = 0x9e3779b185ebca87n;
const P64_2 = 0xc2b2ae3d27d4eb4fn;
const P64_3 = 0x165667b19e3779f9n;
const P64_4 = 0x85ebca77c2b2ae63n;
const P64_5 = 0x27d4eb2f165667c5n;

const round64 = (acc: bigint, lane: bigint): bigint => u64(rotl64(u64(acc + lane * P64_2), 31n) * P64_1);
const merge64 = (acc: bigint, val: bigint): bigint => u64((acc ^ round64(0n, val)) * P64_1 + P64_4);

/** XXH64 of bytes[start, end) with a 64-bit seed; unsigned. */
export function xxhash64(bytes: Uint8Array, start: number, end: number, seed: bigint): bigint {
  const len = end - start;
  let at = start;
  let h: bigint;
  const s = u64(seed);
  if (len >= 32) {
    let v1 = u64(s + P64_1 + P64_2);
    let v2 = u64(s + P64_2);
    let v3 = s;
    let v4 = u64(s - P64_1);
    const limit = end - 32;
    while (at <= limit) {
      v1 = round64(v1, readU64(bytes, at));
      v2 = round64(v2, readU64(bytes, at + 8));
      v3 = round64(v3, readU64(bytes, at + 16));
      v4 = round64(v4, readU64(bytes, at + 24));
      at += 32;
    }
    h = u64(rotl64(v1, 1n) + rotl64(v2, 7n) + rotl64(v3, 12n) + rotl64(v4, 18n));
    h = merge64(merge64(merge64(merge64(h, v1), v2), v3), v4);
  } else {
    h = u64(s + P64_5);
  }
  h = u64(h + BigInt(len));
  for (; at + 8 <= end; at += 8) h = u64(rotl64(h ^ round64(0n, readU64(bytes, at)), 27n) * P64_1 + P64_4);
  if (at + 4 <= end) {
    h = u64(rotl64(h ^ u64(BigInt(readU32(bytes, at)) * P64_1), 23n) * P64_2 + P64_3);
    at += 4;
  }
  for (; at < end; at++) h = u64(rotl64(h ^ u64(BigInt(bytes[at]) * P64_5), 11n) * P64_1);
  h ^= h >> 33n;
  h = u64(h * P64_2);
  h ^= h >> 29n;
  h = u64(h * P64_3);
  return h ^ (h >> 32n);
}
