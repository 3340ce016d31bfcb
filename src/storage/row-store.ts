/**
 * The row store of Doris's `store_row_column` table property: every segment of the table also keeps each
 * whole row encoded in one hidden column (`__DORIS_ROW_STORE_COL__`, Doris's name), in small pages
 * (`row_store_page_size`, 16 KiB by default), so a point lookup reads one page of one column instead of
 * one page per column — on a cold object store, one ranged read instead of one per column. The columns
 * stored are all of the table's (`"store_row_column" = "true"`) or those `row_store_columns` names.
 *
 * A row is a sequence of (column unique id as a varint, a tag, the value: NULL; the little-endian bytes
 * of a fixed-width value; a string's length and bytes; for any other form a one-row column page of
 * encoding/page-encoding.ts), so every column type round-trips, and a column added, dropped or renamed
 * after the segment was written is recognised by its unique id (Doris keys its JSONB rows by column
 * unique id too). The segment writer gets the column from withRowStoreColumn (called
 * by the memtable flush); readers ask readRowStoreRows, which answers null whenever the row store cannot
 * serve a read (then the columns are read one by one).
 */
import { concatVectors, newFixedArray, toPlainStrings, vectorFromRaw, type StringVector, type Vector } from '../common/column';
import { GaleneError } from '../common/errors';
import type { ProfileSink } from '../common/profile';
import { physicalKind, Types, typesEqual, type DataType } from '../common/types';
import type { TableSchema } from '../meta/schema';
import { ByteReader, ByteWriter } from './encoding/byte-buffer';
import { decodePage, encodePage } from './encoding/page-encoding';
import type { SegmentReader } from './segment-reader';
import type { SegmentColumn, SegmentWriteOptions } from './segment-writer';

/** Doris's name of the hidden row-store column (BeConsts::ROW_STORE_COL). */
export const ROW_STORE_COLUMN = '__DORIS_ROW_STORE_COL__';
/** The hidden column's unique id: never a user column's (those count up from 0). */
export const ROW_STORE_COLUMN_UNIQUE_ID = -2;
/** Doris `row_store_page_size` default: 16 KiB pages, so a lookup reads little beyond its row. */
export const DEFAULT_ROW_STORE_PAGE_SIZE = 16384;
/** Lookups of more rows than this read the columns instead (the row store pays for a few rows). */
const MAX_ROW_STORE_ROWS = 64;

/** Which columns (schema positions) a table's row store holds, and its page size; null: no row store. */
export interface RowStoreSpec {
  readonly colIdxs: readonly number[];
  readonly pageSize: number;
}

/** The row store a table's properties ask for (`store_row_column`, `row_store_columns`, `row_store_page_size`). */
export function rowStoreSpec(schema: Pick<TableSchema, 'properties' | 'columns'>): RowStoreSpec | null {
  const properties = schema.properties;
  const listed = (properties['row_store_columns'] ?? '').trim();
  const enabled = (properties['store_row_column'] ?? 'false').trim().toLowerCase() === 'true';
  if (!enabled && listed === '') return null;
  const pageSize = properties['row_store_page_size'] === undefined ? DEFAULT_ROW_STORE_PAGE_SIZE : Number(properties['row_store_page_size']);
  if (!Number.isSafeInteger(pageSize) || pageSize <= 0) throw new GaleneError('INVALID_PROPERTY', ['row_store_page_size', `${properties['row_store_page_size']} (expected a positive number of bytes)`]);
  if (listed === '') return { colIdxs: schema.columns.map((_column, colIdx) => colIdx), pageSize };
  const colIdxs: number[] = [];
  for (const name of listed.split(',').map((part) => part.trim().toLowerCase())) {
    const colIdx = schema.columns.findIndex((column) => column.name.toLowerCase() === name);
    if (colIdx < 0) throw new GaleneError('INVALID_PROPERTY', ['row_store_columns', `${name} (not a column of the table)`]);
    if (!colIdxs.includes(colIdx)) colIdxs.push(colIdx);
  }
  return { colIdxs: colIdxs.sort((a, b) => a - b), pageSize };
}

/**
 * The columns, vectors and options writeSegment is given for a segment of `schema`'s table: as they are
 * without a row store, else with the row-store column appended (plain strings, its own page size).
 */
export function withRowStoreColumn(schema: TableSchema, columns: readonly SegmentColumn[], data: readonly Vector[], options: SegmentWriteOptions): { columns: readonly SegmentColumn[]; data: readonly Vector[]; options: SegmentWriteOptions } {
  const spec = rowStoreSpec(schema);
  if (spec === null || data.length === 0) return { columns, data, options };
  const rowColumn: SegmentColumn = { name: ROW_STORE_COLUMN, type: Types.STRING, uniqueId: ROW_STORE_COLUMN_UNIQUE_ID };
  return {
    columns: [...columns, rowColumn],
    data: [...data, encodeRows(spec.colIdxs.map((colIdx) => ({ uniqueId: columns[colIdx].uniqueId, vec: data[colIdx] })), data[0].length)],
    options: { ...options, columnOptions: { ...options.columnOptions, [ROW_STORE_COLUMN]: { pageByteLimit: spec.pageSize, plain: true } } },
  };
}

const VALUE_NULL = 0;
/** A fixed-width value: its little-endian bytes, as in the column's typed array. */
const VALUE_FIXED = 1;
/** A string: varint length, UTF-8 bytes. */
const VALUE_STRING = 2;
/** Any other form (BIGINT beyond 64 bits, arrays): varint length, a one-row page of page-encoding.ts. */
const VALUE_PAGE = 3;

/**
 * Every row of `columns` encoded as one value of a string vector (the row-store column): per column its
 * unique id (varint), a tag, and the value.
 */
export function encodeRows(columns: readonly { readonly uniqueId: number; readonly vec: Vector }[], numRows: number): StringVector {
  const vectors = columns.map(({ vec }) => (vec.kind === 'dict' ? toPlainStrings(vec) : vec));
  const out = new ByteWriter(numRows * columns.length * 8 + 64);
  const offsets = new Int32Array(numRows + 1);
  for (let rowIdx = 0; rowIdx < numRows; rowIdx++) {
    for (let colIdx = 0; colIdx < columns.length; colIdx++) {
      const vec = vectors[colIdx];
      out.varint(columns[colIdx].uniqueId);
      if (vec.nulls !== null && vec.nulls[rowIdx] === 1) out.u8(VALUE_NULL);
      else if (vec.kind === 'fixed') {
        const width = vec.values.BYTES_PER_ELEMENT;
        out.u8(VALUE_FIXED);
        out.bytes(new Uint8Array(vec.values.buffer, vec.values.byteOffset + rowIdx * width, width));
      } else if (vec.kind === 'string') {
        out.u8(VALUE_STRING);
        out.varint(vec.offsets[rowIdx + 1] - vec.offsets[rowIdx]);
        out.bytes(vec.bytes.subarray(vec.offsets[rowIdx], vec.offsets[rowIdx + 1]));
      } else {
        const page = encodePage(vec, rowIdx, rowIdx + 1);
        out.u8(VALUE_PAGE);
        out.varint(page.length);
        out.bytes(page);
      }
    }
    offsets[rowIdx + 1] = out.pos;
  }
  return { kind: 'string', type: Types.STRING, length: numRows, offsets, bytes: out.finish(), nulls: null };
}

/** One value of a row as a one-row vector of `type`. */
function decodeValue(input: ByteReader, type: DataType, what: string): Vector {
  const tag = input.u8();
  if (tag === VALUE_NULL) return vectorFromRaw(type, [null]);
  if (tag === VALUE_FIXED) {
    const values = newFixedArray(physicalKind(type), 1);
    new Uint8Array(values.buffer, values.byteOffset, values.BYTES_PER_ELEMENT).set(input.bytes(values.BYTES_PER_ELEMENT));
    return { kind: 'fixed', type, length: 1, values, nulls: null };
  }
  if (tag === VALUE_STRING) {
    const bytes = input.bytes(input.varint());
    return { kind: 'string', type, length: 1, offsets: Int32Array.of(0, bytes.length), bytes, nulls: null };
  }
  if (tag === VALUE_PAGE) return decodePage(input.bytes(input.varint()), type, null, what);
  return input.fail(`unknown value tag ${tag}`);
}

/** Skip one value (a column the read does not ask for). */
function skipValue(input: ByteReader, type: DataType | undefined): void {
  const tag = input.u8();
  if (tag === VALUE_NULL) return;
  if (tag === VALUE_FIXED && type !== undefined) input.bytes(newFixedArray(physicalKind(type), 0).BYTES_PER_ELEMENT);
  else if (tag === VALUE_STRING || tag === VALUE_PAGE) input.bytes(input.varint());
  else input.fail(`cannot skip a value with tag ${tag}`);
}

/** A column to read from the row store: its name, type and unique id as the table has them now. */
export interface RowStoreColumn {
  readonly name: string;
  readonly type: SegmentColumn['type'];
  readonly uniqueId: number;
}

/**
 * Rows `rowIds` (ascending) of `columns`, one vector per column, from the segment's row-store column: one
 * page of one column. Null when the segment has no row store, there are too many rows, or a column is not
 * in it as the table has it now (added later, renamed, another type): the caller reads the columns.
 */
export async function readRowStoreRows(reader: SegmentReader, columns: readonly RowStoreColumn[], rowIds: Int32Array, profile: ProfileSink): Promise<Vector[] | null> {
  if (rowIds.length === 0 || rowIds.length > MAX_ROW_STORE_ROWS || !reader.columns.some((column) => column.name === ROW_STORE_COLUMN)) return null;
  for (const column of columns) {
    const stored = reader.columns.find((candidate) => candidate.uniqueId === column.uniqueId);
    if (stored === undefined || stored.name !== column.name || !typesEqual(stored.type, column.type)) return null;
  }
  const rows = await reader.readRows(ROW_STORE_COLUMN, rowIds, profile);
  if (rows.kind !== 'string') return null;
  const perColumn: Vector[][] = columns.map(() => []);
  const what = `${reader.key}: row store`;
  const wanted = new Map(columns.map((column, colIdx) => [column.uniqueId, colIdx]));
  const storedTypes = new Map(reader.columns.map((column) => [column.uniqueId, column.type]));
  for (let rowIdx = 0; rowIdx < rows.length; rowIdx++) {
    const input = new ByteReader(rows.bytes.subarray(rows.offsets[rowIdx], rows.offsets[rowIdx + 1]), what);
    let found = 0;
    while (input.pos < input.buf.length) {
      const uniqueId = input.varint();
      const colIdx = wanted.get(uniqueId);
      if (colIdx === undefined) skipValue(input, storedTypes.get(uniqueId));
      else {
        perColumn[colIdx].push(decodeValue(input, columns[colIdx].type, `${what}, column ${columns[colIdx].name}`));
        found++;
      }
    }
    if (found !== columns.length) return null; // a column not in row_store_columns
  }
  return perColumn.map((parts, colIdx) => (parts.length === 1 ? parts[0] : concatVectors(columns[colIdx].type, parts)));
}
