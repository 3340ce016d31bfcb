/**
 * Stream Load `compress_type`: the request body decompressed as a stream, before parsing, in Doris's
 * formats (BE util/load_util.cpp): `gz` (gzip, concatenated members too), `deflate` (a zlib stream, as
 * Doris's inflate with its default window bits), `bz2` (bzip2), `lz4` (Doris's LZ4FRAME: the LZ4 frame
 * format the `lz4` tool writes; lz4-frame.ts) and `zstd` (Zstandard frames). Input is fed in small
 * slices and output handed on as it is produced, so a body of any size (and any compression ratio)
 * decompresses in bounded memory, taking turns with the rest of the event loop between slices.
 * A body that does not decompress fails the load with `[DATA_QUALITY_ERROR]`, naming the format.
 */
import { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { Decompress as ZstdDecompress } from 'fzstd';
import unbzip2Stream from 'unbzip2-stream';
import { GaleneError } from '../../common/errors';
import { Lz4FrameDecoder } from './lz4-frame';

/** The compress_type values Galene decompresses (Doris's names, lower case); `plain` is none. */
export const COMPRESS_TYPES = ['plain', 'gz', 'deflate', 'bz2', 'lz4', 'zstd'] as const;
export type CompressType = (typeof COMPRESS_TYPES)[number];

/** Compressed bytes pushed into a decoder at a time: bounds what one push may expand to. */
const SLICE_BYTES = 16 * 1024;

const corrupt = (type: CompressType, err: unknown): GaleneError =>
  err instanceof GaleneError ? err : new GaleneError('LOAD_DATA_QUALITY', [`the body is not valid ${type} data (compress_type: ${type}): ${err instanceof Error ? err.message : String(err)}`]);


/**
 * A stream decoder's output, chunk by chunk (zlib's streams, or the classic through stream of
 * unbzip2-stream, hence `wrap`); backpressure holds the body while the parser is behind, and an error of
 * either side ends the iteration with it.
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

/** A push decoder (write slices, collect output) driven over the body; `finish` flushes it at the end. */
async function* throughPush(body: AsyncIterable<Buffer>, type: CompressType, push: (slice: Uint8Array, final: boolean) => void, taken: () => Uint8Array[]): AsyncGenerator<Buffer> {
  const drain = function* (): Generator<Buffer> {
    for (const piece of taken()) if (piece.length > 0) yield Buffer.from(piece.buffer, piece.byteOffset, piece.length);
  };
  try {
    for await (const chunk of body) {
      for (let offset = 0; offset < chunk.length; offset += SLICE_BYTES) {
        push(chunk.subarray(offset, Math.min(chunk.length, offset + SLICE_BYTES)), false);
        yield* drain();
      }
    }
    push(new Uint8Array(0), true);
    yield* drain();
  } catch (err) {
    throw corrupt(type, err);
  }
}

function zstdBody(body: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let pieces: Uint8Array[] = [];
  // The piece outlives the next push: keep a copy.
  const decoder = new ZstdDecompress((data) => pieces.push(data.slice()));
  return throughPush(
    body,
    'zstd',
    // fzstd checks at the final push that the body did not end inside a frame.
    (slice, final) => decoder.push(slice, final),
    () => {
      const out = pieces;
      pieces = [];
      return out;
    },
  );
}

function lz4Body(body: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const decoder = new Lz4FrameDecoder();
  let pieces: Uint8Array[] = [];
  return throughPush(
    body,
    'lz4',
    (slice, final) => {
      if (final) decoder.finish();
      else decoder.push(slice, (piece) => pieces.push(piece));
    },
    () => {
      const out = pieces;
      pieces = [];
      return out;
    },
  );
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
      return throughStream(body, type, unbzip2Stream());
    case 'zstd':
      return zstdBody(body);
    case 'lz4':
      return lz4Body(body);
  }
}
