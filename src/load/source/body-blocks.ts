/**
 * Reading a load's request body in blocks of about `blockBytes`: the one loop Stream Load and Group
 * Commit loads share. Bytes are handed on in blocks (never the whole body), the last call has
 * `final = true` (possibly with no chunks), and the time spent waiting for the client is added to
 * `timing.readMs` as it goes, so a caller that fails midway still reports it. `onChunk` sees the body as
 * received (LoadBytes counts those bytes); the blocks are of the body decompressed by `compressType`.
 */
import { GaleneError } from '../../common/errors';
import { CompressType, decompressBody } from './decompress';

/** Body bytes parsed at a time (at most: a load's exec_mem_limit may ask for smaller blocks). */
export const BODY_BLOCK_BYTES = 1 << 20;

/** A body parser fed block by block (CsvReader, JsonReader: see openBodyReader). */
export interface BodyReader {
  /** Parse what `chunks` complete (with the carried tail); `final` = end of body. */
  feed(chunks: readonly Buffer[], final: boolean): void;
}

export interface BodyTiming {
  readMs: number;
}

export async function readBodyInBlocks(
  body: AsyncIterable<Buffer>,
  blockBytes: number,
  compressType: CompressType,
  signal: { readonly cancelled: string | null },
  timing: BodyTiming,
  onChunk: (chunk: Buffer) => void,
  onBlock: (chunks: Buffer[], final: boolean, bytes: number) => void | Promise<void>,
): Promise<void> {
  let chunks: Buffer[] = [];
  let chunkBytes = 0;
  let readStart = performance.now();
  const received = async function* (): AsyncGenerator<Buffer> {
    for await (const chunk of body) {
      onChunk(chunk);
      yield chunk;
    }
  };
  for await (const chunk of decompressBody(received(), compressType)) {
    chunks.push(chunk);
    chunkBytes += chunk.length;
    if (chunkBytes < blockBytes) continue;
    timing.readMs += performance.now() - readStart;
    await onBlock(chunks, false, chunkBytes);
    chunks = [];
    chunkBytes = 0;
    readStart = performance.now();
  }
  timing.readMs += performance.now() - readStart;
  if (signal.cancelled !== null) throw new GaleneError('LOAD_CANCELLED', [signal.cancelled]);
  await onBlock(chunks, true, chunkBytes);
}
