/**
 * A BITMAP value: a set of unsigned 64-bit integers on the `roaring` package's compressed bitmaps (the
 * one roaring library of the project; storage/inverted uses it for postings). Values below 2^32 — the
 * common case — live in one RoaringBitmap32; larger ones are grouped by their high 32 bits, as Doris's
 * Roaring64Map does.
 *
 * The serialized form is Doris's BitmapValue format, so bitmap_to_base64 / bitmap_from_base64 exchange
 * values with Doris: a type byte, then EMPTY (0, nothing), SINGLE32 (1, u32 LE), BITMAP32 (2, a
 * portable-format roaring bitmap), SINGLE64 (3, u64 LE) or BITMAP64 (4, a varint count of 32-bit
 * buckets, then per bucket its high 32 bits as u32 LE and a portable roaring bitmap of the low bits).
 * https://github.com/apache/doris/blob/master/be/src/util/bitmap_value.h (BitmapTypeCode)
 */
import { RoaringBitmap32 } from 'roaring';

const TYPE_EMPTY = 0;
const TYPE_SINGLE32 = 1;
const TYPE_BITMAP32 = 2;
const TYPE_SINGLE64 = 3;
const TYPE_BITMAP64 = 4;

const TWO_32 = 4294967296;
const U64_MAX = (1n << 64n) - 1n;

export class BitmapValue {
  /** High 32 bits -> bitmap of the low 32 bits; key 0 holds every value below 2^32. */
  private readonly parts = new Map<number, RoaringBitmap32>();

  /** A bitmap of the given values (each an integer in [0, 2^64)). */
  static of(values: Iterable<number | bigint>): BitmapValue {
    const out = new BitmapValue();
    for (const value of values) out.add(value);
    return out;
  }

  private part(high: number): RoaringBitmap32 {
    let bits = this.parts.get(high);
    if (bits === undefined) {
      bits = new RoaringBitmap32();
      this.parts.set(high, bits);
    }
    return bits;
  }

  /** Adds an integer in [0, 2^64) (a number must be a safe integer). */
  add(value: number | bigint): void {
    if (typeof value === 'number') {
      if (value < TWO_32) this.part(0).add(value);
      else this.part(Math.floor(value / TWO_32)).add(value % TWO_32);
      return;
    }
    this.part(Number(value >> 32n)).add(Number(value & 0xffffffffn));
  }

  has(value: bigint): boolean {
    if (value < 0n || value > U64_MAX) return false;
    return this.parts.get(Number(value >> 32n))?.has(Number(value & 0xffffffffn)) ?? false;
  }

  remove(value: bigint): void {
    if (value < 0n || value > U64_MAX) return;
    this.parts.get(Number(value >> 32n))?.remove(Number(value & 0xffffffffn));
  }

  get size(): number {
    let total = 0;
    for (const bits of this.parts.values()) total += bits.size;
    return total;
  }

  get isEmpty(): boolean {
    for (const bits of this.parts.values()) if (bits.size > 0) return false;
    return true;
  }

  clone(): BitmapValue {
    const out = new BitmapValue();
    for (const [high, bits] of this.parts) out.parts.set(high, bits.clone());
    return out;
  }

  /** this |= other */
  or(other: BitmapValue): this {
    for (const [high, bits] of other.parts) {
      const mine = this.parts.get(high);
      if (mine === undefined) this.parts.set(high, bits.clone());
      else mine.orInPlace(bits);
    }
    return this;
  }

  /** this &= other */
  and(other: BitmapValue): this {
    for (const [high, bits] of this.parts) {
      const theirs = other.parts.get(high);
      if (theirs === undefined) this.parts.delete(high);
      else bits.andInPlace(theirs);
    }
    return this;
  }

  /** this ^= other */
  xor(other: BitmapValue): this {
    for (const [high, bits] of other.parts) {
      const mine = this.parts.get(high);
      if (mine === undefined) this.parts.set(high, bits.clone());
      else mine.xorInPlace(bits);
    }
    return this;
  }

  /** this &= ~other */
  andNot(other: BitmapValue): this {
    for (const [high, bits] of this.parts) {
      const theirs = other.parts.get(high);
      if (theirs !== undefined) bits.andNotInPlace(theirs);
    }
    return this;
  }

  /** |this & other| without building it. */
  andCount(other: BitmapValue): number {
    let total = 0;
    for (const [high, bits] of this.parts) {
      const theirs = other.parts.get(high);
      if (theirs !== undefined) total += bits.andCardinality(theirs);
    }
    return total;
  }

  /** Whether the two share a value. */
  intersects(other: BitmapValue): boolean {
    for (const [high, bits] of this.parts) {
      const theirs = other.parts.get(high);
      if (theirs !== undefined && bits.intersects(theirs)) return true;
    }
    return false;
  }

  /** Whether every value of other is here. */
  containsAll(other: BitmapValue): boolean {
    for (const [high, bits] of other.parts) {
      if (bits.size === 0) continue;
      const mine = this.parts.get(high);
      if (mine === undefined || !bits.isSubset(mine)) return false;
    }
    return true;
  }

  private sortedParts(): [number, RoaringBitmap32][] {
    return [...this.parts.entries()].filter(([, bits]) => bits.size > 0).sort((left, right) => left[0] - right[0]);
  }

  min(): bigint | null {
    const parts = this.sortedParts();
    if (parts.length === 0) return null;
    const [high, bits] = parts[0];
    return (BigInt(high) << 32n) | BigInt(bits.minimum());
  }

  max(): bigint | null {
    const parts = this.sortedParts();
    if (parts.length === 0) return null;
    const [high, bits] = parts[parts.length - 1];
    return (BigInt(high) << 32n) | BigInt(bits.maximum());
  }

  /**
   * Calls `visit` with each value in ascending order (as a number below 2^53, else a bigint) until it
   * returns false.
   */
  forEach(visit: (value: number | bigint) => boolean | void): void {
    for (const [high, bits] of this.sortedParts()) {
      const lows = bits.toUint32Array();
      const base = high * TWO_32;
      const exact = high < 0x200000; // high * 2^32 + low stays below 2^53
      for (let valueIdx = 0; valueIdx < lows.length; valueIdx++) {
        const value = exact ? base + lows[valueIdx] : (BigInt(high) << 32n) | BigInt(lows[valueIdx]);
        if (visit(value) === false) return;
      }
    }
  }

  /** The values in ascending order, as decimal text (bitmap_to_string's items). */
  toStrings(): string[] {
    const out: string[] = [];
    this.forEach((value) => void out.push(String(value)));
    return out;
  }

  /** Doris's serialized form (see the header). */
  serialize(): Uint8Array {
    const parts = this.sortedParts();
    const size = this.size;
    if (size === 0) return Uint8Array.of(TYPE_EMPTY);
    if (size === 1) {
      const [high, bits] = parts[0];
      const low = bits.minimum();
      if (high === 0) {
        const out = new Uint8Array(5);
        out[0] = TYPE_SINGLE32;
        new DataView(out.buffer).setUint32(1, low, true);
        return out;
      }
      const out = new Uint8Array(9);
      out[0] = TYPE_SINGLE64;
      const view = new DataView(out.buffer);
      view.setUint32(1, low, true);
      view.setUint32(5, high, true);
      return out;
    }
    if (parts.length === 1 && parts[0][0] === 0) {
      const body = parts[0][1].serialize('portable');
      const out = new Uint8Array(1 + body.length);
      out[0] = TYPE_BITMAP32;
      out.set(body, 1);
      return out;
    }
    const chunks: Uint8Array[] = [Uint8Array.of(TYPE_BITMAP64), varint(parts.length)];
    for (const [high, bits] of parts) {
      const key = new Uint8Array(4);
      new DataView(key.buffer).setUint32(0, high, true);
      chunks.push(key, bits.serialize('portable'));
    }
    return new Uint8Array(Buffer.concat(chunks));
  }

  /**
   * The serialized form of a bitmap of one value (or of none for null), without building the bitmap:
   * to_bitmap's per-row output.
   */
  static serializeSingle(value: bigint | null): Uint8Array {
    if (value === null) return Uint8Array.of(TYPE_EMPTY);
    if (value < 0x100000000n) {
      const out = new Uint8Array(5);
      out[0] = TYPE_SINGLE32;
      new DataView(out.buffer).setUint32(1, Number(value), true);
      return out;
    }
    const out = new Uint8Array(9);
    out[0] = TYPE_SINGLE64;
    new DataView(out.buffer).setBigUint64(1, value, true);
    return out;
  }

  /**
   * this |= the bitmap serialized in bytes[start, end); false (and nothing changed) when the bytes are not
   * one. An empty or single-value state is added without building a bitmap (the common per-row case of
   * BITMAP_UNION over to_bitmap()).
   */
  orSerialized(bytes: Uint8Array, start: number, end: number): boolean {
    const type = bytes[start];
    const payload = end - start - 1;
    if (type === TYPE_EMPTY && payload === 0) return true;
    if (type === TYPE_SINGLE32 && payload === 4) {
      this.part(0).add((bytes[start + 1] | (bytes[start + 2] << 8) | (bytes[start + 3] << 16) | (bytes[start + 4] << 24)) >>> 0);
      return true;
    }
    const other = BitmapValue.deserialize(bytes, start, end);
    if (other === null) return false;
    this.or(other);
    return true;
  }

  /** A bitmap from bytes[start, end) in Doris's format; null when they are not one. */
  static deserialize(bytes: Uint8Array, start: number, end: number): BitmapValue | null {
    if (end <= start) return null;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const out = new BitmapValue();
    const payload = end - start - 1;
    try {
      switch (bytes[start]) {
        case TYPE_EMPTY:
          return payload === 0 ? out : null;
        case TYPE_SINGLE32:
          if (payload !== 4) return null;
          out.part(0).add(view.getUint32(start + 1, true));
          return out;
        case TYPE_SINGLE64:
          if (payload !== 8) return null;
          out.part(view.getUint32(start + 5, true)).add(view.getUint32(start + 1, true));
          return out;
        case TYPE_BITMAP32: {
          const bits = deserializePortable(bytes, start + 1, end);
          if (bits === null) return null;
          out.parts.set(0, bits);
          return out;
        }
        case TYPE_BITMAP64: {
          const count = readVarint(bytes, start + 1, end);
          if (count === null) return null;
          let pos = count.next;
          for (let partIdx = 0; partIdx < count.value; partIdx++) {
            if (pos + 4 > end) return null;
            const high = view.getUint32(pos, true);
            pos += 4;
            const bits = deserializePortable(bytes, pos, end);
            if (bits === null) return null;
            pos += bits.getSerializationSizeInBytes('portable');
            out.parts.set(high, bits);
          }
          return pos === end ? out : null;
        }
        default:
          return null;
      }
    } catch {
      return null;
    }
  }
}

/** A portable-format roaring bitmap starting at bytes[start] (it knows its own length), or null. */
function deserializePortable(bytes: Uint8Array, start: number, end: number): RoaringBitmap32 | null {
  if (end - start < 4) return null;
  try {
    // The library's non-throwing "portable" reader needs the exact bytes: it stops at the bitmap's end.
    return RoaringBitmap32.deserialize(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start), 'portable');
  } catch {
    return null;
  }
}

function varint(value: number): Uint8Array {
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return Uint8Array.from(out);
}

function readVarint(bytes: Uint8Array, start: number, end: number): { value: number; next: number } | null {
  let value = 0;
  let scale = 1;
  for (let pos = start; pos < end && pos < start + 8; pos++) {
    value += (bytes[pos] & 0x7f) * scale;
    if ((bytes[pos] & 0x80) === 0) return { value, next: pos + 1 };
    scale *= 128;
  }
  return null;
}
