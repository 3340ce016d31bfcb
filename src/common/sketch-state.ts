/**
 * BITMAP and HLL cells of a StringVector (serialized bytes, see types.ts) read and written as values:
 * one place that knows which value class a sketch type has, for the table model's merge
 * (storage/table-model-merge.ts) and the functions and aggregates (exec/expr).
 */
import { BitmapValue } from './bitmap-value';
import type { StringVector, Vector } from './column';
import { HllValue } from './hll-value';
import type { DataType } from './types';

export type SketchValue = BitmapValue | HllValue;

/** The value of a BITMAP cell; null for a NULL cell or bytes that are not a bitmap. */
export function bitmapAt(vec: StringVector, rowIdx: number): BitmapValue | null {
  if (vec.nulls !== null && vec.nulls[rowIdx] === 1) return null;
  return BitmapValue.deserialize(vec.bytes, vec.offsets[rowIdx], vec.offsets[rowIdx + 1]);
}

/** The value of an HLL cell; null for a NULL cell or bytes that are not an HLL. */
export function hllAt(vec: StringVector, rowIdx: number): HllValue | null {
  if (vec.nulls !== null && vec.nulls[rowIdx] === 1) return null;
  return HllValue.deserialize(vec.bytes, vec.offsets[rowIdx], vec.offsets[rowIdx + 1]);
}

/** An empty sketch of the type (bitmap_empty(), hll_empty()). */
export function emptySketch(type: DataType): SketchValue {
  return type.name === 'HLL' ? new HllValue() : new BitmapValue();
}

/**
 * The union of the non-NULL cells rows[from, to) of a BITMAP or HLL vector (BITMAP_UNION / HLL_UNION);
 * null when every one is NULL.
 */
export function unionCells(vec: Vector, rows: ArrayLike<number>, from: number, to: number): SketchValue | null {
  if (vec.kind !== 'string') return null;
  const isHll = vec.type.name === 'HLL';
  let acc: SketchValue | null = null;
  for (let pos = from; pos < to; pos++) {
    const value = isHll ? hllAt(vec, rows[pos]) : bitmapAt(vec, rows[pos]);
    if (value === null) continue;
    if (acc === null) acc = value;
    else if (isHll) (acc as HllValue).merge(value as HllValue);
    else (acc as BitmapValue).or(value as BitmapValue);
  }
  return acc;
}
