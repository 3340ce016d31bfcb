/**
 * Builds one segment file (format in segment-format.ts) from sorted column vectors.
 *
 * Pure CPU work over typed arrays apart from the async ZSTD codec, so it can move to a worker thread as
 * is. The caller (flush / compaction) has sorted the rows by key, NULLs first, and puts the returned parts
 * into the object store in order.
 */
import type { DictVector, StringVector, Vector } from '../common/column';
import { decodeUtf8, toPlainStrings } from '../common/column';
import { sortByteRanges } from '../common/bytes';
import { compareStrings } from '../common/utf8';
import { GaleneError } from '../common/errors';
import type { PhysicalKind } from '../common/types';
import { fixedWidth, isSketchType, physicalKind, typeToJson } from '../common/types';
import { crc32 } from './checksum';
import type { CompressionName } from './compression';
import { compressPage } from './compression';
import { encodePage } from './encoding/page-encoding';
import type { StringDictionary } from './encoding/string-dict';
import { buildDictionary, DICT_MAX_BYTES, DICT_MAX_ENTRIES, encodeDictPage, encodeDictPageOfRanges } from './encoding/string-dict';
import type { ColumnFooterJson, PageIndexEntryJson, SegmentColumn, SegmentFooterJson } from './segment-format';
import { SEGMENT_FORMAT_VERSION, SEGMENT_MAGIC, framePage } from './segment-format';
import { buildShortKeyIndex } from './short-key-index';
import { boundToJson, computeZoneStats } from './zone-map';

export type { SegmentColumn } from './segment-format';

/** A column's dictionary, with its raw dictionary page when the dictionary was built straight from the bytes. */
type SegmentDictionary = StringDictionary & { readonly page?: Uint8Array };

export const DEFAULT_PAGE_ROW_LIMIT = 65536;
export const DEFAULT_PAGE_BYTE_LIMIT = 1024 * 1024;

export interface SegmentWriteOptions {
  readonly compression: CompressionName;
  /** Leading columns indexed by the short-key index (0 for none). */
  readonly numShortKeyColumns: number;
  /** Most rows per data page (default 65536). */
  readonly pageRowLimit?: number;
  /** Target raw bytes per data page (default 1 MiB). */
  readonly pageByteLimit?: number;
  /** Per column name: its own page byte limit, and `plain` to keep strings out of dictionary encoding (row-store.ts). */
  readonly columnOptions?: Readonly<Record<string, { readonly pageByteLimit?: number; readonly plain?: boolean }>>;
}

/** Page boundaries [start, end) for one column. */
function paginate(vec: Vector, kind: PhysicalKind, rowLimit: number, byteLimit: number, dictionary: boolean): [number, number][] {
  const pages: [number, number][] = [];
  const numRows = vec.length;
  if (kind === 'string' && !dictionary && vec.kind === 'string') {
    let start = 0;
    while (start < numRows) {
      let end = start;
      const base = vec.offsets[start];
      while (end < numRows && end - start < rowLimit && vec.offsets[end] - base < byteLimit) end++;
      if (end === start) end = start + 1;
      pages.push([start, end]);
      start = end;
    }
    return pages;
  }
  if (kind === 'list' && vec.kind === 'array') {
    // Pages of whole arrays, cut when their elements reach the byte limit (an estimate per element).
    const elementKind = physicalKind(vec.child.type);
    const elementBytes = elementKind === 'string' ? 16 : elementKind === 'bigint' ? 16 : elementKind === 'list' || elementKind === 'struct' ? 32 : fixedWidth(elementKind);
    const elementLimit = Math.max(1, Math.floor(byteLimit / elementBytes));
    let start = 0;
    while (start < numRows) {
      let end = start + 1;
      const base = vec.offsets[start];
      while (end < numRows && end - start < rowLimit && vec.offsets[end + 1] - base <= elementLimit) end++;
      pages.push([start, end]);
      start = end;
    }
    return pages;
  }
  // A struct's fields may be strings or lists: an estimate per row, as for list elements.
  const width = kind === 'bigint' ? 16 : kind === 'string' ? 4 : kind === 'struct' ? 32 : fixedWidth(kind);
  const rowsPerPage = Math.max(1, Math.min(rowLimit, Math.floor(byteLimit / width)));
  for (let start = 0; start < numRows; start += rowsPerPage) pages.push([start, Math.min(numRows, start + rowsPerPage)]);
  return pages;
}

/** Order of `values` by UTF-8 bytes: native string order when no value holds a surrogate (then UTF-16 order is code-point order). */
function sortedOrder(values: readonly string[]): number[] {
  const order = values.map((_value, idx) => idx);
  const surrogate = /[\uD800-\uDFFF]/;
  if (values.some((value) => surrogate.test(value))) return order.sort((a, b) => compareStrings(values[a], values[b]));
  return order.sort((a, b) => {
    const left = values[a];
    const right = values[b];
    return left < right ? -1 : left > right ? 1 : 0;
  });
}

/**
 * Sorts the distinct values `values` (by UTF-8 bytes) into a dictionary and maps `codes` (indexes into
 * `values`, one per row; NULL rows are set to 0) onto it, in place. Null when the values would break
 * buildDictionary's rules (more than `limit` values, more than DICT_MAX_BYTES) — or when two of them are
 * equal strings, which only the caller's duplicate-tolerant fallback handles.
 */
function sortedDictionary(values: string[], codes: Int32Array, nulls: Uint8Array | null, limit: number): StringDictionary | null | 'duplicates' {
  if (values.length > limit) return null;
  let dictBytes = 0;
  for (let entryIdx = 0; entryIdx < values.length; entryIdx++) dictBytes += values[entryIdx].length * 3 + 4;
  if (dictBytes > DICT_MAX_BYTES) return null;
  const order = sortedOrder(values);
  const remap = new Int32Array(values.length);
  const dict = new Array<string>(values.length);
  for (let newCode = 0; newCode < order.length; newCode++) {
    remap[order[newCode]] = newCode;
    dict[newCode] = values[order[newCode]];
    if (newCode > 0 && dict[newCode] === dict[newCode - 1]) return 'duplicates';
  }
  for (let rowIdx = 0; rowIdx < codes.length; rowIdx++) codes[rowIdx] = nulls !== null && nulls[rowIdx] === 1 ? 0 : remap[codes[rowIdx]];
  return { dict, codes };
}

/**
 * The distinct byte strings of a plain string vector, by a hash table over the bytes: sets `codes[row]` to
 * the index of the row's value in first-occurrence order and `firstRows[code]` to the row where it first
 * occurs; returns how many there are, or -1 as soon as there are more than `limit` (`firstRows` holds
 * `limit` entries). NULL rows are skipped (their code stays 0).
 */
function distinctByteStrings(vec: StringVector, limit: number, codes: Int32Array, firstRows: Int32Array): number {
  const { offsets, bytes, nulls } = vec;
  const rowCount = vec.length;
  let slots = 16;
  while (slots < 2 * (limit + 1)) slots *= 2;
  const mask = slots - 1;
  /** Row of the first occurrence of each distinct value, by slot (-1: empty). */
  const slotRow = new Int32Array(slots).fill(-1);
  let count = 0;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    if (nulls !== null && nulls[rowIdx] === 1) continue;
    const start = offsets[rowIdx];
    const end = offsets[rowIdx + 1];
    const length = end - start;
    let hash = 0x811c9dc5 ^ length;
    for (let byteIdx = start; byteIdx < end; byteIdx++) hash = Math.imul(hash ^ bytes[byteIdx], 0x01000193);
    hash ^= hash >>> 15;
    let slot = hash & mask;
    while (true) {
      const other = slotRow[slot];
      if (other < 0) {
        if (count >= limit) return -1;
        slotRow[slot] = rowIdx;
        codes[rowIdx] = count;
        firstRows[count++] = rowIdx;
        break;
      }
      const otherStart = offsets[other];
      if (offsets[other + 1] - otherStart === length) {
        let same = 0;
        while (same < length && bytes[start + same] === bytes[otherStart + same]) same++;
        if (same === length) {
          codes[rowIdx] = codes[other];
          break;
        }
      }
      slot = (slot + 1) & mask;
    }
  }
  return count;
}

/**
 * buildDictionary's result for plain strings, found on the bytes (distinctByteStrings): each distinct value
 * is decoded once (buildDictionary decodes every row), and nothing is decoded when there are more than
 * `limit`. When every value is ASCII, the values are sorted and the dictionary page copied on the bytes.
 */
function dictionaryOfBytes(vec: StringVector, limit: number): SegmentDictionary | null {
  const { offsets, bytes, nulls } = vec;
  const rowCount = vec.length;
  const codes = new Int32Array(rowCount);
  const allFirstRows = new Int32Array(Math.min(limit, rowCount));
  const count = distinctByteStrings(vec, limit, codes, allFirstRows);
  if (count < 0) return null;
  const firstRows = allFirstRows.subarray(0, count);
  let anyByte = 0;
  let dictBytes = 0;
  for (let code = 0; code < count; code++) {
    const rowIdx = firstRows[code];
    for (let byteIdx = offsets[rowIdx]; byteIdx < offsets[rowIdx + 1]; byteIdx++) anyByte |= bytes[byteIdx];
    dictBytes += (offsets[rowIdx + 1] - offsets[rowIdx]) * 3 + 4;
  }
  if (anyByte >= 0x80) {
    const values = Array.from(firstRows, (rowIdx) => decodeUtf8(bytes, offsets[rowIdx], offsets[rowIdx + 1]));
    const dictionary = sortedDictionary(values, codes, nulls, limit);
    return dictionary === 'duplicates' ? buildDictionary(vec) : dictionary;
  }
  // ASCII: byte order is code-point order, distinct bytes are distinct strings, and the bytes are the
  // UTF-8 the dictionary page holds, so the rows sort and the page is built on the bytes.
  if (dictBytes > DICT_MAX_BYTES) return null;
  const sortedRows = firstRows.slice();
  sortByteRanges(sortedRows, offsets, bytes);
  const remap = new Int32Array(sortedRows.length);
  const dict = new Array<string>(sortedRows.length);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let newCode = 0; newCode < sortedRows.length; newCode++) {
    const rowIdx = sortedRows[newCode];
    remap[codes[rowIdx]] = newCode;
    dict[newCode] = text.toString('latin1', offsets[rowIdx], offsets[rowIdx + 1]);
  }
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) codes[rowIdx] = nulls !== null && nulls[rowIdx] === 1 ? 0 : remap[codes[rowIdx]];
  return { dict, codes, page: encodeDictPageOfRanges(bytes, offsets, sortedRows) };
}

/** buildDictionary's result for a dictionary vector, from its codes (only the entries rows use count). */
function dictionaryOfCodes(vec: DictVector, limit: number): StringDictionary | null {
  const { codes: inCodes, nulls, dict: inDict } = vec;
  const newIndex = new Int32Array(inDict.length).fill(-1);
  const values: string[] = [];
  const codes = new Int32Array(vec.length);
  for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) {
    if (nulls !== null && nulls[rowIdx] === 1) continue;
    const code = inCodes[rowIdx];
    let index = newIndex[code];
    if (index < 0) {
      // Entries may repeat a string, so only buildDictionary can tell whether the values are too many.
      if (values.length >= limit) return buildDictionary(vec);
      index = newIndex[code] = values.length;
      values.push(inDict[code]);
    }
    codes[rowIdx] = index;
  }
  const dictionary = sortedDictionary(values, codes, nulls, limit);
  return dictionary === 'duplicates' ? buildDictionary(vec) : dictionary;
}

/**
 * The dictionary of one segment's string column: exactly buildDictionary's answer (same entries, codes
 * and give-up rules, so files do not depend on which path ran), computed without a decode per row.
 */
export function segmentDictionary(vec: Vector): SegmentDictionary | null {
  const limit = Math.min(DICT_MAX_ENTRIES, Math.max(1, Math.floor(vec.length / 2)));
  if (vec.kind === 'string') return dictionaryOfBytes(vec, limit);
  if (vec.kind === 'dict') return dictionaryOfCodes(vec, limit);
  return buildDictionary(vec);
}

function checkInput(columns: readonly SegmentColumn[], data: readonly Vector[], options: SegmentWriteOptions): number {
  if (columns.length !== data.length) throw new GaleneError('INTERNAL', [`writeSegment: ${columns.length} columns but ${data.length} vectors`]);
  if (columns.length === 0) throw new GaleneError('INTERNAL', ['writeSegment: no columns']);
  const numRows = data[0].length;
  const names = new Set<string>();
  columns.forEach((column, colIdx) => {
    const vec = data[colIdx];
    if (names.has(column.name)) throw new GaleneError('INTERNAL', [`writeSegment: duplicate column ${column.name}`]);
    names.add(column.name);
    if (vec.length !== numRows) throw new GaleneError('INTERNAL', [`writeSegment: column ${column.name} has ${vec.length} rows, expected ${numRows}`]);
    const kind = physicalKind(column.type);
    const ok =
      kind === 'string' ? vec.kind === 'string' || vec.kind === 'dict' : kind === 'bigint' ? vec.kind === 'object' : kind === 'list' ? vec.kind === 'array' : kind === 'struct' ? vec.kind === 'struct' : vec.kind === 'fixed' && physicalKind(vec.type) === kind;
    if (!ok) throw new GaleneError('INTERNAL', [`writeSegment: column ${column.name} (${kind}) got a ${vec.kind} vector of ${vec.type.name}`]);
  });
  if (!Number.isInteger(options.numShortKeyColumns) || options.numShortKeyColumns < 0 || options.numShortKeyColumns > columns.length) {
    throw new GaleneError('INTERNAL', [`writeSegment: numShortKeyColumns ${options.numShortKeyColumns} out of range`]);
  }
  return numRows;
}

/**
 * Encode a segment. Returns the file as parts to write in order (their concatenation is the file).
 */
export async function writeSegment(columns: readonly SegmentColumn[], data: readonly Vector[], options: SegmentWriteOptions): Promise<Uint8Array[]> {
  const numRows = checkInput(columns, data, options);
  const rowLimit = Math.max(1, options.pageRowLimit ?? DEFAULT_PAGE_ROW_LIMIT);
  const byteLimit = Math.max(1, options.pageByteLimit ?? DEFAULT_PAGE_BYTE_LIMIT);
  const parts: Uint8Array[] = [];
  let offset = 0;
  const append = (part: Uint8Array): { offset: number; size: number } => {
    parts.push(part);
    const region = { offset, size: part.length };
    offset += part.length;
    return region;
  };
  const appendCompressed = async (raw: Uint8Array): Promise<{ offset: number; size: number }> => {
    const packed = await compressPage(options.compression, raw);
    return append(framePage(packed.codec, raw.length, packed.data));
  };

  const kinds = columns.map((column) => physicalKind(column.type));
  const pageIndexes: PageIndexEntryJson[][] = [];
  const dictionaries: (SegmentDictionary | null)[] = [];
  const partial: Omit<ColumnFooterJson, 'dict' | 'index'>[] = [];
  /** Vectors as encoded (dictionary form for dictionary columns): the short-key index reads them. */
  const encoded: Vector[] = [];
  for (let colIdx = 0; colIdx < columns.length; colIdx++) {
    const column = columns[colIdx];
    const kind = kinds[colIdx];
    let vec = data[colIdx];
    let dictCodes: { codes: Int32Array; size: number } | null = null;
    const columnOptions = options.columnOptions?.[column.name];
    if (kind === 'string') {
      // Sketch states (BITMAP, HLL) are binary, not text: a dictionary would decode them as UTF-8.
      const dictionary = columnOptions?.plain === true || isSketchType(column.type) ? null : segmentDictionary(vec);
      if (dictionary !== null) {
        dictionaries.push(dictionary);
        dictCodes = { codes: dictionary.codes, size: dictionary.dict.length };
        vec = { kind: 'dict', type: vec.type, length: vec.length, codes: dictionary.codes, dict: dictionary.dict, nulls: vec.nulls };
      } else {
        dictionaries.push(null);
        if (vec.kind === 'dict') vec = toPlainStrings(vec);
      }
    } else {
      dictionaries.push(null);
    }
    const dataOffset = offset;
    const entries: PageIndexEntryJson[] = [];
    let nullCount = 0;
    for (const [start, end] of paginate(vec, kind, rowLimit, Math.max(1, columnOptions?.pageByteLimit ?? byteLimit), dictCodes !== null)) {
      const stats = computeZoneStats(vec, kind, start, end);
      nullCount += stats.nullCount;
      const region = await appendCompressed(encodePage(vec, start, end, dictCodes));
      entries.push([start, end - start, region.offset, region.size, stats.nullCount, boundToJson(stats.min), boundToJson(stats.max)]);
    }
    pageIndexes.push(entries);
    partial.push({
      name: column.name,
      type: typeToJson(column.type),
      uniqueId: column.uniqueId,
      encoding: dictCodes !== null ? 'dict' : 'plain',
      pages: entries.length,
      nullCount,
      dataOffset,
      dataSize: offset - dataOffset,
    });
    encoded.push(vec);
  }

  const dictRegions: ({ offset: number; size: number; entries: number } | null)[] = [];
  for (let colIdx = 0; colIdx < columns.length; colIdx++) {
    const dictionary = dictionaries[colIdx];
    dictRegions.push(dictionary === null ? null : { ...(await appendCompressed(dictionary.page ?? encodeDictPage(dictionary.dict))), entries: dictionary.dict.length });
  }
  const indexRegions: { offset: number; size: number }[] = [];
  for (let colIdx = 0; colIdx < columns.length; colIdx++) {
    indexRegions.push(await appendCompressed(new TextEncoder().encode(JSON.stringify(pageIndexes[colIdx]))));
  }
  let shortKey: { offset: number; size: number } | null = null;
  if (options.numShortKeyColumns > 0 && numRows > 0) {
    const keyCount = options.numShortKeyColumns;
    shortKey = await appendCompressed(buildShortKeyIndex(encoded.slice(0, keyCount), kinds.slice(0, keyCount), numRows));
  }
  const footer: SegmentFooterJson = {
    version: SEGMENT_FORMAT_VERSION,
    numRows,
    compression: options.compression,
    numShortKeyColumns: options.numShortKeyColumns,
    shortKey,
    columns: partial.map((column, colIdx) => ({ ...column, dict: dictRegions[colIdx], index: indexRegions[colIdx] })),
  };
  const footerBytes = new TextEncoder().encode(JSON.stringify(footer));
  append(footerBytes);
  const trailer = new Uint8Array(12);
  const view = new DataView(trailer.buffer);
  view.setUint32(0, footerBytes.length, true);
  view.setUint32(4, crc32(footerBytes), true);
  trailer.set(new TextEncoder().encode(SEGMENT_MAGIC), 8);
  append(trailer);
  return parts;
}
