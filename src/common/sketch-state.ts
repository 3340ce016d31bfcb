/**
 * BITMAP, HLL and QUANTILE_STATE cells of a StringVector (serialized bytes, see types.ts) read and written as values:
 * one place that knows which value class a sketch type has, for the table model's merge
 * (storage/table-model-merge.ts) and the functions and aggregates (exec/expr).
 */
import { BitmapValue } from './bitmap-value';
import type { StringVector, Vector } from './column';
import { HllValue } from './hll-value';
import { QuantileStateValue } from './quantile-state';

export type SketchValue = BitmapValue | HllValue | QuantileStateValue;

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

/** The value of a QUANTILE_STATE cell; null for a NULL cell or bytes that are not one. */
export function quantileStateAt(vec: StringVector, rowIdx: number): QuantileStateValue | null {
  if (vec.nulls !== null && vec.nulls[rowIdx] === 1) return null;
  return QuantileStateValue.deserialize(vec.bytes, vec.offsets[rowIdx], vec.offsets[rowIdx + 1]);
}

/** The value of a cell of a sketch vector of any of the three types. */
function sketchAt(vec: StringVector, rowIdx: number): SketchValue | null {
  if (vec.type.name === 'HLL') return hllAt(vec, rowIdx);
  if (vec.type.name === 'QUANTILE_STATE') return quantileStateAt(vec, rowIdx);
  return bitmapAt(vec, rowIdx);
}

/** One union step of two values of the same sketch type. */
function unite(acc: SketchValue, value: SketchValue): void {
  if (acc instanceof BitmapValue) acc.or(value as BitmapValue);
  else if (acc instanceof HllValue) acc.merge(value as HllValue);
  else acc.merge(value as QuantileStateValue);
}

/**
 * The union of the non-NULL cells rows[from, to) of a sketch vector (BITMAP_UNION / HLL_UNION /
 * QUANTILE_UNION); null when every one is NULL.
 */
export function unionCells(vec: Vector, rows: ArrayLike<number>, from: number, to: number): SketchValue | null {
  if (vec.kind !== 'string') return null;
  if (vec.type.name === 'BITMAP') return unionOnBytes(vec, rows, from, to, () => new BitmapValue());
  if (vec.type.name === 'HLL') return unionOnBytes(vec, rows, from, to, () => new HllValue());
  let acc: SketchValue | null = null;
  for (let pos = from; pos < to; pos++) {
    const value = sketchAt(vec, rows[pos]);
    if (value === null) continue;
    if (acc === null) acc = value;
    else unite(acc, value);
  }
  return acc;
}

/** BITMAP_UNION / HLL_UNION on the bytes: single-value states are added without building a value each. */
function unionOnBytes<S extends BitmapValue | HllValue>(vec: StringVector, rows: ArrayLike<number>, from: number, to: number, empty: () => S): S | null {
  let acc: S | null = null;
  const nulls = vec.nulls;
  for (let pos = from; pos < to; pos++) {
    const rowIdx = rows[pos];
    if (nulls !== null && nulls[rowIdx] === 1) continue;
    const next: S = acc ?? empty();
    const merged = next instanceof BitmapValue ? next.orSerialized(vec.bytes, vec.offsets[rowIdx], vec.offsets[rowIdx + 1]) : (next as HllValue).mergeSerialized(vec.bytes, vec.offsets[rowIdx], vec.offsets[rowIdx + 1]);
    if (merged) acc = next;
  }
  return acc;
}
