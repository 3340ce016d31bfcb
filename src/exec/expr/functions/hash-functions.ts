/**
 * Doris's hash and crypto functions over the UTF-8 bytes of their arguments: murmur_hash3_32 / _64 /
 * _64_v2 / _u64_v2, xxhash_32, xxhash_64 (several arguments chain: each hash seeds the next), md5sum, sm3, sm3sum,
 * aes_encrypt / aes_decrypt and sm4_encrypt / sm4_decrypt (node:crypto's OpenSSL). Encryption results
 * are raw bytes, as in Doris: wrap them in to_base64 / hex to print them.
 */
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import type { Vector } from '../../../common/column';
import { galeneError } from '../../../common/errors';
import { Types, type DataType } from '../../../common/types';
import type { CallSite, FunctionDef, Kernel } from '../function-registry';
import { byteSource, type ByteSource } from '../kernels';
import { arg, opt, rest } from '../signature';
import { str } from './text-functions';
import { fixedVector, orNulls, StringOut } from '../vector-ops';
import { murmur3x64_128First, murmur3x64_64, murmur3x86_32, xxh3_64, xxhash32 } from './hash-algorithms';

/** Doris's seed of murmur_hash3_32 (HashUtil::MURMUR3_32_SEED). */
const MURMUR3_32_SEED = 104729;

/** A 32-bit hash of every row, the arguments chained left to right from `seed`. */
function hash32Rows(args: readonly Vector[], rowCount: number, seed: number, hash: (b: Uint8Array, s: number, e: number, seed: number) => number): Vector {
  const sources = args.map(byteSource);
  const out = new Int32Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    let h = seed;
    for (const src of sources) h = hash(src.bytes, src.starts[rowIdx], src.ends[rowIdx], h);
    out[rowIdx] = h | 0;
  }
  return fixedVector(Types.INT, out);
}

/** A 64-bit hash of every row, chained as hash32Rows; unsigned results become BIGINT or LARGEINT. */
function hash64Rows(args: readonly Vector[], rowCount: number, type: DataType, hash: (b: Uint8Array, s: number, e: number, seed: bigint) => bigint): Vector {
  const sources = args.map(byteSource);
  const hashes: bigint[] = new Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    let h = 0n;
    for (const src of sources) h = hash(src.bytes, src.starts[rowIdx], src.ends[rowIdx], h);
    hashes[rowIdx] = h;
  }
  if (type.name === 'LARGEINT') return { kind: 'object', type, length: rowCount, values: hashes, nulls: null } as Vector;
  const out = new BigInt64Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = BigInt.asIntN(64, hashes[rowIdx]);
  return fixedVector(Types.BIGINT, out);
}

/** The hex digest of the arguments' bytes one after another. */
function digestRows(algorithm: string, args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const sources = args.map(byteSource);
  const out = new StringOut(site.returnType, rowCount, rowCount * 64);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const hash = createHash(algorithm);
    for (const src of sources) hash.update(src.bytes.subarray(src.starts[rowIdx], src.ends[rowIdx]));
    out.push(hash.digest('hex'));
  }
  return out.finish();
}

const rangeOf = (src: ByteSource, rowIdx: number): Uint8Array => src.bytes.subarray(src.starts[rowIdx], src.ends[rowIdx]);

/** The OpenSSL cipher of a Doris mode name ('AES_128_ECB', 'SM4_128_CBC'...), with its key length. */
function cipherOf(family: 'AES' | 'SM4', mode: string): { name: string; keyBytes: number; needsIv: boolean } {
  const match = /^(AES|SM4)_(128|192|256)_(ECB|CBC|CFB|CFB1|CFB8|CFB128|CTR|OFB|GCM)$/i.exec(mode.trim());
  if (match === null || match[1].toUpperCase() !== family || (family === 'SM4' && match[2] !== '128') || match[3].toUpperCase() === 'GCM') {
    throw galeneError('INVALID_ARGUMENT', `session variable block_encryption_mode is invalid: ${mode}`);
  }
  const bits = Number(match[2]);
  const op = match[3].toLowerCase();
  const name = family === 'SM4' ? `sm4-${op === 'cfb128' ? 'cfb' : op}` : `aes-${bits}-${op === 'cfb128' ? 'cfb' : op}`;
  return { name, keyBytes: bits / 8, needsIv: op !== 'ecb' };
}

/** MySQL's key folding: the key's bytes XORed, cyclically, into a zeroed key of the cipher's size. */
function foldKey(key: Uint8Array, size: number): Buffer {
  const out = Buffer.alloc(size);
  for (let byteIdx = 0; byteIdx < key.length; byteIdx++) out[byteIdx % size] ^= key[byteIdx];
  return out;
}

/** The 16-byte IV: the given bytes, cut or zero-padded (ECB ignores it). */
function ivOf(iv: Uint8Array | null): Buffer {
  const out = Buffer.alloc(16);
  if (iv !== null) out.set(iv.subarray(0, 16));
  return out;
}

/** aes/sm4 encrypt or decrypt per row: (str, key[, iv[, mode]]); a bad ciphertext gives NULL. */
function cryptRows(family: 'AES' | 'SM4', decrypt: boolean, args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const sources = args.map(byteSource);
  const [text, key] = sources;
  const iv = sources[2];
  const modes = sources[3];
  const out = new StringOut(site.returnType, rowCount);
  const decoder = new TextDecoder();
  const nulls = orNulls(args.map((vec) => vec.nulls), rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    if (nulls !== null && nulls[rowIdx] === 1) {
      out.pushNull();
      continue;
    }
    const mode = modes === undefined ? `${family}_128_ECB` : decoder.decode(rangeOf(modes, rowIdx));
    const cipher = cipherOf(family, mode);
    const keyBytes = foldKey(rangeOf(key, rowIdx), cipher.keyBytes);
    const ivBytes = cipher.needsIv ? ivOf(iv === undefined ? null : rangeOf(iv, rowIdx)) : null;
    try {
      const engine = decrypt ? createDecipheriv(cipher.name, keyBytes, ivBytes) : createCipheriv(cipher.name, keyBytes, ivBytes);
      const result = Buffer.concat([engine.update(rangeOf(text, rowIdx)), engine.final()]);
      out.pushBytes(result, 0, result.length);
    } catch {
      out.pushNull();
    }
  }
  return out.finish();
}

function cryptFunction(family: 'AES' | 'SM4', decrypt: boolean, example: string): FunctionDef {
  const name = `${family.toLowerCase()}_${decrypt ? 'decrypt' : 'encrypt'}`;
  return str({
    name,
    args: [arg('str', 'STRING'), arg('key', 'STRING'), opt('iv', 'STRING'), opt('mode', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => cryptRows(family, decrypt, args, rowCount, site),
    description: decrypt
      ? `Decrypts bytes that ${family.toLowerCase()}_encrypt made with the same key, IV and mode; NULL when they do not decrypt.`
      : `${family} encryption with PKCS7 padding (mode default ${family}_128_ECB; the key folded into the cipher's size as MySQL does, the IV cut or zero-padded to 16 bytes); the result is raw bytes.`,
    example,
  });
}

/** A hash of one or more strings (str, ...). */
function chainedHash(name: string, returns: DataType, kernel: Kernel, description: string, example: string): FunctionDef {
  return str({ name, args: [rest('str', 'STRING')], returns, kernel, description, example });
}

/** A hex digest of one string, or of several one after another. */
function digestFunction(name: string, algorithm: 'md5' | 'sm3', variadic: boolean, description: string, example: string): FunctionDef {
  return str({
    name,
    args: [variadic ? rest('str', 'STRING') : arg('str', 'STRING')],
    returns: Types.varchar(algorithm === 'md5' ? 32 : 64),
    kernel: (args, rowCount, site) => digestRows(algorithm, args, rowCount, site),
    description,
    example,
  });
}

export const HASH_FUNCTIONS: readonly FunctionDef[] = [
  chainedHash('murmur_hash3_32', Types.INT, (args, rowCount) => hash32Rows(args, rowCount, MURMUR3_32_SEED, murmur3x86_32), "MurmurHash3 x86_32 of the bytes (Doris's seed 104729); each further argument is hashed with the previous hash as seed.", "SELECT murmur_hash3_32('hello'), murmur_hash3_32('hello', 'world')"),
  chainedHash('murmur_hash3_64', Types.BIGINT, (args, rowCount) => hash64Rows(args, rowCount, Types.BIGINT, murmur3x64_64), "Doris's 64-bit MurmurHash3 (murmur_hash3_x64_64, seed 0); further arguments chain as in murmur_hash3_32.", "SELECT murmur_hash3_64('hello'), murmur_hash3_64('hello', 'world')"),
  chainedHash('murmur_hash3_64_v2', Types.BIGINT, (args, rowCount) => hash64Rows(args, rowCount, Types.BIGINT, murmur3x64_128First), 'The first 64 bits of MurmurHash3 x64_128 (seed 0), the value other engines give; further arguments chain.', "SELECT murmur_hash3_64_v2('hello')"),
  chainedHash('murmur_hash3_u64_v2', Types.LARGEINT, (args, rowCount) => hash64Rows(args, rowCount, Types.LARGEINT, murmur3x64_128First), 'murmur_hash3_64_v2 read as an unsigned 64-bit number (LARGEINT).', "SELECT murmur_hash3_u64_v2('hello')"),
  chainedHash('xxhash_32', Types.INT, (args, rowCount) => hash32Rows(args, rowCount, 0, xxhash32), 'XXH32 of the bytes (seed 0); each further argument is hashed with the previous hash as seed.', "SELECT xxhash_32('hello'), xxhash_32('hello', 'world')"),
  chainedHash('xxhash_64', Types.BIGINT, (args, rowCount) => hash64Rows(args, rowCount, Types.BIGINT, xxh3_64), 'XXH3-64 of the bytes (seed 0), the hash Doris computes; each further argument is hashed with the previous hash as seed.', "SELECT xxhash_64('hello'), xxhash_64('hello', 'world')"),
  digestFunction('md5sum', 'md5', true, 'MD5 of the arguments one after another, as 32 hex digits.', "SELECT md5sum('ab', 'cd')"),
  digestFunction('sm3', 'sm3', false, 'The SM3 digest of the bytes, as 64 hex digits.', "SELECT sm3('abc')"),
  digestFunction('sm3sum', 'sm3', true, 'SM3 of the arguments one after another, as 64 hex digits.', "SELECT sm3sum('a', 'bc')"),
  cryptFunction('AES', false, "SELECT to_base64(aes_encrypt('text', 'F3229A0B371ED2D9441B830D21A390C3'))"),
  cryptFunction('AES', true, "SELECT aes_decrypt(from_base64('wr2JEDVXzL9+2XtRhgIloA=='), 'F3229A0B371ED2D9441B830D21A390C3')"),
  cryptFunction('SM4', false, "SELECT to_base64(sm4_encrypt('text', 'F3229A0B371ED2D9441B830D21A390C3'))"),
  cryptFunction('SM4', true, "SELECT sm4_decrypt(sm4_encrypt('text', 'key'), 'key')"),
];
