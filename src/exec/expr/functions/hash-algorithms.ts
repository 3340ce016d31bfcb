/**
 * The non-cryptographic hashes Doris exposes as SQL functions, over a byte range: MurmurHash3 x86_32,
 * x64_128 (its first half, murmur_hash3_64_v2) and Doris's own x64_64 variant (murmur_hash3_64:
 * be/src/util/murmur_hash3.cpp), XXH32 and XXH3-64 (Doris's xxhash_64 is XXH3_64bits_withSeed). 32-bit arithmetic uses Math.imul; 64-bit uses
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

/** XXH3's default 192-byte secret (xxhash.h's XXH3_kSecret). */
const XXH3_SECRET = Uint8Array.from([
  0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
  0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
  0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
  0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
  0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
  0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
  0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
  0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
  0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
  0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
  0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
  0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
]);

const PRIME_MX1 = 0x165667919e3779f9n;
const PRIME_MX2 = 0x9fb21c651e98df25n;
const P32_1N = 0x9e3779b1n;
const P32_2N = 0x85ebca77n;
const P32_3N = 0xc2b2ae3dn;

function mulFold64(a: bigint, b: bigint): bigint {
  const product = a * b;
  return (product & M64) ^ (product >> 64n);
}

function xxh3Avalanche(h: bigint): bigint {
  h ^= h >> 37n;
  h = u64(h * PRIME_MX1);
  return h ^ (h >> 32n);
}

function xxh64Avalanche(h: bigint): bigint {
  h ^= h >> 33n;
  h = u64(h * P64_2);
  h ^= h >> 29n;
  h = u64(h * P64_3);
  return h ^ (h >> 32n);
}

const swap32 = (x: bigint): bigint => ((x & 0xffn) << 24n) | ((x & 0xff00n) << 8n) | ((x >> 8n) & 0xff00n) | ((x >> 24n) & 0xffn);
function swap64(x: bigint): bigint {
  let out = 0n;
  for (let byteIdx = 0; byteIdx < 8; byteIdx++) out = (out << 8n) | ((x >> BigInt(byteIdx * 8)) & 0xffn);
  return out;
}

const mix16 = (b: Uint8Array, at: number, secret: Uint8Array, sAt: number, seed: bigint): bigint =>
  mulFold64(readU64(b, at) ^ u64(readU64(secret, sAt) + seed), readU64(b, at + 8) ^ u64(readU64(secret, sAt + 8) - seed));

/** XXH3's long-input path (> 240 bytes): 64-byte stripes into 8 accumulators, scrambled per block. */
function xxh3Long(b: Uint8Array, start: number, len: number, secret: Uint8Array): bigint {
  const acc = [P32_3N, P64_1, P64_2, P64_3, P64_4, P32_2N, P64_5, P32_1N];
  const stripe = (at: number, sAt: number): void => {
    for (let lane = 0; lane < 8; lane++) {
      const data = readU64(b, at + lane * 8);
      const key = data ^ readU64(secret, sAt + lane * 8);
      acc[lane ^ 1] = u64(acc[lane ^ 1] + data);
      acc[lane] = u64(acc[lane] + (key & 0xffffffffn) * (key >> 32n));
    }
  };
  const stripesPerBlock = (secret.length - 64) / 8;
  const blockLen = 64 * stripesPerBlock;
  const blocks = Math.floor((len - 1) / blockLen);
  for (let block = 0; block < blocks; block++) {
    for (let n = 0; n < stripesPerBlock; n++) stripe(start + block * blockLen + n * 64, n * 8);
    for (let lane = 0; lane < 8; lane++) {
      let value = acc[lane];
      value ^= value >> 47n;
      value ^= readU64(secret, secret.length - 64 + lane * 8);
      acc[lane] = u64(value * P32_1N);
    }
  }
  const lastStripes = Math.floor((len - 1 - blocks * blockLen) / 64);
  for (let n = 0; n < lastStripes; n++) stripe(start + blocks * blockLen + n * 64, n * 8);
  stripe(start + len - 64, secret.length - 64 - 7);
  let result = u64(BigInt(len) * P64_1);
  for (let pair = 0; pair < 4; pair++) result = u64(result + mulFold64(acc[pair * 2] ^ readU64(secret, 11 + pair * 16), acc[pair * 2 + 1] ^ readU64(secret, 11 + pair * 16 + 8)));
  return xxh3Avalanche(result);
}

/** XXH3_64bits_withSeed of bytes[start, end); unsigned. */
export function xxh3_64(b: Uint8Array, start: number, end: number, seed: bigint): bigint {
  const len = end - start;
  const s = u64(seed);
  const secret = XXH3_SECRET;
  if (len === 0) return xxh64Avalanche(s ^ (readU64(secret, 56) ^ readU64(secret, 64)));
  if (len <= 3) {
    const combined = (BigInt(b[start]) << 16n) | (BigInt(b[start + (len >> 1)]) << 24n) | BigInt(b[end - 1]) | (BigInt(len) << 8n);
    const bitflip = u64(BigInt((readU32(secret, 0) ^ readU32(secret, 4)) >>> 0) + s);
    return xxh64Avalanche(combined ^ bitflip);
  }
  if (len <= 8) {
    const seeded = s ^ (swap32(s & 0xffffffffn) << 32n);
    const input64 = BigInt(readU32(b, end - 4)) + (BigInt(readU32(b, start)) << 32n);
    let h = input64 ^ u64((readU64(secret, 8) ^ readU64(secret, 16)) - seeded);
    h ^= rotl64(h, 49n) ^ rotl64(h, 24n);
    h = u64(h * PRIME_MX2);
    h ^= (h >> 35n) + BigInt(len);
    h = u64(h * PRIME_MX2);
    return h ^ (h >> 28n);
  }
  if (len <= 16) {
    const lo = readU64(b, start) ^ u64((readU64(secret, 24) ^ readU64(secret, 32)) + s);
    const hi = readU64(b, end - 8) ^ u64((readU64(secret, 40) ^ readU64(secret, 48)) - s);
    return xxh3Avalanche(u64(BigInt(len) + swap64(lo) + hi + mulFold64(lo, hi)));
  }
  if (len <= 128) {
    let acc = u64(BigInt(len) * P64_1);
    const rounds = ((len - 1) >> 5) + 1;
    for (let round = rounds - 1; round >= 0; round--) {
      acc = u64(acc + mix16(b, start + round * 16, secret, round * 32, s));
      acc = u64(acc + mix16(b, end - (round + 1) * 16, secret, round * 32 + 16, s));
    }
    return xxh3Avalanche(acc);
  }
  if (len <= 240) {
    let acc = u64(BigInt(len) * P64_1);
    for (let round = 0; round < 8; round++) acc = u64(acc + mix16(b, start + round * 16, secret, round * 16, s));
    acc = xxh3Avalanche(acc);
    const rounds = Math.floor(len / 16);
    for (let round = 8; round < rounds; round++) acc = u64(acc + mix16(b, start + round * 16, secret, (round - 8) * 16 + 3, s));
    acc = u64(acc + mix16(b, end - 16, secret, 136 - 17, s));
    return xxh3Avalanche(acc);
  }
  if (s === 0n) return xxh3Long(b, start, len, secret);
  // A seeded long input hashes with a secret derived from the seed (XXH3_initCustomSecret).
  const custom = new Uint8Array(192);
  const view = new DataView(custom.buffer);
  for (let word = 0; word < 12; word++) {
    view.setBigUint64(word * 16, u64(readU64(secret, word * 16) + s), true);
    view.setBigUint64(word * 16 + 8, u64(readU64(secret, word * 16 + 8) - s), true);
  }
  return xxh3Long(b, start, len, custom);
}
