/**
 * Column vectors: the in-memory columnar layout shared by storage (decoded pages) and exec (operators).
 *
 * A vector holds `length` values of one DataType in the physical form listed in types.ts, plus an optional
 * null map (one byte per row, 1 = NULL, as Doris's ColumnNullable does). Values under a NULL are
 * unspecified but valid for their array.
 *
 * `nulls === null` means every row is valid, and kernels test it first to skip all null work. The
 * producers here and in storage/ (page decode, takeRows/selectRows, sliceVector, concatVectors,
 * VectorBuilder) drop a null map that has no NULL in it, so an all-valid batch cut from a nullable page
 * or picked by a filter takes that path; a non-null map may still be all zero when it comes from
 * elsewhere (it is never wrong, only slower). `nullCount` and `anyNullIn` count without allocating.
 *
 * Deviation from DESIGN §3 (validity as a bitmap, Arrow-like): measured by bench/nullmaps.ts (see
 * docs/architecture.md, "Null maps"), a bitmap is as fast on the filter and aggregate kernels and 6-20x
 * faster to decode from a page and to OR for NULL propagation, at an eighth of the memory. The switch
 * touches every kernel and is left to its own change; until then the byte map stays.
 *
 * Strings have two forms: plain (`offsets` + UTF-8 `bytes`, Arrow-like) and dictionary (`codes` into a
 * small `dict` of JS strings), which storage produces for dictionary-encoded pages so that GROUP BY and
 * filters can work on integer codes.
 *
 * Arrays (ARRAY<T>) use Arrow's list layout: `offsets` (length + 1 entries, positions in `child`; a slice
 * may start above 0) and one `child` vector of T holding every element end to end, with its own null map
 * for NULL elements. A FLOAT child is a FixedVector over one Float32Array, so vector kernels (distances,
 * the ANN index) read `child.values.subarray(offsets[row], offsets[row + 1])` without copying.
 *
 * Structs (STRUCT<...>) hold one child vector per field, each `length` long, plus the rows' null map; a
 * MAP<K,V> is an ARRAY of STRUCT<key:K,value:V> entries (Arrow's map layout), so it is an ArrayVector.
 *
 * "Raw" values are the physical values: number, bigint or string (decimals scaled, dates as day numbers,
 * datetimes as microseconds); an array's raw value is a JS array of its elements' raw values, a struct's a JS
 * array of its fields' raw values, a map's a JS array of [key, value] entries (row-at-a-time
 * paths only: INSERT rows, literals, CAST from text). `convert.ts` turns them into text.
 */
import { DataType, elementType, PhysicalKind, physicalKind, structFields } from './types';

export type FixedArray = Uint8Array | Int8Array | Int16Array | Int32Array | BigInt64Array | Float32Array | Float64Array;
export type RawValue = number | bigint | string | null | RawArray;
/** The raw value of one ARRAY row. */
export type RawArray = readonly RawValue[];

export interface FixedVector {
  readonly kind: 'fixed';
  readonly type: DataType;
  readonly length: number;
  readonly values: FixedArray;
  readonly nulls: Uint8Array | null;
}

export interface StringVector {
  readonly kind: 'string';
  readonly type: DataType;
  readonly length: number;
  /** length + 1 entries; value i is bytes[offsets[i], offsets[i+1]). */
  readonly offsets: Int32Array;
  readonly bytes: Uint8Array;
  readonly nulls: Uint8Array | null;
}

export interface DictVector {
  readonly kind: 'dict';
  readonly type: DataType;
  readonly length: number;
  readonly codes: Int32Array;
  readonly dict: readonly string[];
  readonly nulls: Uint8Array | null;
}

/** bigint[] values: LARGEINT and wide DECIMAL. */
export interface ObjectVector {
  readonly kind: 'object';
  readonly type: DataType;
  readonly length: number;
  readonly values: bigint[];
  readonly nulls: Uint8Array | null;
}

/** ARRAY<T>: Arrow's list layout (see the header). Row i is child[offsets[i], offsets[i+1]). */
export interface ArrayVector {
  readonly kind: 'array';
  readonly type: DataType;
  readonly length: number;
  readonly offsets: Int32Array;
  readonly child: Vector;
  readonly nulls: Uint8Array | null;
}

/** STRUCT<...>: one child per field, each as long as the vector. */
export interface StructVector {
  readonly kind: 'struct';
  readonly type: DataType;
  readonly length: number;
  readonly children: readonly Vector[];
  readonly nulls: Uint8Array | null;
}

export type Vector = FixedVector | StringVector | DictVector | ObjectVector | ArrayVector | StructVector;

/** A set of equally long columns; the unit operators pass along (~4K rows). */
export interface Batch {
  readonly length: number;
  readonly columns: Vector[];
}

export const BATCH_SIZE = 4096;

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

export function encodeUtf8(s: string): Uint8Array {
  return textEncoder.encode(s);
}

/** Decode UTF-8, with a fast path for short ASCII (most keys and codes). */
export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  const len = end - start;
  if (len <= 32) {
    let ascii = true;
    for (let byteIdx = start; byteIdx < end; byteIdx++) {
      if (bytes[byteIdx] > 0x7f) {
        ascii = false;
        break;
      }
    }
    if (ascii) return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
  }
  return textDecoder.decode(bytes.subarray(start, end));
}

export function newFixedArray(kind: PhysicalKind, length: number): FixedArray {
  switch (kind) {
    case 'u8':
      return new Uint8Array(length);
    case 'i8':
      return new Int8Array(length);
    case 'i16':
      return new Int16Array(length);
    case 'i32':
      return new Int32Array(length);
    case 'i64':
      return new BigInt64Array(length);
    case 'f32':
      return new Float32Array(length);
    case 'f64':
      return new Float64Array(length);
    default:
      throw new RangeError(`no fixed array for ${kind}`);
  }
}

export function isNull(vec: Vector, rowIdx: number): boolean {
  return vec.nulls !== null && vec.nulls[rowIdx] === 1;
}

/** Count of NULL rows in nulls[start, end) (0 without a null map). */
export function countNulls(nulls: Uint8Array | null, start: number, end: number): number {
  if (nulls === null) return 0;
  let count = 0;
  for (let rowIdx = start; rowIdx < end; rowIdx++) count += nulls[rowIdx];
  return count;
}

/** Count of NULL rows of a vector: 0 at once for an all-valid vector (`nulls === null`). */
export function nullCount(vec: Vector): number {
  return countNulls(vec.nulls, 0, vec.length);
}

/**
 * True when nulls[start, end) holds a NULL. Stops at the first one (a column with NULLs answers at once)
 * and reads an all-valid range four rows at a time, so the producers that call it cost less than the null
 * work it saves.
 */
export function anyNullIn(nulls: Uint8Array | null, start: number, end: number): boolean {
  if (nulls === null) return false;
  let rowIdx = start;
  while (rowIdx < end && ((nulls.byteOffset + rowIdx) & 3) !== 0) if (nulls[rowIdx++] !== 0) return true;
  const words = (end - rowIdx) >>> 2;
  if (words >= 16) {
    const view = new Int32Array(nulls.buffer, nulls.byteOffset + rowIdx, words);
    for (let wordIdx = 0; wordIdx < words; wordIdx++) if (view[wordIdx] !== 0) return true;
    rowIdx += words << 2;
  }
  for (; rowIdx < end; rowIdx++) if (nulls[rowIdx] !== 0) return true;
  return false;
}

/**
 * The null map a producer gives a vector of `length` rows: `nulls` itself when a row is NULL, else null, so
 * that an all-valid batch takes every kernel's `nulls === null` path (see the header).
 */
export function nullsIfAny(nulls: Uint8Array | null, length: number): Uint8Array | null {
  return anyNullIn(nulls, 0, length) ? nulls : null;
}

/** Physical value at a row (NULL as null). Not for hot loops: kernels read the arrays directly. */
export function getRaw(vec: Vector, rowIdx: number): RawValue {
  if (vec.nulls !== null && vec.nulls[rowIdx] === 1) return null;
  switch (vec.kind) {
    case 'fixed':
      return vec.values[rowIdx];
    case 'string':
      return decodeUtf8(vec.bytes, vec.offsets[rowIdx], vec.offsets[rowIdx + 1]);
    case 'dict':
      return vec.dict[vec.codes[rowIdx]];
    case 'object':
      return vec.values[rowIdx];
    case 'array': {
      const out: RawValue[] = [];
      for (let elemIdx = vec.offsets[rowIdx]; elemIdx < vec.offsets[rowIdx + 1]; elemIdx++) out.push(getRaw(vec.child, elemIdx));
      return out;
    }
    case 'struct':
      return vec.children.map((child) => getRaw(child, rowIdx));
  }
}

/**
 * Grows a vector of one type value by value, then freezes it with `finish()`. Used by INSERT, loads and
 * operators whose output size is unknown in advance.
 */
export class VectorBuilder {
  readonly type: DataType;
  private readonly kind: PhysicalKind;
  private length = 0;
  private fixed: FixedArray | null = null;
  private objects: bigint[] | null = null;
  private offsets: Int32Array | null = null;
  private bytes: Uint8Array | null = null;
  private byteLength = 0;
  private nulls: Uint8Array;
  private hasNull = false;
  /** ARRAY: the elements' builder (offsets are kept in `offsets`, counting elements). */
  private child: VectorBuilder | null = null;
  /** STRUCT: one builder per field. */
  private fields: VectorBuilder[] | null = null;

  constructor(type: DataType, capacity = 1024) {
    this.type = type;
    this.kind = physicalKind(type);
    const cap = Math.max(16, capacity);
    this.nulls = new Uint8Array(cap);
    if (this.kind === 'struct') {
      this.fields = structFields(type).map((field) => new VectorBuilder(field.type, cap));
    } else if (this.kind === 'list') {
      this.offsets = new Int32Array(cap + 1);
      this.child = new VectorBuilder(elementType(type), cap * 4);
    } else if (this.kind === 'string') {
      this.offsets = new Int32Array(cap + 1);
      this.bytes = new Uint8Array(cap * 16);
    } else if (this.kind === 'bigint') {
      this.objects = [];
    } else {
      this.fixed = newFixedArray(this.kind, cap);
    }
  }

  get size(): number {
    return this.length;
  }

  private grow(): void {
    const cap = this.nulls.length * 2;
    const nulls = new Uint8Array(cap);
    nulls.set(this.nulls);
    this.nulls = nulls;
    if (this.fixed) {
      const next = newFixedArray(this.kind, cap);
      (next as Float64Array).set(this.fixed as Float64Array);
      this.fixed = next;
    }
    if (this.offsets) {
      const next = new Int32Array(cap + 1);
      next.set(this.offsets);
      this.offsets = next;
    }
  }

  /** Append a raw value (see column.ts header) or null. */
  append(value: RawValue): void {
    if (this.length === this.nulls.length) this.grow();
    const rowIdx = this.length++;
    if (value === null) {
      this.nulls[rowIdx] = 1;
      this.hasNull = true;
      if (this.fields) for (const field of this.fields) field.append(null);
      else if (this.child) this.offsets![rowIdx + 1] = this.child.size;
      else if (this.offsets) this.offsets[rowIdx + 1] = this.byteLength;
      else if (this.objects) this.objects.push(0n);
      return;
    }
    if (this.fields) {
      if (!Array.isArray(value)) throw new TypeError(`VectorBuilder: ${String(value)} is not a struct value`);
      this.fields.forEach((field, fieldIdx) => field.append((value as RawArray)[fieldIdx] ?? null));
    } else if (this.child) {
      if (!Array.isArray(value)) throw new TypeError(`VectorBuilder: ${String(value)} is not an array value`);
      for (const element of value as RawArray) this.child.append(element);
      this.offsets![rowIdx + 1] = this.child.size;
    } else if (this.offsets) {
      this.appendStringBytes(encodeUtf8(value as string), rowIdx);
    } else if (this.objects) {
      this.objects.push(BigInt(value as number | bigint | string));
    } else if (this.kind === 'i64') {
      (this.fixed as BigInt64Array)[rowIdx] = typeof value === 'bigint' ? value : BigInt(value as number);
    } else {
      (this.fixed as Float64Array)[rowIdx] = Number(value);
    }
  }

  /** Append a string given as UTF-8 bytes (no decode/encode round trip). */
  appendBytes(src: Uint8Array, start: number, end: number): void {
    if (this.length === this.nulls.length) this.grow();
    const rowIdx = this.length++;
    const length = end - start;
    // A short string is copied byte by byte: a subarray of a Buffer costs more than the copy.
    if (length > 32) return this.appendStringBytes(src.subarray(start, end), rowIdx);
    const need = this.byteLength + length;
    if (need > this.bytes!.length) this.growBytes(need);
    const bytes = this.bytes!;
    let out = this.byteLength;
    for (let pos = start; pos < end; pos++) bytes[out++] = src[pos];
    this.byteLength = need;
    this.offsets![rowIdx + 1] = need;
  }

  private growBytes(need: number): void {
    const next = new Uint8Array(Math.max(need, this.bytes!.length * 2));
    next.set(this.bytes!.subarray(0, this.byteLength));
    this.bytes = next;
  }

  private appendStringBytes(encoded: Uint8Array, rowIdx: number): void {
    const need = this.byteLength + encoded.length;
    if (need > this.bytes!.length) this.growBytes(need);
    this.bytes!.set(encoded, this.byteLength);
    this.byteLength = need;
    this.offsets![rowIdx + 1] = this.byteLength;
  }

  /** Append row `rowIdx` of another vector of the same type. */
  appendFrom(vec: Vector, rowIdx: number): void {
    if (vec.nulls !== null && vec.nulls[rowIdx] === 1) return this.append(null);
    if (vec.kind === 'array' && this.child) {
      if (this.length === this.nulls.length) this.grow();
      const outIdx = this.length++;
      for (let elemIdx = vec.offsets[rowIdx]; elemIdx < vec.offsets[rowIdx + 1]; elemIdx++) this.child.appendFrom(vec.child, elemIdx);
      this.offsets![outIdx + 1] = this.child.size;
      return;
    }
    if (vec.kind === 'struct' && this.fields) {
      if (this.length === this.nulls.length) this.grow();
      this.length++;
      this.fields.forEach((field, fieldIdx) => field.appendFrom(vec.children[fieldIdx], rowIdx));
      return;
    }
    if (vec.kind === 'string' && this.offsets) return this.appendBytes(vec.bytes, vec.offsets[rowIdx], vec.offsets[rowIdx + 1]);
    if (vec.kind === 'fixed' && this.fixed && this.kind !== 'i64') {
      if (this.length === this.nulls.length) this.grow();
      (this.fixed as Float64Array)[this.length++] = vec.values[rowIdx] as number;
      return;
    }
    this.append(getRaw(vec, rowIdx));
  }

  finish(): Vector {
    const length = this.length;
    const nulls = this.hasNull ? this.nulls.slice(0, length) : null;
    if (this.fields) return { kind: 'struct', type: this.type, length, children: this.fields.map((field) => field.finish()), nulls };
    if (this.child) return { kind: 'array', type: this.type, length, offsets: this.offsets!.slice(0, length + 1), child: this.child.finish(), nulls };
    if (this.offsets) {
      return { kind: 'string', type: this.type, length, offsets: this.offsets.slice(0, length + 1), bytes: this.bytes!.slice(0, this.byteLength), nulls };
    }
    if (this.objects) return { kind: 'object', type: this.type, length, values: this.objects.slice(0, length), nulls };
    return { kind: 'fixed', type: this.type, length, values: this.fixed!.slice(0, length) as FixedArray, nulls };
  }
}

export function vectorFromRaw(type: DataType, values: readonly RawValue[]): Vector {
  const builder = new VectorBuilder(type, values.length);
  for (const value of values) builder.append(value);
  return builder.finish();
}

/** A vector of `length` copies of one value (constants, literals). */
export function constantVector(type: DataType, value: RawValue, length: number): Vector {
  const kind = physicalKind(type);
  if (kind === 'list') {
    // Arrow's list layout has no shared rows: the elements repeat (callers cache constants per batch size).
    if (value === null) return { kind: 'array', type, length, offsets: new Int32Array(length + 1), child: vectorFromRaw(elementType(type), []), nulls: new Uint8Array(length).fill(1) };
    const one = vectorFromRaw(type, [value]) as ArrayVector;
    const width = one.offsets[1];
    const offsets = new Int32Array(length + 1);
    const rowIds = new Int32Array(length * width);
    for (let rowIdx = 0; rowIdx < length; rowIdx++) {
      offsets[rowIdx + 1] = (rowIdx + 1) * width;
      for (let elemIdx = 0; elemIdx < width; elemIdx++) rowIds[rowIdx * width + elemIdx] = elemIdx;
    }
    return { kind: 'array', type, length, offsets, child: takeRows(one.child, rowIds), nulls: null };
  }
  if (kind === 'struct') {
    const fieldValues = value as RawArray | null;
    const children = structFields(type).map((field, fieldIdx) => constantVector(field.type, fieldValues === null ? null : (fieldValues[fieldIdx] ?? null), length));
    return { kind: 'struct', type, length, children, nulls: value === null ? new Uint8Array(length).fill(1) : null };
  }
  if (value === null) {
    const nulls = new Uint8Array(length).fill(1);
    if (kind === 'string') return { kind: 'string', type, length, offsets: new Int32Array(length + 1), bytes: new Uint8Array(0), nulls };
    if (kind === 'bigint') return { kind: 'object', type, length, values: new Array<bigint>(length).fill(0n), nulls };
    return { kind: 'fixed', type, length, values: newFixedArray(kind, length), nulls };
  }
  if (kind === 'string') return { kind: 'dict', type, length, codes: new Int32Array(length), dict: [String(value)], nulls: null };
  if (kind === 'bigint') return { kind: 'object', type, length, values: new Array<bigint>(length).fill(BigInt(value as number | bigint | string)), nulls: null };
  const values = newFixedArray(kind, length);
  if (kind === 'i64') (values as BigInt64Array).fill(typeof value === 'bigint' ? value : BigInt(value as number));
  else (values as Float64Array).fill(Number(value));
  return { kind: 'fixed', type, length, values, nulls: null };
}

/** The null map of rows `rowIds[0..count)`, or null when none of them is NULL (an all-valid result). */
export function takeNulls(source: Uint8Array | null, rowIds: Int32Array | readonly number[], count = rowIds.length): Uint8Array | null {
  if (source === null) return null;
  const taken = new Uint8Array(count);
  let seen = 0;
  for (let outIdx = 0; outIdx < count; outIdx++) {
    const rowIsNull = source[rowIds[outIdx]];
    taken[outIdx] = rowIsNull;
    seen |= rowIsNull;
  }
  return seen !== 0 ? taken : null;
}

/** Rows `rowIds` of a vector, in that order (selection, late materialization, sort output). */
export function takeRows(vec: Vector, rowIds: Int32Array | readonly number[], count = rowIds.length): Vector {
  const nulls = takeNulls(vec.nulls, rowIds, count);
  switch (vec.kind) {
    case 'fixed': {
      const kind = physicalKind(vec.type);
      const values = newFixedArray(kind === 'string' || kind === 'bigint' ? 'f64' : kind, count);
      const src = vec.values as Float64Array;
      const dst = values as Float64Array;
      for (let outIdx = 0; outIdx < count; outIdx++) dst[outIdx] = src[rowIds[outIdx]];
      return { kind: 'fixed', type: vec.type, length: count, values, nulls };
    }
    case 'dict': {
      const codes = new Int32Array(count);
      for (let outIdx = 0; outIdx < count; outIdx++) codes[outIdx] = vec.codes[rowIds[outIdx]];
      return { kind: 'dict', type: vec.type, length: count, codes, dict: vec.dict, nulls };
    }
    case 'object': {
      const values = new Array<bigint>(count);
      for (let outIdx = 0; outIdx < count; outIdx++) values[outIdx] = vec.values[rowIds[outIdx]];
      return { kind: 'object', type: vec.type, length: count, values, nulls };
    }
    case 'string': {
      let total = 0;
      for (let outIdx = 0; outIdx < count; outIdx++) total += vec.offsets[rowIds[outIdx] + 1] - vec.offsets[rowIds[outIdx]];
      const offsets = new Int32Array(count + 1);
      const bytes = new Uint8Array(total);
      let pos = 0;
      for (let outIdx = 0; outIdx < count; outIdx++) {
        const start = vec.offsets[rowIds[outIdx]];
        const end = vec.offsets[rowIds[outIdx] + 1];
        bytes.set(vec.bytes.subarray(start, end), pos);
        pos += end - start;
        offsets[outIdx + 1] = pos;
      }
      return { kind: 'string', type: vec.type, length: count, offsets, bytes, nulls };
    }
    case 'array': {
      const offsets = new Int32Array(count + 1);
      for (let outIdx = 0; outIdx < count; outIdx++) offsets[outIdx + 1] = offsets[outIdx] + vec.offsets[rowIds[outIdx] + 1] - vec.offsets[rowIds[outIdx]];
      const elemIds = new Int32Array(offsets[count]);
      let pos = 0;
      for (let outIdx = 0; outIdx < count; outIdx++) {
        for (let elemIdx = vec.offsets[rowIds[outIdx]]; elemIdx < vec.offsets[rowIds[outIdx] + 1]; elemIdx++) elemIds[pos++] = elemIdx;
      }
      return { kind: 'array', type: vec.type, length: count, offsets, child: takeRows(vec.child, elemIds), nulls };
    }
    case 'struct':
      return { kind: 'struct', type: vec.type, length: count, children: vec.children.map((child) => takeRows(child, rowIds, count)), nulls };
  }
}

/** Rows [start, end) without copying where the layout allows. */
export function sliceVector(vec: Vector, start: number, end: number): Vector {
  const length = end - start;
  // A slice with no NULL (a batch cut from a nullable page) is all-valid: the scan stops at the first NULL.
  const nulls = anyNullIn(vec.nulls, start, end) ? vec.nulls!.subarray(start, end) : null;
  switch (vec.kind) {
    case 'fixed':
      return { kind: 'fixed', type: vec.type, length, values: vec.values.subarray(start, end) as FixedArray, nulls };
    case 'dict':
      return { kind: 'dict', type: vec.type, length, codes: vec.codes.subarray(start, end), dict: vec.dict, nulls };
    case 'object':
      return { kind: 'object', type: vec.type, length, values: vec.values.slice(start, end), nulls };
    case 'string': {
      const base = vec.offsets[start];
      const offsets = new Int32Array(length + 1);
      for (let rowIdx = 0; rowIdx <= length; rowIdx++) offsets[rowIdx] = vec.offsets[start + rowIdx] - base;
      return { kind: 'string', type: vec.type, length, offsets, bytes: vec.bytes.subarray(base, vec.offsets[end]), nulls };
    }
    case 'array':
      // Offsets keep pointing into the whole child (a list slice may start above 0).
      return { kind: 'array', type: vec.type, length, offsets: vec.offsets.subarray(start, end + 1), child: vec.child, nulls };
    case 'struct':
      return { kind: 'struct', type: vec.type, length, children: vec.children.map((child) => sliceVector(child, start, end)), nulls };
  }
}

/** The array vector with offsets rebased to 0 and a child holding exactly its rows' elements. */
export function compactArray(vec: ArrayVector): ArrayVector {
  const first = vec.offsets[0];
  const last = vec.offsets[vec.length];
  if (first === 0 && last === vec.child.length) return vec;
  const offsets = new Int32Array(vec.length + 1);
  for (let rowIdx = 0; rowIdx <= vec.length; rowIdx++) offsets[rowIdx] = vec.offsets[rowIdx] - first;
  return { kind: 'array', type: vec.type, length: vec.length, offsets, child: sliceVector(vec.child, first, last), nulls: vec.nulls };
}

/** Concatenate vectors of one type into one. */
export function concatVectors(type: DataType, parts: readonly Vector[]): Vector {
  if (parts.length === 1) return parts[0];
  let total = 0;
  for (const part of parts) total += part.length;
  const kind = physicalKind(type);
  const anyNull = parts.some((part) => anyNullIn(part.nulls, 0, part.length));
  const nulls = anyNull ? new Uint8Array(total) : null;
  if (nulls) {
    let pos = 0;
    for (const part of parts) {
      if (part.nulls) nulls.set(part.nulls, pos);
      pos += part.length;
    }
  }
  if (kind !== 'string' && kind !== 'bigint' && parts.every((part) => part.kind === 'fixed')) {
    const values = newFixedArray(kind, total);
    let pos = 0;
    for (const part of parts) {
      (values as Float64Array).set((part as FixedVector).values as Float64Array, pos);
      pos += part.length;
    }
    return { kind: 'fixed', type, length: total, values, nulls };
  }
  if (kind === 'string' && parts.every((part) => part.kind === 'dict' && part.dict === (parts[0] as DictVector).dict)) {
    // One shared dictionary (pages of one segment column): concatenate the codes.
    const codes = new Int32Array(total);
    let pos = 0;
    for (const part of parts as DictVector[]) {
      codes.set(part.codes, pos);
      pos += part.length;
    }
    return { kind: 'dict', type, length: total, codes, dict: (parts[0] as DictVector).dict, nulls };
  }
  if (kind === 'string' && parts.every((part) => part.kind === 'string' || part.kind === 'dict')) {
    parts = parts.map(toPlainStrings);
    let byteTotal = 0;
    for (const part of parts) byteTotal += (part as StringVector).offsets[part.length] - (part as StringVector).offsets[0];
    const offsets = new Int32Array(total + 1);
    const bytes = new Uint8Array(byteTotal);
    let rowPos = 0;
    let bytePos = 0;
    for (const part of parts as StringVector[]) {
      const base = part.offsets[0];
      bytes.set(part.bytes.subarray(base, part.offsets[part.length]), bytePos);
      for (let rowIdx = 1; rowIdx <= part.length; rowIdx++) offsets[rowPos + rowIdx] = part.offsets[rowIdx] - base + bytePos;
      rowPos += part.length;
      bytePos += part.offsets[part.length] - base;
    }
    return { kind: 'string', type, length: total, offsets, bytes, nulls };
  }
  if (kind === 'list' && parts.every((part) => part.kind === 'array')) {
    const compact = (parts as ArrayVector[]).map(compactArray);
    const offsets = new Int32Array(total + 1);
    let rowPos = 0;
    let elemPos = 0;
    for (const part of compact) {
      for (let rowIdx = 1; rowIdx <= part.length; rowIdx++) offsets[rowPos + rowIdx] = part.offsets[rowIdx] + elemPos;
      rowPos += part.length;
      elemPos += part.offsets[part.length];
    }
    const child = concatVectors(elementType(type), compact.map((part) => part.child));
    return { kind: 'array', type, length: total, offsets, child, nulls };
  }
  if (kind === 'struct' && parts.every((part) => part.kind === 'struct')) {
    const children = structFields(type).map((field, fieldIdx) => concatVectors(field.type, (parts as StructVector[]).map((part) => part.children[fieldIdx])));
    return { kind: 'struct', type, length: total, children, nulls };
  }
  const builder = new VectorBuilder(type, total);
  for (const part of parts) for (let rowIdx = 0; rowIdx < part.length; rowIdx++) builder.appendFrom(part, rowIdx);
  return builder.finish();
}

/** Plain (offsets + bytes) form of a string vector; dictionary vectors are expanded (each entry encoded once). */
export function toPlainStrings(vec: Vector): StringVector {
  if (vec.kind === 'string') return vec;
  if (vec.kind !== 'dict') {
    const builder = new VectorBuilder(vec.type, vec.length);
    for (let rowIdx = 0; rowIdx < vec.length; rowIdx++) builder.append(getRaw(vec, rowIdx));
    return builder.finish() as StringVector;
  }
  const encoded = vec.dict.map((text) => encodeUtf8(text));
  const { codes, nulls, length } = vec;
  let total = 0;
  for (let rowIdx = 0; rowIdx < length; rowIdx++) if (nulls === null || nulls[rowIdx] === 0) total += encoded[codes[rowIdx]].length;
  const offsets = new Int32Array(length + 1);
  const bytes = new Uint8Array(total);
  let pos = 0;
  for (let rowIdx = 0; rowIdx < length; rowIdx++) {
    if (nulls === null || nulls[rowIdx] === 0) {
      const entry = encoded[codes[rowIdx]];
      bytes.set(entry, pos);
      pos += entry.length;
    }
    offsets[rowIdx + 1] = pos;
  }
  return { kind: 'string', type: vec.type, length, offsets, bytes, nulls };
}

export function emptyBatch(types: readonly DataType[]): Batch {
  return { length: 0, columns: types.map((type) => vectorFromRaw(type, [])) };
}

/** Approximate in-memory bytes of a batch (what group_commit_data_bytes, exec_mem_limit and load chunking count). */
export function batchBytes(batch: Batch): number {
  let total = 0;
  for (const vec of batch.columns) {
    if (vec.nulls) total += vec.length;
    if (vec.kind === 'fixed') total += vec.values.byteLength;
    else if (vec.kind === 'string') total += (vec.length + 1) * 4 + (vec.offsets[vec.length] - vec.offsets[0]);
    else if (vec.kind === 'dict') total += vec.length * 4 + vec.dict.reduce((sum, text) => sum + text.length, 0);
    else if (vec.kind === 'array') total += (vec.length + 1) * 4 + batchBytes({ length: vec.child.length, columns: [vec.child] });
    else if (vec.kind === 'struct') total += batchBytes({ length: vec.length, columns: [...vec.children] });
    else total += vec.length * 16;
  }
  return total;
}

/** Rows of a batch picked by a selection vector (row ids in output order). */
export function selectRows(batch: Batch, rowIds: Int32Array, count: number): Batch {
  return { length: count, columns: batch.columns.map((vec) => takeRows(vec, rowIds, count)) };
}

/** `batch` without the rows at `dropped` (ascending row indexes, each once). */
export function dropRows(batch: Batch, dropped: readonly { readonly rowIdx: number }[]): Batch {
  if (dropped.length === 0) return batch;
  const keep = new Int32Array(batch.length - dropped.length);
  let out = 0;
  let dropIdx = 0;
  for (let rowIdx = 0; rowIdx < batch.length; rowIdx++) {
    if (dropIdx < dropped.length && dropped[dropIdx].rowIdx === rowIdx) dropIdx++;
    else keep[out++] = rowIdx;
  }
  return { ...batch, ...selectRows(batch, keep, out) };
}
