/**
 * compress_type decoders on their own: files made by the gzip, bzip2, lz4 and zstd tools (lz4 with
 * linked 64 KB blocks too), fed in chunks of random sizes that are views of one shared buffer — as
 * socket chunks are — must decode to the original bytes; a cut-off body fails naming the format.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as zlib from 'node:zlib';
import { test } from 'node:test';
import { CompressType, decompressBody } from '../../src/load/source/decompress';

const original = Buffer.from(Array.from({ length: 60_000 }, (_v, idx) => `${idx},name-${idx % 977},${(idx * 7919) % 10007}`).join('\n') + '\n');
const tool = (command: string, args: string[]): Buffer => execFileSync(command, args, { input: original, maxBuffer: 64 << 20 });
const md5 = (bytes: Buffer): string => crypto.createHash('md5').update(bytes).digest('hex');

/** `bytes` as chunks of random sizes, every one a view of the same buffer, with pauses now and then. */
async function* chunked(bytes: Buffer, seed: number): AsyncGenerator<Buffer> {
  let state = seed;
  const random = (): number => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const shared = Buffer.from(bytes);
  for (let pos = 0; pos < shared.length; ) {
    const length = 1 + Math.floor(random() * 40_000);
    yield shared.subarray(pos, pos + length);
    pos += length;
    if (random() < 0.1) await new Promise((resolve) => setImmediate(resolve));
  }
}

async function decode(bytes: Buffer, type: CompressType, seed: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of decompressBody(chunked(bytes, seed), type)) parts.push(Buffer.from(part));
  return Buffer.concat(parts);
}

const bodies: [CompressType, string, Buffer][] = [
  ['gz', 'gzip -c', tool('gzip', ['-c'])],
  ['deflate', 'zlib', zlib.deflateSync(original)],
  ['bz2', 'bzip2 -c', tool('bzip2', ['-c'])],
  ['lz4', 'lz4 -c', tool('lz4', ['-c'])],
  ['lz4', 'lz4 -c -B4 -BD', tool('lz4', ['-c', '-B4', '-BD'])],
  ['zstd', 'zstd -c', tool('zstd', ['-c', '-q'])],
];

for (const [type, made, body] of bodies) {
  test(`compress_type ${type} (${made}): chunks of any size decode to the original; a cut-off body fails`, async () => {
    for (const seed of [1, 2, 3]) assert.equal(md5(await decode(body, type, seed)), md5(original), `seed ${seed}`);
    await assert.rejects(decode(body.subarray(0, body.length - 7), type, 4), new RegExp(`^GaleneError: \\[DATA_QUALITY_ERROR\\]the body is not valid ${type} data`));
  });
}
