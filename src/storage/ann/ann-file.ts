/**
 * The ANN index file of one segment (`<segment>.<index>.idx`, segmentIndexKey): the HNSW library's own
 * serialized index (usearch's format, which usearch can memory-map in place) followed by a fixed 64-byte
 * Galene trailer, read first, that says what the index is:
 *
 *   offset  size  field
 *   0       4     format version (1)
 *   4       1     metric (1 l2_distance, 2 inner_product)
 *   5       1     quantizer (1 flat -> f32, 2 sq8 -> f16)
 *   6       2     reserved (0)
 *   8       4     dim
 *   12      4     max_degree
 *   16      4     ef_construction
 *   20      4     reserved (0)
 *   24      8     segment row count (row ordinals are 0 .. rowCount-1)
 *   32      8     indexed vector count (rows whose vector was valid)
 *   40      8     payload length (bytes of the library's index before the trailer)
 *   48      4     crc32 of the payload
 *   52      4     crc32 of bytes 0..52 of the trailer
 *   56      4     trailer length (64)
 *   60      4     magic "GANN"
 *
 * Trailing bytes after its own data are ignored by usearch's `view`/`load`, so the file is viewed as is.
 * Files are written once, through a temporary name and a rename (writeAnnFileAtomic): a crash leaves the
 * whole file or none.
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import { GaleneError } from '../../common/errors';
import { PRIVATE_FILE_MODE } from '../../common/private-files';
import { renameIntoPlaceSync } from '../atomic-file';
import { crc32 } from '../checksum';
import type { AnnIndexParams, AnnMetric, AnnQuantizer } from './ann-params';
import { METRIC_CODES, QUANTIZER_CODES, validateAnnParams } from './ann-params';

export const ANN_TRAILER_BYTES = 64;
const MAGIC = 0x4e4e4147; // "GANN" little-endian
const VERSION = 1;

export interface AnnFileHeader {
  readonly params: AnnIndexParams;
  readonly rowCount: number;
  readonly vectorCount: number;
  readonly payloadLength: number;
  readonly payloadCrc: number;
}

const METRIC_BY_CODE = new Map(Object.entries(METRIC_CODES).map(([name, code]) => [code, name as AnnMetric]));
const QUANTIZER_BY_CODE = new Map(Object.entries(QUANTIZER_CODES).map(([name, code]) => [code, name as AnnQuantizer]));

/** Bytes of the index file a header describes: the library's payload, then the trailer. */
export function annFileSize(header: AnnFileHeader): number {
  return header.payloadLength + ANN_TRAILER_BYTES;
}

export function encodeAnnTrailer(header: AnnFileHeader): Buffer {
  const out = Buffer.alloc(ANN_TRAILER_BYTES);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint32(0, VERSION, true);
  out[4] = METRIC_CODES[header.params.metric];
  out[5] = QUANTIZER_CODES[header.params.quantizer];
  view.setUint32(8, header.params.dim, true);
  view.setUint32(12, header.params.maxDegree, true);
  view.setUint32(16, header.params.efConstruction, true);
  view.setBigUint64(24, BigInt(header.rowCount), true);
  view.setBigUint64(32, BigInt(header.vectorCount), true);
  view.setBigUint64(40, BigInt(header.payloadLength), true);
  view.setUint32(48, header.payloadCrc >>> 0, true);
  view.setUint32(52, crc32(out, 0, 52), true);
  view.setUint32(56, ANN_TRAILER_BYTES, true);
  view.setUint32(60, MAGIC, true);
  return out;
}

/** The trailer of a file of `fileSize` bytes; `what` names the file in CORRUPTION errors. */
export function decodeAnnTrailer(trailer: Uint8Array, fileSize: number, what: string): AnnFileHeader {
  const corrupt = (why: string): never => {
    throw new GaleneError('CORRUPTION', [`ann index ${what}: ${why}`]);
  };
  if (trailer.length !== ANN_TRAILER_BYTES || fileSize < ANN_TRAILER_BYTES) corrupt('file shorter than its trailer');
  const view = new DataView(trailer.buffer, trailer.byteOffset, trailer.byteLength);
  if (view.getUint32(60, true) !== MAGIC || view.getUint32(56, true) !== ANN_TRAILER_BYTES) corrupt('bad magic');
  if (view.getUint32(52, true) !== crc32(trailer, 0, 52)) corrupt('trailer checksum mismatch');
  if (view.getUint32(0, true) !== VERSION) corrupt(`unsupported version ${view.getUint32(0, true)}`);
  const metric = METRIC_BY_CODE.get(trailer[4]) ?? corrupt(`unknown metric code ${trailer[4]}`);
  const quantizer = QUANTIZER_BY_CODE.get(trailer[5]) ?? corrupt(`unknown quantizer code ${trailer[5]}`);
  const payloadLength = Number(view.getBigUint64(40, true));
  if (payloadLength + ANN_TRAILER_BYTES !== fileSize) corrupt(`payload length ${payloadLength} does not match file size ${fileSize}`);
  const params = validateAnnParams({ metric, quantizer, dim: view.getUint32(8, true), maxDegree: view.getUint32(12, true), efConstruction: view.getUint32(16, true) });
  return { params, rowCount: Number(view.getBigUint64(24, true)), vectorCount: Number(view.getBigUint64(32, true)), payloadLength, payloadCrc: view.getUint32(48, true) };
}

/** A temporary name beside `target` that object-store listings skip. */
export { tempPathFor } from '../atomic-file';

/**
 * Make `temp` (the library's index, already written) a finished index file at `target`: append the
 * trailer, fsync, rename over `target`, fsync the directory. On any failure the temporary file is removed
 * and nothing is visible at `target`. Synchronous: it runs in the build worker.
 */
export function finishAnnFileSync(temp: string, target: string, header: Omit<AnnFileHeader, 'payloadLength' | 'payloadCrc'>): AnnFileHeader {
  try {
    const payloadLength = fs.statSync(temp).size;
    const payloadCrc = crcOfFileSync(temp, payloadLength);
    const full: AnnFileHeader = { ...header, payloadLength, payloadCrc };
    const fd = fs.openSync(temp, 'r+', PRIVATE_FILE_MODE);
    try {
      fs.writeSync(fd, encodeAnnTrailer(full), 0, ANN_TRAILER_BYTES, payloadLength);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    renameIntoPlaceSync(temp, target);
    return full;
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err instanceof GaleneError ? err : new GaleneError('IO_ERROR', [`write ann index ${target}: ${(err as Error).message}`], { cause: err });
  }
}

function crcOfFileSync(file: string, length: number): number {
  const fd = fs.openSync(file, 'r');
  try {
    const chunk = Buffer.allocUnsafe(1 << 20);
    let crc = 0;
    for (let offset = 0; offset < length; ) {
      const bytesRead = fs.readSync(fd, chunk, 0, Math.min(chunk.length, length - offset), offset);
      if (bytesRead === 0) break;
      crc = crc32(chunk, 0, bytesRead, crc);
      offset += bytesRead;
    }
    return crc;
  } finally {
    fs.closeSync(fd);
  }
}

/** The trailer of an index file on disk (one small read at the tail). */
export async function readAnnFileHeader(file: string): Promise<AnnFileHeader> {
  const handle = await fsp.open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size < ANN_TRAILER_BYTES) throw new GaleneError('CORRUPTION', [`ann index ${file}: file shorter than its trailer`]);
    const trailer = Buffer.alloc(ANN_TRAILER_BYTES);
    await handle.read(trailer, 0, ANN_TRAILER_BYTES, size - ANN_TRAILER_BYTES);
    return decodeAnnTrailer(trailer, size, file);
  } finally {
    await handle.close();
  }
}

/** Check the payload checksum of an index held in memory. */
export function verifyAnnPayload(bytes: Uint8Array, header: AnnFileHeader, what: string): void {
  if (crc32(bytes, 0, header.payloadLength) >>> 0 !== header.payloadCrc >>> 0) throw new GaleneError('CORRUPTION', [`ann index ${what}: payload checksum mismatch`]);
}
