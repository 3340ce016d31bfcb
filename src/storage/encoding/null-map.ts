/**
 * Per-page null maps. A page stores one only when it has a NULL; then whichever is smaller of a bitmap
 * (1 bit per row) or run lengths (alternating non-null / null runs, starting with non-null). Decoded to
 * the one-byte-per-row null map of column.ts.
 */
import { ByteReader, ByteWriter } from './byte-buffer';

const NULLS_BITMAP = 0;
const NULLS_RLE = 1;

/** Append the null map of rows [start, end) (which must contain at least one NULL). */
export function writeNullMap(out: ByteWriter, nulls: Uint8Array, start: number, end: number): void {
  const count = end - start;
  let runs = 1;
  for (let rowIdx = start + 1; rowIdx < end; rowIdx++) runs += nulls[rowIdx] !== nulls[rowIdx - 1] ? 1 : 0;
  if (nulls[start] === 1) runs++; // leading empty non-null run
  const bitmapBytes = Math.ceil(count / 8);
  if (runs * 4 < bitmapBytes) {
    out.u8(NULLS_RLE);
    out.u32(runs);
    const lengths = new Uint32Array(runs);
    let runIdx = 0;
    let current = 0;
    let length = 0;
    for (let rowIdx = start; rowIdx < end; rowIdx++) {
      if (nulls[rowIdx] !== current) {
        lengths[runIdx++] = length;
        current = nulls[rowIdx];
        length = 0;
      }
      length++;
    }
    lengths[runIdx] = length;
    out.typed(lengths);
    return;
  }
  out.u8(NULLS_BITMAP);
  const bitmap = new Uint8Array(bitmapBytes);
  for (let rowIdx = start; rowIdx < end; rowIdx++) {
    const bit = rowIdx - start;
    bitmap[bit >>> 3] |= nulls[rowIdx] << (bit & 7);
  }
  out.u32(bitmapBytes);
  out.bytes(bitmap);
}

/** Read a null map written by writeNullMap for `count` rows. */
export function readNullMap(input: ByteReader, count: number): Uint8Array {
  const nulls = new Uint8Array(count);
  const form = input.u8();
  if (form === NULLS_RLE) {
    const runs = input.u32();
    const lengths = input.typed(Uint32Array, runs);
    let rowIdx = 0;
    for (let runIdx = 0; runIdx < runs; runIdx++) {
      const end = rowIdx + lengths[runIdx];
      if (end > count) input.fail('null map runs exceed the page');
      if (runIdx & 1) nulls.fill(1, rowIdx, end);
      rowIdx = end;
    }
    if (rowIdx !== count) input.fail('null map runs do not cover the page');
    return nulls;
  }
  if (form !== NULLS_BITMAP) input.fail(`unknown null map form ${form}`);
  const byteCount = input.u32();
  if (byteCount !== Math.ceil(count / 8)) input.fail('null bitmap size mismatch');
  const bitmap = input.bytes(byteCount);
  for (let rowIdx = 0; rowIdx < count; rowIdx++) nulls[rowIdx] = (bitmap[rowIdx >>> 3] >>> (rowIdx & 7)) & 1;
  return nulls;
}
