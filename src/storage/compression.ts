/**
 * Block codecs applied to an encoded page: LZ4 (default, `lz4-napi` block format with the raw size
 * prepended), ZSTD (table property `"compression" = "ZSTD"`, `@mongodb-js/zstd`, async only) or NONE.
 * A page that a codec does not shrink is stored uncompressed, so decoding it costs nothing.
 */
import { compressSync as lz4Compress, uncompressSync as lz4Uncompress } from 'lz4-napi';
import { compress as zstdCompress, decompress as zstdDecompress } from '@mongodb-js/zstd';
import { GaleneError } from '../common/errors';

export type CompressionName = 'LZ4' | 'ZSTD' | 'NONE';

/** Codec ids as stored in page headers. */
export const CODEC_NONE = 0;
export const CODEC_LZ4 = 1;
export const CODEC_ZSTD = 2;

const ZSTD_LEVEL = 3;

/** Parse a table's `compression` property (case-insensitive; Doris also accepts LZ4F, treated as LZ4). */
export function parseCompression(text: string): CompressionName {
  const upper = text.trim().toUpperCase();
  if (upper === 'LZ4' || upper === 'LZ4F' || upper === 'DEFAULT') return 'LZ4';
  if (upper === 'ZSTD') return 'ZSTD';
  if (upper === 'NONE' || upper === 'NO_COMPRESSION') return 'NONE';
  throw new GaleneError('INVALID_PROPERTY', ['compression', `${text} (expected LZ4, ZSTD or NONE)`]);
}

function asBuffer(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** Compress with the table's codec; returns the codec actually used (NONE when it did not shrink). */
export async function compressPage(codec: CompressionName, raw: Uint8Array): Promise<{ codec: number; data: Uint8Array }> {
  if (codec === 'NONE' || raw.length < 64) return { codec: CODEC_NONE, data: raw };
  const packed = codec === 'LZ4' ? lz4Compress(asBuffer(raw)) : await zstdCompress(asBuffer(raw), ZSTD_LEVEL);
  if (packed.length >= raw.length) return { codec: CODEC_NONE, data: raw };
  return { codec: codec === 'LZ4' ? CODEC_LZ4 : CODEC_ZSTD, data: packed };
}

/** compressPage with LZ4, synchronously (for builders that are not async: the primary-key index). */
export function compressPageLz4Sync(raw: Uint8Array): { codec: number; data: Uint8Array } {
  if (raw.length < 64) return { codec: CODEC_NONE, data: raw };
  const packed = lz4Compress(asBuffer(raw));
  return packed.length < raw.length ? { codec: CODEC_LZ4, data: packed } : { codec: CODEC_NONE, data: raw };
}

/** Undo compressPage; `rawLength` is checked so a damaged page cannot decode to the wrong size. */
export async function decompressPage(codec: number, data: Uint8Array, rawLength: number, what: string): Promise<Uint8Array> {
  let out: Uint8Array;
  try {
    switch (codec) {
      case CODEC_NONE:
        out = data;
        break;
      case CODEC_LZ4:
        out = lz4Uncompress(data);
        break;
      case CODEC_ZSTD:
        out = await zstdDecompress(asBuffer(data));
        break;
      default:
        throw new GaleneError('CORRUPTION', [`${what}: unknown codec ${codec}`]);
    }
  } catch (err) {
    if (err instanceof GaleneError) throw err;
    throw new GaleneError('CORRUPTION', [`${what}: cannot decompress (${(err as Error).message})`], { cause: err });
  }
  if (out.length !== rawLength) throw new GaleneError('CORRUPTION', [`${what}: decompressed to ${out.length} bytes, expected ${rawLength}`]);
  return out;
}
