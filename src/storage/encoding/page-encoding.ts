/**
 * One column page, encoded and decoded: header (flags, row count), an optional null map, then the values
 * in the form that pays for this page (numeric-encoding.ts for fixed widths; offsets + bytes or
 * dictionary codes for strings; 64-bit or 128-bit two's complement for bigint columns).
 *
 * Decoding produces the in-memory vectors of column.ts directly, as views over the page buffer where the
 * layout allows (plain fixed values, string offsets and bytes), so a decoded page costs little more than
 * its bytes. Dictionary pages decode to a DictVector sharing the segment column's dictionary, so GROUP BY
 * and filters can work on codes.
 */
import { countNulls, nullsIfAny, toPlainStrings, type FixedArray, type Vector } from '../../common/column';
import type { DataType } from '../../common/types';
import { elementType, physicalKind, structFields } from '../../common/types';
import { bitWidth, packBits, packedWords, unpackBits } from './bit-pack';
import { ByteReader, ByteWriter } from './byte-buffer';
import { readNullMap, writeNullMap } from './null-map';
import { readFixedValues, writeFixedValues } from './numeric-encoding';

const FLAG_NULLS = 1;
const BIG_I64 = 1;
const BIG_128 = 2;
const STR_PLAIN = 1;
const STR_DICT = 2;

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/**
 * Encode rows [start, end) of `vec` into a raw (uncompressed) page. For a dictionary-encoded string
 * column, pass `dictCodes` (the code of every row of the whole column) and the dictionary size.
 */
export function encodePage(vec: Vector, start: number, end: number, dictCodes: { codes: Int32Array; size: number } | null = null): Uint8Array {
  const count = end - start;
  const kind = physicalKind(vec.type);
  const nullCount = countNulls(vec.nulls, start, end);
  const out = new ByteWriter(64 + count * 9);
  out.u8(nullCount > 0 ? FLAG_NULLS : 0);
  out.u32(count);
  if (nullCount > 0) writeNullMap(out, vec.nulls!, start, end);
  if (kind === 'string') {
    if (dictCodes !== null) {
      const width = bitWidth(dictCodes.size - 1);
      out.u8(STR_DICT);
      out.u8(width);
      out.typed(packBits(dictCodes.codes.subarray(start, end), count, width));
    } else {
      if (vec.kind !== 'string') throw new RangeError('encodePage: plain string pages need a StringVector');
      const base = vec.offsets[start];
      const offsets = new Int32Array(count + 1);
      for (let rowIdx = 0; rowIdx <= count; rowIdx++) offsets[rowIdx] = vec.offsets[start + rowIdx] - base;
      out.u8(STR_PLAIN);
      out.u32(offsets[count]);
      out.typed(offsets);
      out.bytes(vec.bytes.subarray(base, base + offsets[count]));
    }
  } else if (kind === 'bigint') {
    if (vec.kind !== 'object') throw new RangeError('encodePage: bigint pages need an ObjectVector');
    const values = vec.values;
    let narrow = true;
    for (let rowIdx = start; rowIdx < end; rowIdx++) {
      const value = values[rowIdx];
      if (value < I64_MIN || value > I64_MAX) {
        if (vec.nulls === null || vec.nulls[rowIdx] === 0) {
          narrow = false;
          break;
        }
      }
    }
    if (narrow) {
      const words = new BigInt64Array(count);
      for (let rowIdx = 0; rowIdx < count; rowIdx++) {
        const value = values[start + rowIdx];
        words[rowIdx] = value < I64_MIN || value > I64_MAX ? 0n : value;
      }
      out.u8(BIG_I64);
      writeFixedValues(out, 'i64', words, 0, count, vec.nulls ? vec.nulls.subarray(start, end) : null);
    } else {
      const words = new BigInt64Array(count * 2);
      for (let rowIdx = 0; rowIdx < count; rowIdx++) {
        const value = values[start + rowIdx];
        words[rowIdx * 2] = BigInt.asIntN(64, value);
        words[rowIdx * 2 + 1] = BigInt.asIntN(64, value >> 64n);
      }
      out.u8(BIG_128);
      out.typed(words);
    }
  } else if (kind === 'list') {
    if (vec.kind !== 'array') throw new RangeError('encodePage: array pages need an ArrayVector');
    // Arrow's list layout: the rows' offsets (rebased to 0), then the elements as one nested page.
    const base = vec.offsets[start];
    const offsets = new Int32Array(count + 1);
    for (let rowIdx = 0; rowIdx <= count; rowIdx++) offsets[rowIdx] = vec.offsets[start + rowIdx] - base;
    const child = vec.child.kind === 'dict' ? toPlainStrings(vec.child) : vec.child;
    const childPage = encodePage(child, base, base + offsets[count]);
    out.typed(offsets);
    out.u32(childPage.length);
    out.bytes(childPage);
  } else if (kind === 'struct') {
    if (vec.kind !== 'struct') throw new RangeError('encodePage: struct pages need a StructVector');
    // One nested page per field, each over the same rows (the struct's null map is above).
    for (const fieldVec of vec.children) {
      const fieldPage = encodePage(fieldVec.kind === 'dict' ? toPlainStrings(fieldVec) : fieldVec, start, end);
      out.u32(fieldPage.length);
      out.bytes(fieldPage);
    }
  } else {
    if (vec.kind !== 'fixed') throw new RangeError(`encodePage: ${kind} pages need a FixedVector`);
    writeFixedValues(out, kind, vec.values, start, end, vec.nulls);
  }
  return out.finish();
}

/**
 * Decode a raw page of a column of `type`. `dict` is the segment column's dictionary (dictionary-encoded
 * string columns only). `what` names the page in corruption messages.
 */
export function decodePage(raw: Uint8Array, type: DataType, dict: readonly string[] | null, what: string): Vector {
  const input: ByteReader = new ByteReader(raw, what);
  const flags = input.u8();
  const count = input.u32();
  // A page stores a null map only when it has a NULL; nullsIfAny keeps an all-zero map (an older or
  // foreign writer) off the kernels' null paths too.
  const nulls = flags & FLAG_NULLS ? nullsIfAny(readNullMap(input, count), count) : null;
  const kind = physicalKind(type);
  if (kind === 'string') {
    const form = input.u8();
    if (form === STR_DICT) {
      if (dict === null) input.fail('dictionary page without a dictionary');
      const width = input.u8();
      if (width > 31) input.fail(`bad code width ${width}`);
      const codes = new Int32Array(count);
      unpackBits(input.typed(Uint32Array, packedWords(count, width)), count, width, new Uint32Array(codes.buffer));
      const dictSize = dict.length;
      for (let rowIdx = 0; rowIdx < count; rowIdx++) {
        if (codes[rowIdx] >= dictSize && (nulls === null || nulls[rowIdx] === 0)) input.fail('dictionary code out of range');
      }
      return { kind: 'dict', type, length: count, codes, dict, nulls };
    }
    if (form !== STR_PLAIN) input.fail(`unknown string encoding ${form}`);
    const byteLength = input.u32();
    const offsets = input.typed(Int32Array, count + 1);
    if (offsets[0] !== 0 || offsets[count] !== byteLength) input.fail('string offsets do not match the byte length');
    const bytes = input.bytes(byteLength);
    return { kind: 'string', type, length: count, offsets, bytes, nulls };
  }
  if (kind === 'bigint') {
    const form = input.u8();
    const values = new Array<bigint>(count);
    if (form === BIG_I64) {
      const words = readFixedValues(input, 'i64', count) as BigInt64Array;
      for (let rowIdx = 0; rowIdx < count; rowIdx++) values[rowIdx] = words[rowIdx];
    } else if (form === BIG_128) {
      const words = input.typed(BigInt64Array, count * 2);
      for (let rowIdx = 0; rowIdx < count; rowIdx++) values[rowIdx] = (words[rowIdx * 2 + 1] << 64n) | BigInt.asUintN(64, words[rowIdx * 2]);
    } else {
      input.fail(`unknown bigint encoding ${form}`);
    }
    return { kind: 'object', type, length: count, values, nulls };
  }
  if (kind === 'list') {
    const offsets = input.typed(Int32Array, count + 1);
    const childPage = input.bytes(input.u32());
    const child = decodePage(childPage, elementType(type), null, `${what} (elements)`);
    if (offsets[0] !== 0 || offsets[count] !== child.length) input.fail('array offsets do not match the element count');
    for (let rowIdx = 0; rowIdx < count; rowIdx++) if (offsets[rowIdx + 1] < offsets[rowIdx]) input.fail('array offsets decrease');
    return { kind: 'array', type, length: count, offsets, child, nulls };
  }
  if (kind === 'struct') {
    const children = structFields(type).map((field) => {
      const child = decodePage(input.bytes(input.u32()), field.type, null, `${what} (field ${field.name})`);
      if (child.length !== count) input.fail('struct field row count does not match');
      return child;
    });
    return { kind: 'struct', type, length: count, children, nulls };
  }
  const values: FixedArray = readFixedValues(input, kind, count);
  return { kind: 'fixed', type, length: count, values, nulls };
}

/** Bytes a decoded vector holds (page-cache accounting); a dictionary is counted by its codes only. */
export function vectorBytes(vec: Vector): number {
  const nullBytes = vec.nulls ? vec.nulls.byteLength : 0;
  switch (vec.kind) {
    case 'fixed':
      return vec.values.byteLength + nullBytes + 64;
    case 'string':
      return vec.offsets.byteLength + vec.bytes.byteLength + nullBytes + 64;
    case 'dict':
      return vec.codes.byteLength + nullBytes + 64;
    case 'object':
      return vec.length * 40 + nullBytes + 64;
    case 'array':
      return vec.offsets.byteLength + vectorBytes(vec.child) + nullBytes + 64;
    case 'struct':
      return vec.children.reduce((sum, child) => sum + vectorBytes(child), nullBytes + 64);
  }
}
