/**
 * The byte form of a Batch inside a Group Commit WAL record: columns in table order, each as its typed
 * array bytes (fixed width), offsets + bytes (strings) or decimal text (LARGEINT / wide DECIMAL), with an
 * optional null map; an ARRAY column is one raw segment page (its own null map, offsets and a nested
 * element page, storage/encoding/page-encoding.ts). Decoding needs the column types (taken from the table, matched by column unique id
 * through the WAL header) and gives back vectors of the same physical kinds, so replayed rows are
 * bit-for-bit the rows the load converted.
 */
import { Batch, FixedArray, toPlainStrings, Vector } from '../../common/column';
import { GaleneError } from '../../common/errors';
import type { DataType } from '../../common/types';
import { decodePage, encodePage } from '../../storage/encoding/page-encoding';

const enum ColumnTag {
  Fixed = 0,
  String = 1,
  BigIntText = 2,
  ArrayPage = 3,
}

/** Typed-array kinds, stored so decoding rebuilds the very array type the writer had. */
const ARRAY_KINDS = ['Uint8Array', 'Int8Array', 'Int16Array', 'Int32Array', 'BigInt64Array', 'Float32Array', 'Float64Array'] as const;
const ARRAY_CTORS = [Uint8Array, Int8Array, Int16Array, Int32Array, BigInt64Array, Float32Array, Float64Array] as const;

function arrayKindOf(values: FixedArray): number {
  const idx = ARRAY_KINDS.indexOf(values.constructor.name as (typeof ARRAY_KINDS)[number]);
  if (idx < 0) throw new GaleneError('INTERNAL', [`WAL: cannot encode ${values.constructor.name}`]);
  return idx;
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

const bytesOf = (array: ArrayBufferView): Uint8Array => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

/** Encode `batch` as one WAL record payload. */
export function encodeBatch(batch: Batch): Buffer {
  const parts: Uint8Array[] = [];
  const head = Buffer.alloc(8);
  head.writeUInt32LE(batch.length, 0);
  head.writeUInt32LE(batch.columns.length, 4);
  parts.push(head);
  const rowCount = batch.length;
  for (const column of batch.columns) {
    const vec: Vector = column.kind === 'dict' ? toPlainStrings(column) : column;
    const colHead = Buffer.alloc(8);
    if (vec.kind === 'array' || vec.kind === 'struct') {
      // The page carries its own null map (the header's null flag stays 0).
      const page = encodePage(vec, 0, rowCount);
      colHead.writeUInt8(ColumnTag.ArrayPage, 0);
      colHead.writeUInt32LE(page.length, 4);
      parts.push(colHead, page);
      continue;
    }
    colHead.writeUInt8(vec.nulls ? 1 : 0, 1);
    if (vec.kind === 'fixed') {
      colHead.writeUInt8(ColumnTag.Fixed, 0);
      colHead.writeUInt8(arrayKindOf(vec.values), 2);
      const data = bytesOf(vec.values.subarray(0, rowCount));
      colHead.writeUInt32LE(data.length, 4);
      parts.push(colHead);
      if (vec.nulls) parts.push(vec.nulls.subarray(0, rowCount));
      parts.push(data);
    } else if (vec.kind === 'string') {
      colHead.writeUInt8(ColumnTag.String, 0);
      const base = vec.offsets[0];
      const end = vec.offsets[rowCount];
      let offsets: Int32Array = vec.offsets.subarray(0, rowCount + 1);
      if (base !== 0) offsets = offsets.map((offset) => offset - base);
      colHead.writeUInt32LE(end - base, 4);
      parts.push(colHead);
      if (vec.nulls) parts.push(vec.nulls.subarray(0, rowCount));
      parts.push(bytesOf(offsets), vec.bytes.subarray(base, end));
    } else if (vec.kind === 'object') {
      colHead.writeUInt8(ColumnTag.BigIntText, 0);
      const text = textEncoder.encode(vec.values.slice(0, rowCount).join(','));
      colHead.writeUInt32LE(text.length, 4);
      parts.push(colHead);
      if (vec.nulls) parts.push(vec.nulls.subarray(0, rowCount));
      parts.push(text);
    } else {
      throw new GaleneError('INTERNAL', ['WAL: unexpected vector kind']);
    }
  }
  return Buffer.concat(parts);
}

/** Decode a record payload written by encodeBatch; `types` are the table's column types in order. */
export function decodeBatch(payload: Uint8Array, types: readonly DataType[]): Batch {
  const view = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  const bad = (why: string): GaleneError => new GaleneError('CORRUPTION', [`WAL record: ${why}`]);
  if (view.length < 8) throw bad('too short');
  const rowCount = view.readUInt32LE(0);
  const colCount = view.readUInt32LE(4);
  if (colCount !== types.length) throw bad(`${colCount} columns, the table has ${types.length}`);
  let pos = 8;
  const take = (length: number): Uint8Array => {
    if (pos + length > view.length) throw bad('truncated column');
    // Copied: typed arrays need their own aligned buffer, and the file buffer can then be dropped.
    const out = new Uint8Array(length);
    out.set(view.subarray(pos, pos + length));
    pos += length;
    return out;
  };
  const columns: Vector[] = [];
  for (let colIdx = 0; colIdx < colCount; colIdx++) {
    if (pos + 8 > view.length) throw bad('truncated column header');
    const tag = view.readUInt8(pos) as ColumnTag;
    const hasNulls = view.readUInt8(pos + 1) === 1;
    const arrayKind = view.readUInt8(pos + 2);
    const dataLength = view.readUInt32LE(pos + 4);
    pos += 8;
    const nulls = hasNulls ? take(rowCount) : null;
    const type = types[colIdx];
    if (tag === ColumnTag.Fixed) {
      const Ctor = ARRAY_CTORS[arrayKind];
      if (!Ctor) throw bad(`array kind ${arrayKind}`);
      const data = take(dataLength);
      if (dataLength !== rowCount * Ctor.BYTES_PER_ELEMENT) throw bad('fixed column length');
      columns.push({ kind: 'fixed', type, length: rowCount, values: new Ctor(data.buffer as ArrayBuffer, 0, rowCount), nulls });
    } else if (tag === ColumnTag.String) {
      const offsetBytes = take((rowCount + 1) * 4);
      const offsets = new Int32Array(offsetBytes.buffer, 0, rowCount + 1);
      const bytes = take(dataLength);
      if (offsets[rowCount] !== dataLength) throw bad('string offsets');
      columns.push({ kind: 'string', type, length: rowCount, offsets, bytes, nulls });
    } else if (tag === ColumnTag.ArrayPage) {
      const vec = decodePage(take(dataLength), type, null, 'WAL record array column');
      if (vec.length !== rowCount) throw bad('array column length');
      columns.push(vec);
    } else if (tag === ColumnTag.BigIntText) {
      const text = textDecoder.decode(take(dataLength));
      const values = rowCount === 0 ? [] : text.split(',').map((item) => BigInt(item));
      if (values.length !== rowCount) throw bad('bigint column length');
      columns.push({ kind: 'object', type, length: rowCount, values, nulls });
    } else {
      throw bad(`column tag ${tag as number}`);
    }
  }
  return { length: rowCount, columns };
}
