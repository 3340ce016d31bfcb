/**
 * Segment-level string dictionaries. A string column whose distinct values are few (relative to its rows,
 * and at most DICT_MAX_ENTRIES / DICT_MAX_BYTES) stores one sorted dictionary page and bit-packed codes in
 * every data page, as Doris's dictionary pages do. Sorting the dictionary (by UTF-8 bytes) makes code order
 * equal value order, so ranges over codes mean ranges over values.
 */
import type { Vector } from '../../common/column';
import { decodeUtf8, encodeUtf8 } from '../../common/column';
import { compareStrings } from '../../common/utf8';
import { ByteReader, ByteWriter } from './byte-buffer';

export const DICT_MAX_ENTRIES = 65536;
export const DICT_MAX_BYTES = 4 * 1024 * 1024;

export interface StringDictionary {
  /** Distinct non-null values, ascending by UTF-8 bytes. */
  readonly dict: string[];
  /** Code of every row (0 under NULL rows). */
  readonly codes: Int32Array;
}

/**
 * The dictionary of a string vector, or null when dictionary encoding would not pay (more than half the
 * rows distinct, or too many / too large entries).
 */
export function buildDictionary(vec: Vector): StringDictionary | null {
  if (vec.kind !== 'string' && vec.kind !== 'dict') return null;
  const rowCount = vec.length;
  const limit = Math.min(DICT_MAX_ENTRIES, Math.max(1, Math.floor(rowCount / 2)));
  const firstCode = new Map<string, number>();
  const rawCodes = new Int32Array(rowCount);
  let dictBytes = 0;
  const nulls = vec.nulls;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    if (nulls !== null && nulls[rowIdx] === 1) continue;
    const value = vec.kind === 'dict' ? vec.dict[vec.codes[rowIdx]] : decodeUtf8(vec.bytes, vec.offsets[rowIdx], vec.offsets[rowIdx + 1]);
    let code = firstCode.get(value);
    if (code === undefined) {
      code = firstCode.size;
      if (code >= limit) return null;
      dictBytes += value.length * 3 + 4;
      if (dictBytes > DICT_MAX_BYTES) return null;
      firstCode.set(value, code);
    }
    rawCodes[rowIdx] = code;
  }
  const unsorted = [...firstCode.keys()];
  const order = unsorted.map((_value, idx) => idx).sort((a, b) => compareStrings(unsorted[a], unsorted[b]));
  const remap = new Int32Array(unsorted.length);
  const dict = new Array<string>(unsorted.length);
  order.forEach((oldCode, newCode) => {
    remap[oldCode] = newCode;
    dict[newCode] = unsorted[oldCode];
  });
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    rawCodes[rowIdx] = nulls !== null && nulls[rowIdx] === 1 ? 0 : remap[rawCodes[rowIdx]];
  }
  return { dict, codes: rawCodes };
}

/** Raw (uncompressed) dictionary page: count, offsets, UTF-8 bytes. */
export function encodeDictPage(dict: readonly string[]): Uint8Array {
  const encoded = dict.map((value) => encodeUtf8(value));
  const offsets = new Int32Array(dict.length + 1);
  for (let entryIdx = 0; entryIdx < encoded.length; entryIdx++) offsets[entryIdx + 1] = offsets[entryIdx] + encoded[entryIdx].length;
  const out = new ByteWriter(offsets[dict.length] + offsets.byteLength + 16);
  out.u32(dict.length);
  out.typed(offsets);
  for (const bytes of encoded) out.bytes(bytes);
  return out.finish();
}

/** encodeDictPage of the values bytes[offsets[row], offsets[row + 1]) of `rows`, in order, when those bytes are each value's UTF-8. */
export function encodeDictPageOfRanges(bytes: Uint8Array, offsets: Int32Array, rows: Int32Array): Uint8Array {
  const pageOffsets = new Int32Array(rows.length + 1);
  for (let entryIdx = 0; entryIdx < rows.length; entryIdx++) pageOffsets[entryIdx + 1] = pageOffsets[entryIdx] + offsets[rows[entryIdx] + 1] - offsets[rows[entryIdx]];
  const out = new ByteWriter(pageOffsets[rows.length] + pageOffsets.byteLength + 16);
  out.u32(rows.length);
  out.typed(pageOffsets);
  const values = new Uint8Array(pageOffsets[rows.length]);
  for (let entryIdx = 0; entryIdx < rows.length; entryIdx++) {
    const start = offsets[rows[entryIdx]];
    const base = pageOffsets[entryIdx] - start;
    for (let byteIdx = start; byteIdx < offsets[rows[entryIdx] + 1]; byteIdx++) values[base + byteIdx] = bytes[byteIdx];
  }
  out.bytes(values);
  return out.finish();
}

export function decodeDictPage(raw: Uint8Array, what: string): string[] {
  const input = new ByteReader(raw, what);
  const count = input.u32();
  const offsets = input.typed(Int32Array, count + 1);
  const bytes = input.bytes(offsets[count]);
  const dict = new Array<string>(count);
  for (let entryIdx = 0; entryIdx < count; entryIdx++) dict[entryIdx] = decodeUtf8(bytes, offsets[entryIdx], offsets[entryIdx + 1]);
  return dict;
}
