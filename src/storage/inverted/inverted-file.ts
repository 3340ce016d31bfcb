/**
 * The inverted-index file of one segment and one index (`<segment>.<index>.idx`, segmentIndexKey).
 * All integers little-endian; varints are unsigned LEB128.
 *
 * ```
 * [header: magic "GINV" u32 | version u32]
 * [term data]        per term, in term order: postings, then its tf/positions blob
 * [dictionary]       blocks of up to TERMS_PER_BLOCK terms, each [crc32 u32 | body]
 * [doc lengths]      [crc32 u32 | width u8 | bit-packed u32 words]   (tokenized indexes: tokens per row)
 * [null rows]        [crc32 u32 | RowSet]                            rows whose value is NULL
 * [block index]      [crc32 u32 | per block: first term, offset, size, term count]
 * [footer]           JSON (InvertedFooter)
 * [trailer: footer length u32 | footer crc32 u32 | version u32 | magic "GINV" u32]
 * ```
 * A dictionary block body: varint term count, varint offset of its first term's data, then per term
 * (front-coded against the previous term of the block): varint shared prefix length, varint suffix
 * length, suffix bytes, varint doc frequency, varint postings length, varint blob length, crc32 u32 of
 * the term's data (postings + blob). Terms are sorted by their bytes: UTF-8 for text, and an
 * order-preserving encoding for numbers (encodeKey), so that ranges and prefixes are contiguous runs.
 *
 * Postings: a term in at most SMALL_POSTINGS rows stores delta varints of its rows; others a RowSet
 * (CRoaring's portable format). The blob holds, per row of the postings, the term's frequency (tf) and,
 * with positions, its tf positions delta-coded within the row (the first absolute). A small term writes
 * them as varints (tf, then its deltas, row after row); a large one bit-packs them: u8 width of tf - 1,
 * u8 width of the deltas, the packed tf - 1 of every row, then the packed deltas of every occurrence
 * (each packed run LSB-first, rounded up to whole bytes). Without positions and with every tf 1 the blob
 * is empty.
 *
 * The reader opens a file with one read of the tail (trailer, footer, block index, null rows) and then
 * reads only the dictionary blocks and term data a query needs; every section carries a checksum and a
 * mismatch is a CORRUPTION error naming the file, never a wrong answer.
 */
import { GaleneError } from '../../common/errors';
import { crc32 } from '../checksum';
import type { AnalyzerConfig } from './analyzer';

export const INVERTED_MAGIC = 0x564e4947; // "GINV" little-endian
export const INVERTED_FORMAT_VERSION = 1;
export const INVERTED_HEADER_BYTES = 8;
export const INVERTED_TRAILER_BYTES = 16;
export const TERMS_PER_BLOCK = 64;
export const SMALL_POSTINGS = 16;

/** How terms are encoded: text (UTF-8), or numbers in an order-preserving byte form. */
export type KeyKind = 'text' | 'f64' | 'int';

export interface RegionJson {
  readonly offset: number;
  readonly size: number;
}

export interface InvertedFooter {
  readonly version: number;
  readonly numRows: number;
  readonly keyKind: KeyKind;
  /** The analyzer the file was built with; queries are analyzed with it too. */
  readonly analyzer: AnalyzerConfig;
  /** The column is an ARRAY: each element was indexed (array_contains). */
  readonly isArray: boolean;
  readonly hasPositions: boolean;
  readonly termCount: number;
  /** Rows with a non-NULL value. */
  readonly docCount: number;
  /** Tokens over all rows (BM25's average document length is totalTokens / docCount). */
  readonly totalTokens: number;
  readonly nullCount: number;
  readonly termData: RegionJson;
  readonly docLengths: RegionJson | null;
  readonly nulls: RegionJson;
  readonly blockIndex: RegionJson;
  readonly blockCount: number;
}

export function corrupt(what: string, why: string): never {
  throw new GaleneError('CORRUPTION', [`inverted index ${what}: ${why}`]);
}

/** A section with its leading crc32 checked; returns the body. */
export function checkedSection(bytes: Uint8Array, what: string, section: string): Uint8Array {
  if (bytes.length < 4) corrupt(what, `${section} truncated`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== crc32(bytes, 4)) corrupt(what, `${section} checksum mismatch`);
  return bytes.subarray(4);
}

/** Prefix a body with its crc32 (the form checkedSection reads). */
export function withCrc(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(body.length + 4);
  out.set(body, 4);
  new DataView(out.buffer).setUint32(0, crc32(out, 4), true);
  return out;
}

export function encodeHeader(): Uint8Array {
  const out = new Uint8Array(INVERTED_HEADER_BYTES);
  const view = new DataView(out.buffer);
  view.setUint32(0, INVERTED_MAGIC, true);
  view.setUint32(4, INVERTED_FORMAT_VERSION, true);
  return out;
}

export function encodeTrailer(footer: Uint8Array): Uint8Array {
  const out = new Uint8Array(INVERTED_TRAILER_BYTES);
  const view = new DataView(out.buffer);
  view.setUint32(0, footer.length, true);
  view.setUint32(4, crc32(footer), true);
  view.setUint32(8, INVERTED_FORMAT_VERSION, true);
  view.setUint32(12, INVERTED_MAGIC, true);
  return out;
}

/** The footer length and checksum from the trailer (the file's last INVERTED_TRAILER_BYTES bytes). */
export function decodeTrailer(trailer: Uint8Array, fileSize: number, what: string): { footerLength: number; footerCrc: number } {
  if (trailer.length !== INVERTED_TRAILER_BYTES || fileSize < INVERTED_HEADER_BYTES + INVERTED_TRAILER_BYTES) corrupt(what, 'file shorter than its header and trailer');
  const view = new DataView(trailer.buffer, trailer.byteOffset, trailer.byteLength);
  if (view.getUint32(12, true) !== INVERTED_MAGIC) corrupt(what, 'bad magic');
  if (view.getUint32(8, true) !== INVERTED_FORMAT_VERSION) corrupt(what, `unsupported version ${view.getUint32(8, true)}`);
  const footerLength = view.getUint32(0, true);
  if (footerLength + INVERTED_TRAILER_BYTES + INVERTED_HEADER_BYTES > fileSize) corrupt(what, `footer length ${footerLength} does not fit a file of ${fileSize} bytes`);
  return { footerLength, footerCrc: view.getUint32(4, true) };
}

export function decodeFooter(bytes: Uint8Array, footerCrc: number, fileSize: number, what: string): InvertedFooter {
  if (crc32(bytes) !== footerCrc) corrupt(what, 'footer checksum mismatch');
  let footer: InvertedFooter;
  try {
    footer = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as InvertedFooter;
  } catch {
    return corrupt(what, 'footer is not valid JSON');
  }
  if (footer.version !== INVERTED_FORMAT_VERSION) corrupt(what, `unsupported version ${footer.version}`);
  const end = fileSize - INVERTED_TRAILER_BYTES - bytes.length;
  for (const region of [footer.termData, footer.nulls, footer.blockIndex, footer.docLengths]) {
    if (region && (region.offset < INVERTED_HEADER_BYTES || region.offset + region.size > end)) corrupt(what, 'section outside the file');
  }
  return footer;
}

// ---- order-preserving keys for numbers ----

const F64_BYTES = 8;
const INT_BYTES = 16;
const INT_BIAS = 1n << 127n;

/** A number as 8 bytes whose byte order is numeric order (-0 as 0; NaN above +Infinity). */
function encodeF64(value: number): Uint8Array {
  const out = new Uint8Array(F64_BYTES);
  const view = new DataView(out.buffer);
  view.setFloat64(0, value === 0 ? 0 : Number.isNaN(value) ? NaN : value, false);
  if (out[0] & 0x80) for (let byteIdx = 0; byteIdx < F64_BYTES; byteIdx++) out[byteIdx] ^= 0xff;
  else out[0] ^= 0x80;
  return out;
}

/** An integer (up to 128 bits) as 16 big-endian bytes biased by 2^127: byte order is numeric order. */
function encodeInt(value: bigint): Uint8Array {
  let biased = value + INT_BIAS;
  const out = new Uint8Array(INT_BYTES);
  for (let byteIdx = INT_BYTES - 1; byteIdx >= 0; byteIdx--) {
    out[byteIdx] = Number(biased & 0xffn);
    biased >>= 8n;
  }
  return out;
}

function decodeInt(bytes: Uint8Array): bigint {
  let value = 0n;
  for (let byteIdx = 0; byteIdx < INT_BYTES; byteIdx++) value = (value << 8n) | BigInt(bytes[byteIdx]);
  return value - INT_BIAS;
}

function decodeF64(bytes: Uint8Array): number {
  const copy = Uint8Array.from(bytes);
  if (copy[0] & 0x80) copy[0] ^= 0x80;
  else for (let byteIdx = 0; byteIdx < F64_BYTES; byteIdx++) copy[byteIdx] ^= 0xff;
  return new DataView(copy.buffer).getFloat64(0, false);
}

/** The term bytes of a numeric value in an index of `kind` ('f64' or 'int'); integers only for 'int'. */
export function encodeKey(kind: Exclude<KeyKind, 'text'>, value: number | bigint): Uint8Array {
  if (kind === 'f64') return encodeF64(Number(value));
  return encodeInt(typeof value === 'bigint' ? value : BigInt(value));
}

/** The numeric value of a term of a numeric index (tests; EXPLAIN). */
export function decodeKey(kind: Exclude<KeyKind, 'text'>, bytes: Uint8Array): number | bigint {
  return kind === 'f64' ? decodeF64(bytes) : decodeInt(bytes);
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const len = Math.min(a.length, b.length);
  for (let byteIdx = 0; byteIdx < len; byteIdx++) if (a[byteIdx] !== b[byteIdx]) return a[byteIdx] - b[byteIdx];
  return a.length - b.length;
}
