/**
 * Table functions over scalars: explode_split (a string cut at each occurrence of a delimiter),
 * explode_numbers (0 .. n-1) and explode_bitmap (a BITMAP's values in ascending order). A NULL argument,
 * explode_numbers of n <= 0 and an empty bitmap generate no row.
 */
import { VectorBuilder, type Vector } from '../../../common/column';
import { Types } from '../../../common/types';
import { badArgs } from '../function-registry';
import { bigintsOut, bitmapsOf } from '../functions/bitmap-functions';
import { castForClass } from '../signature';
import { rawReader, toJsStrings } from '../vector-ops';
import type { GeneratedRows, TableFunctionDecl } from './table-function-registry';

/** Largest row count explode_numbers generates for one input row (a typo'd n must not exhaust memory). */
const MAX_NUMBERS = 10_000_000;

function growable(capacity: number): { push(value: number): void; view(): Int32Array } {
  let data = new Int32Array(Math.max(16, capacity));
  let length = 0;
  return {
    push(value) {
      if (length === data.length) {
        const next = new Int32Array(data.length * 2);
        next.set(data);
        data = next;
      }
      data[length++] = value;
    },
    view: () => data.subarray(0, length),
  };
}

function splitKernel(args: readonly Vector[], rowCount: number): GeneratedRows {
  const texts = toJsStrings(args[0]);
  const delimiters = toJsStrings(args[1]);
  const parents = growable(rowCount * 2);
  const out = new VectorBuilder(Types.STRING, rowCount * 2);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const text = texts[rowIdx];
    const delimiter = delimiters[rowIdx];
    if (text === null || delimiter === null) continue;
    const parts = delimiter === '' ? [text] : text.split(delimiter);
    for (const part of parts) {
      parents.push(rowIdx);
      out.append(part);
    }
  }
  return { parentRows: parents.view().slice(), columns: [out.finish()] };
}

function numbersKernel(args: readonly Vector[], rowCount: number): GeneratedRows {
  const readCount = rawReader(args[0]);
  let total = 0;
  const counts = new Int32Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const raw = readCount(rowIdx);
    const count = raw === null ? 0 : Math.min(MAX_NUMBERS, Math.max(0, Number(raw)));
    counts[rowIdx] = count;
    total += count;
  }
  const parentRows = new Int32Array(total);
  const values = new Int32Array(total);
  let outIdx = 0;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    for (let number = 0; number < counts[rowIdx]; number++) {
      parentRows[outIdx] = rowIdx;
      values[outIdx++] = number;
    }
  }
  return { parentRows, columns: [{ kind: 'fixed', type: Types.INT, length: total, values, nulls: null }] };
}

function bitmapKernel(args: readonly Vector[], rowCount: number): GeneratedRows {
  const bitmaps = bitmapsOf(args[0], rowCount);
  const parents = growable(rowCount);
  const values: (bigint | number)[] = [];
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    bitmaps[rowIdx]?.forEach((value) => {
      parents.push(rowIdx);
      values.push(value);
    });
  }
  return { parentRows: parents.view().slice(), columns: [bigintsOut(values)] };
}

export const SCALAR_TABLE_FUNCTIONS: readonly TableFunctionDecl[] = [
  {
    name: 'explode_split',
    outer: true,
    signature: 'explode_split(str, delimiter) -> VARCHAR',
    minArgs: 2,
    maxArgs: 2,
    resolve: (types) => {
      if (types.some((type) => type.name === 'ARRAY')) throw badArgs('explode_split', types);
      return { argTypes: types.map((type) => castForClass('STRING', type)), columns: [Types.STRING] };
    },
    kernel: splitKernel,
    description: 'One row per piece of str cut at each delimiter (empty pieces kept).',
    example: "SELECT e FROM (SELECT 1) t LATERAL VIEW explode_split('a,b,,c', ',') tmp AS e",
  },
  {
    name: 'explode_numbers',
    outer: true,
    signature: 'explode_numbers(n) -> INT',
    minArgs: 1,
    maxArgs: 1,
    resolve: (types) => {
      if (types[0].name === 'ARRAY') throw badArgs('explode_numbers', types);
      return { argTypes: [castForClass('INT', types[0])], columns: [Types.INT] };
    },
    kernel: numbersKernel,
    description: 'The integers 0 .. n-1, one per row (no row for n <= 0).',
    example: 'SELECT e FROM (SELECT 1) t LATERAL VIEW explode_numbers(3) tmp AS e',
  },
  {
    name: 'explode_bitmap',
    outer: true,
    signature: 'explode_bitmap(bitmap) -> BIGINT',
    minArgs: 1,
    maxArgs: 1,
    resolve: (types) => {
      if (types[0].name !== 'BITMAP' && types[0].name !== 'NULL') throw badArgs('explode_bitmap', types);
      return { argTypes: [Types.BITMAP], columns: [Types.BIGINT] };
    },
    kernel: bitmapKernel,
    description: 'One row per value of the bitmap, in ascending order (no row for an empty or NULL bitmap).',
    example: "SELECT e FROM (SELECT 1) t LATERAL VIEW explode_bitmap(bitmap_from_string('1,3,2')) tmp AS e",
  },
];
