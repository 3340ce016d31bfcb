/**
 * The pure-JavaScript decoders of compress_type bz2 (unbzip2-stream), lz4 (lz4-frame.ts) and zstd (fzstd)
 * behind one push interface: feed a slice of the compressed body, get back what it decoded. They are CPU
 * work, so decompress.ts runs them in a worker thread (decompress-worker.ts), never on the event loop.
 */
import { Decompress as ZstdDecompress } from 'fzstd';
import unbzip2Stream from 'unbzip2-stream';
import { Lz4FrameDecoder } from './lz4-frame';

export type PushDecoderType = 'bz2' | 'lz4' | 'zstd';

/** Feed `slice` (`final`: the body ended, `slice` is empty); returns the bytes decoded. Throws on bad data. */
export type PushDecoder = (slice: Uint8Array, final: boolean) => Uint8Array[];

function bz2Decoder(): PushDecoder {
  // A classic through stream that decodes synchronously in write() and end(), emitting as it goes.
  const stream = unbzip2Stream();
  let pieces: Uint8Array[] = [];
  let failure: Error | null = null;
  stream.on('data', (data: Buffer) => pieces.push(data));
  stream.on('error', (err: Error) => (failure ??= err));
  return (slice, final) => {
    if (final) stream.end();
    else stream.write(Buffer.from(slice.buffer, slice.byteOffset, slice.length));
    // The decoder reads past the end of a cut-off block as a TypeError: say what happened.
    if (failure !== null) throw failure instanceof TypeError ? new Error('the body ends inside a bzip2 stream, or it is corrupt') : failure;
    const out = pieces;
    pieces = [];
    return out;
  };
}

function lz4Decoder(): PushDecoder {
  const decoder = new Lz4FrameDecoder();
  return (slice, final) => {
    const pieces: Uint8Array[] = [];
    if (final) decoder.finish();
    else decoder.push(slice, (piece) => pieces.push(piece));
    return pieces;
  };
}

function zstdDecoder(): PushDecoder {
  let pieces: Uint8Array[] = [];
  // A piece outlives the next push: keep a copy. At the final push fzstd checks that no frame is cut off.
  const decoder = new ZstdDecompress((data) => pieces.push(new Uint8Array(data)));
  return (slice, final) => {
    decoder.push(slice, final);
    const out = pieces;
    pieces = [];
    return out;
  };
}

export function pushDecoder(type: PushDecoderType): PushDecoder {
  return type === 'bz2' ? bz2Decoder() : type === 'lz4' ? lz4Decoder() : zstdDecoder();
}
