/**
 * The worker thread one compressed Stream Load body is decoded in (bz2, lz4, zstd: pure-JavaScript
 * decoders, see push-decoders.ts). decompress.ts posts the body slice by slice (`null` at its end) and
 * waits for each answer: the decoded pieces, or the decoder's error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { pushDecoder, PushDecoderType } from './push-decoders';

export interface DecompressReply {
  readonly pieces?: Uint8Array[];
  readonly error?: string;
}

const decode = pushDecoder((workerData as { type: PushDecoderType }).type);

parentPort!.on('message', (slice: Uint8Array | null) => {
  try {
    const pieces = decode(slice ?? new Uint8Array(0), slice === null);
    // Hand over the memory of the pieces that own all of theirs (a small Buffer may be a view of the pool).
    const owned = new Set(pieces.filter((piece) => piece.byteOffset === 0 && piece.byteLength === piece.buffer.byteLength).map((piece) => piece.buffer as ArrayBuffer));
    parentPort!.postMessage({ pieces } satisfies DecompressReply, [...owned]);
  } catch (err) {
    parentPort!.postMessage({ error: err instanceof Error ? err.message : String(err) } satisfies DecompressReply);
  }
});
