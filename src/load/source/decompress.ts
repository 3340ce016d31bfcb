/**
 * Stream Load `compress_type`: the request body decompressed as a stream, before parsing, in Doris's
 * formats (BE util/load_util.cpp): `gz` (gzip, concatenated members too), `deflate` (a zlib stream, as
 * Doris's inflate with its default window bits), `bz2` (bzip2), `lz4` (Doris's LZ4FRAME: the LZ4 frame
 * format the `lz4` tool writes; lz4-frame.ts) and `zstd` (Zstandard frames). Input is fed in small
 * slices and output handed on as it is produced, so a body of any size (and any compression ratio)
 * decompresses in bounded memory; gz and deflate run in zlib's native threads, the pure-JavaScript
 * decoders (push-decoders.ts) in a worker thread per body, never on the event loop.
 * A body that does not decompress fails the load with `[DATA_QUALITY_ERROR]`, naming the format.
 */
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import * as zlib from 'node:zlib';
import { GaleneError } from '../../common/errors';
import type { DecompressReply } from './decompress-worker';
import type { PushDecoderType } from './push-decoders';

/** The compress_type values Galene decompresses (Doris's names, lower case); `plain` is none. */
export const COMPRESS_TYPES = ['plain', 'gz', 'deflate', 'bz2', 'lz4', 'zstd'] as const;
export type CompressType = (typeof COMPRESS_TYPES)[number];

/** Compressed bytes handed to a worker decoder at a time: bounds what one answer may expand to. */
const SLICE_BYTES = 64 * 1024;

const corrupt = (type: CompressType, err: unknown): GaleneError =>
  err instanceof GaleneError ? err : new GaleneError('LOAD_DATA_QUALITY', [`the body is not valid ${type} data (compress_type: ${type}): ${err instanceof Error ? err.message : String(err)}`]);

/**
 * A zlib stream's output, chunk by chunk; backpressure holds the body while the parser is behind, and an
 * error of either side ends the iteration with it.
 */
async function* throughStream(body: AsyncIterable<Buffer>, type: CompressType, decoder: NodeJS.ReadWriteStream): AsyncGenerator<Buffer> {
  const source = Readable.from(body, { objectMode: false });
  const out = new Readable().wrap(decoder);
  source.on('error', (err) => out.destroy(err));
  source.pipe(decoder);
  try {
    for await (const chunk of out) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
  } catch (err) {
    throw corrupt(type, err);
  } finally {
    source.destroy();
  }
}

/**
 * A pure-JavaScript decoder (bz2, lz4, zstd) run in a worker thread of its own for this body: slices go
 * to it one at a time and each answer is awaited, so one slice's output at most is in flight (bounded
 * memory, and the client is not read faster than the body is decoded).
 */
async function* inWorker(body: AsyncIterable<Buffer>, type: PushDecoderType): AsyncGenerator<Buffer> {
  const worker = new Worker(path.join(__dirname, 'decompress-worker.js'), { workerData: { type } });
  let waiting: { resolve: (pieces: Uint8Array[]) => void; reject: (err: Error) => void } | null = null;
  let failed: Error | null = null;
  const fail = (err: Error): void => {
    failed ??= err;
    waiting?.reject(err);
    waiting = null;
  };
  worker.on('message', (reply: DecompressReply) => {
    if (reply.error !== undefined) return fail(new Error(reply.error));
    const pending = waiting;
    waiting = null;
    pending?.resolve(reply.pieces ?? []);
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the decompression worker exited (${code})`)));
  const decode = (slice: Uint8Array | null): Promise<Uint8Array[]> =>
    new Promise((resolve, reject) => {
      if (failed !== null) return reject(failed);
      waiting = { resolve, reject };
      if (slice === null) worker.postMessage(null);
      else {
        // A copy the worker takes over (a Buffer's slice() is a view): the chunk may share its memory.
        const copy = new Uint8Array(slice);
        worker.postMessage(copy, [copy.buffer]);
      }
    });
  const buffers = function* (pieces: Uint8Array[]): Generator<Buffer> {
    for (const piece of pieces) if (piece.length > 0) yield Buffer.from(piece.buffer, piece.byteOffset, piece.length);
  };
  try {
    for await (const chunk of body) {
      for (let offset = 0; offset < chunk.length; offset += SLICE_BYTES) yield* buffers(await decode(chunk.subarray(offset, Math.min(chunk.length, offset + SLICE_BYTES))));
    }
    yield* buffers(await decode(null));
  } catch (err) {
    throw corrupt(type, err);
  } finally {
    void worker.terminate();
  }
}

/** The body as the parser reads it: decompressed by `type` (as it is for `plain`). */
export function decompressBody(body: AsyncIterable<Buffer>, type: CompressType): AsyncIterable<Buffer> {
  switch (type) {
    case 'plain':
      return body;
    case 'gz':
      return throughStream(body, type, zlib.createGunzip());
    case 'deflate':
      return throughStream(body, type, zlib.createInflate());
    case 'bz2':
    case 'lz4':
    case 'zstd':
      return inWorker(body, type);
  }
}
