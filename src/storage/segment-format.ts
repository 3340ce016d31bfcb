/**
 * The segment file format (DESIGN §3), shared by writer and reader.
 *
 * ```
 * [data pages of column 0][data pages of column 1]...      each a framed page
 * [dictionary page per dictionary-encoded string column]   framed
 * [page index per column]                                  framed JSON (ordinal index + zone maps)
 * [short-key index]                                        framed binary (short-key-index.ts)
 * [footer]                                                 JSON: schema, row count, every offset, version
 * [trailer: footer length u32 | footer CRC32 u32 | 'GLSG']
 * ```
 * A framed page is a 12-byte header (CRC32 of everything after the CRC field, codec u8, 3 reserved
 * bytes, raw length u32) then the (possibly compressed) body. All integers little-endian.
 */
import type { DataType, TypeJson } from '../common/types';
import { GaleneError } from '../common/errors';
import { crc32 } from './checksum';

export const SEGMENT_MAGIC = 'GLSG';
export const SEGMENT_FORMAT_VERSION = 1;
export const TRAILER_BYTES = 12;
export const PAGE_HEADER_BYTES = 12;
/** Bytes the reader fetches from the tail on open (trailer, footer, and usually every index). */
export const TAIL_READ_BYTES = 64 * 1024;

/** A column as the writer is given it. */
export interface SegmentColumn {
  readonly name: string;
  readonly type: DataType;
  /** Stable column id across renames (Doris's column unique id). */
  readonly uniqueId: number;
}

export interface RegionJson {
  readonly offset: number;
  readonly size: number;
}

export interface ColumnFooterJson {
  readonly name: string;
  readonly type: TypeJson;
  readonly uniqueId: number;
  readonly encoding: 'plain' | 'dict';
  readonly dict: (RegionJson & { readonly entries: number }) | null;
  readonly index: RegionJson;
  readonly pages: number;
  readonly nullCount: number;
  /** First byte after this column's data pages (data pages are contiguous from `dataOffset`). */
  readonly dataOffset: number;
  readonly dataSize: number;
}

export interface SegmentFooterJson {
  readonly version: number;
  readonly numRows: number;
  readonly compression: 'LZ4' | 'ZSTD' | 'NONE';
  readonly numShortKeyColumns: number;
  readonly shortKey: RegionJson | null;
  readonly columns: readonly ColumnFooterJson[];
}

/**
 * One page in a column's page index: [firstRow, rowCount, offset, size, nullCount, min, max] with
 * bounds in boundToJson form (zone-map.ts).
 */
export type PageIndexEntryJson = [number, number, number, number, number, string | null, string | null];

/** Frame a (possibly compressed) page body. */
export function framePage(codec: number, rawLength: number, body: Uint8Array): Uint8Array {
  const page = new Uint8Array(PAGE_HEADER_BYTES + body.length);
  const view = new DataView(page.buffer);
  page[4] = codec;
  view.setUint32(8, rawLength, true);
  page.set(body, PAGE_HEADER_BYTES);
  view.setUint32(0, crc32(page, 4), true);
  return page;
}

/** Check a framed page's CRC and split it; CORRUPTION names `what`. */
export function unframePage(page: Uint8Array, what: string): { codec: number; rawLength: number; body: Uint8Array } {
  if (page.length < PAGE_HEADER_BYTES) throw new GaleneError('CORRUPTION', [`${what}: page shorter than its header`]);
  const view = new DataView(page.buffer, page.byteOffset, page.byteLength);
  const stored = view.getUint32(0, true);
  const actual = crc32(page, 4);
  if (stored !== actual) throw new GaleneError('CORRUPTION', [`${what}: checksum mismatch (stored ${stored.toString(16)}, computed ${actual.toString(16)})`]);
  return { codec: page[4], rawLength: view.getUint32(8, true), body: page.subarray(PAGE_HEADER_BYTES) };
}

/** `<segment key without .dat>.<indexName>.idx`: the sibling file of a segment's inverted / ANN index. */
export function segmentIndexKey(segmentKey: string, indexName: string): string {
  const base = segmentKey.endsWith('.dat') ? segmentKey.slice(0, -4) : segmentKey;
  return `${base}.${indexName}.idx`;
}
