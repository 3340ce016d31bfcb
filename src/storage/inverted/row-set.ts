/**
 * RowSet: a sorted set of row ordinals of one segment (0 .. numRows-1), the answer of an inverted-index
 * query. Backed by a compressed bitmap (CRoaring through the `roaring` package, chosen in
 * docs/full-text-search.md "Storage"), behind this small immutable interface so that nothing outside
 * storage/inverted depends on the library: combine with `and` / `or` / `andNot`, read with `size`,
 * `has`, `toArray` (a sorted Uint32Array) or iteration.
 */
import { RoaringBitmap32 } from 'roaring';

export class RowSet implements Iterable<number> {
  private constructor(private readonly bitmap: RoaringBitmap32) {}

  static empty(): RowSet {
    return new RowSet(new RoaringBitmap32());
  }

  /** Rows `start` .. `end - 1`. */
  static range(start: number, end: number): RowSet {
    const bitmap = new RoaringBitmap32();
    if (end > start) bitmap.addRange(start, end);
    return new RowSet(bitmap);
  }

  /** From row ordinals in any order (duplicates allowed). */
  static of(rows: ArrayLike<number>): RowSet {
    const bitmap = new RoaringBitmap32();
    bitmap.addMany(rows instanceof Uint32Array ? rows : Uint32Array.from(rows));
    return new RowSet(bitmap);
  }

  /** The union of many sets in one pass. */
  static union(sets: readonly RowSet[]): RowSet {
    if (sets.length === 0) return RowSet.empty();
    if (sets.length === 1) return sets[0];
    return new RowSet(RoaringBitmap32.orMany(sets.map((set) => set.bitmap)));
  }

  /** The intersection of many sets (smallest first); empty for none. */
  static intersection(sets: readonly RowSet[]): RowSet {
    if (sets.length === 0) return RowSet.empty();
    const sorted = [...sets].sort((a, b) => a.size - b.size);
    let acc = sorted[0];
    for (let setIdx = 1; setIdx < sorted.length && acc.size > 0; setIdx++) acc = acc.and(sorted[setIdx]);
    return acc;
  }

  /** Decode a set written by `serialize` (CRoaring's portable format); throws on malformed bytes. */
  static deserialize(bytes: Uint8Array): RowSet {
    return new RowSet(RoaringBitmap32.deserialize(bytes, 'portable'));
  }

  get size(): number {
    return this.bitmap.size;
  }

  isEmpty(): boolean {
    return this.bitmap.isEmpty;
  }

  has(row: number): boolean {
    return this.bitmap.has(row);
  }

  and(other: RowSet): RowSet {
    return new RowSet(RoaringBitmap32.and(this.bitmap, other.bitmap));
  }

  or(other: RowSet): RowSet {
    return new RowSet(RoaringBitmap32.or(this.bitmap, other.bitmap));
  }

  andNot(other: RowSet): RowSet {
    return new RowSet(RoaringBitmap32.andNot(this.bitmap, other.bitmap));
  }

  /** Rows of this set inside [start, end). */
  slice(start: number, end: number): RowSet {
    return this.and(RowSet.range(start, end));
  }

  /** The rows, ascending. */
  toArray(): Uint32Array {
    return this.bitmap.toUint32Array();
  }

  [Symbol.iterator](): Iterator<number> {
    return this.bitmap[Symbol.iterator]();
  }

  /** CRoaring's portable serialization (run containers where they pay). */
  serialize(): Uint8Array {
    const copy = this.bitmap.clone();
    copy.runOptimize();
    return copy.serialize('portable');
  }

  equals(other: RowSet): boolean {
    return this.bitmap.isEqual(other.bitmap);
  }
}
