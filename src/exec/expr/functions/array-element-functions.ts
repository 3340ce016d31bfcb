/**
 * Doris's array functions over the list layout (column.ts: offsets + one child vector), beside the
 * constructor, size, element_at and distances in array-functions.ts.
 *
 * Three shapes, each a loop over offsets that never builds per-row JS arrays of values:
 * - reshaping (array_distinct, array_sort, array_slice, array_concat, array_union ...): a list of child
 *   element ids per row, then one takeRows over the child (or over the children concatenated);
 * - reducing (array_min, array_sum, array_position, array_join ...): one value per row read straight from
 *   the child's typed array;
 * - generating (array_range, array_with_constant, array_enumerate, array_cum_sum ...): a new child.
 *
 * NULL follows Doris: a NULL array gives NULL; NULL elements are skipped by the reductions (min, max, sum,
 * avg, product: NULL when no element is left), kept once by array_distinct, first by array_sort and last by
 * array_reverse_sort, and NULL in array_cum_sum / array_difference positions.
 */
import { concatVectors, constantVector, getRaw, takeRows, type ArrayVector, type FixedVector, type Vector } from '../../../common/column';
import { galeneError } from '../../../common/errors';
import { rowComparator } from '../../../common/row-order';
import { DataType, elementType, isIntegerType, isNumericType, isStringType, typeToSql, Types } from '../../../common/types';
import type { CallSite, FunctionDef, Resolution } from '../function-registry';
import { badArgs } from '../function-registry';
import { arg, defineFunction, opt, rest } from '../signature';
import { commonSuperType, integerByRank, integerRank } from '../type-rules';
import { rawReader, StringOut, toF64 } from '../vector-ops';

/** The ARRAY type of argument argIdx (NULL reads as ARRAY<NULL>); anything else is Doris's signature error. */
function arrayArg(name: string, types: readonly DataType[], argIdx = 0): DataType {
  const type = types[argIdx];
  if (type.name === 'NULL') return Types.array(Types.NULL);
  if (type.name !== 'ARRAY') throw badArgs(name, types);
  return type;
}

/** Element type a result can carry: NULL elements (of `[]` or `[NULL]`) read as TINYINT, as element_at does. */
function concreteElement(type: DataType): DataType {
  const element = elementType(type);
  return element.name === 'NULL' ? Types.TINYINT : element;
}

/** A growable Int32Array (element ids, offsets) for outputs of unknown size. */
class IdBuffer {
  private data: Int32Array;
  length = 0;
  constructor(capacity: number) {
    this.data = new Int32Array(Math.max(16, capacity));
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

/** Comparable keys of a vector's rows for equality (NULL is null, nested arrays their text). */
function elementKeys(vec: Vector): (idx: number) => unknown {
  if (vec.kind !== 'array') return rawReader(vec);
  return (idx) => {
    const raw = getRaw(vec, idx);
    return raw === null ? null : JSON.stringify(raw, (_k, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  };
}

/** The array built from per-row element ids into `source` (offsets has rowCount + 1 entries). */
function gathered(type: DataType, offsets: Int32Array, source: Vector, ids: Int32Array): ArrayVector {
  return { kind: 'array', type, length: offsets.length - 1, offsets, child: takeRows(source, ids), nulls: null };
}

/**
 * Reshape each row by choosing element ids of the child: `pick(start, end, out)` pushes the ids of one
 * row (from [start, end) of the child) to `out`.
 */
function reshape(list: ArrayVector, rowCount: number, type: DataType, pick: (start: number, end: number, out: IdBuffer, rowIdx: number) => void): Vector {
  const offsets = new Int32Array(rowCount + 1);
  const ids = new IdBuffer(list.offsets[rowCount] - list.offsets[0]);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    if (list.nulls === null || list.nulls[rowIdx] === 0) pick(list.offsets[rowIdx], list.offsets[rowIdx + 1], ids, rowIdx);
    offsets[rowIdx + 1] = ids.length;
  }
  return gathered(type, offsets, list.child, ids.view());
}

function distinctKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const list = args[0] as ArrayVector;
  const key = elementKeys(list.child);
  return reshape(list, rowCount, site.returnType, (start, end, out) => {
    const seen = new Set<unknown>();
    for (let elemIdx = start; elemIdx < end; elemIdx++) {
      const value = key(elemIdx);
      if (seen.has(value)) continue;
      seen.add(value);
      out.push(elemIdx);
    }
  });
}

function sortKernel(descending: boolean) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const list = args[0] as ArrayVector;
    // Ascending puts NULL first, descending last (Doris's array_sort / array_reverse_sort).
    const compare = rowComparator(list.child, descending, !descending);
    return reshape(list, rowCount, site.returnType, (start, end, out) => {
      const from = out.length;
      for (let elemIdx = start; elemIdx < end; elemIdx++) out.push(elemIdx);
      out.view().subarray(from).sort((a, b) => compare(a, b) || a - b);
    });
  };
}

/** array_slice(arr, offset[, length]): 1-based offset, negative from the end; a negative length drops from the end. */
function sliceKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const list = args[0] as ArrayVector;
  const readOffset = rawReader(args[1]);
  const readLength = args.length > 2 ? rawReader(args[2]) : null;
  return reshape(list, rowCount, site.returnType, (start, end, out, rowIdx) => {
    const size = end - start;
    const offset = Number(readOffset(rowIdx));
    if (offset === 0) return;
    let first = offset > 0 ? offset - 1 : size + offset;
    if (first >= size) return;
    if (first < 0) first = 0;
    let last = size;
    if (readLength !== null) {
      const length = Number(readLength(rowIdx));
      last = length >= 0 ? Math.min(size, first + length) : size + length;
    }
    for (let pos = first; pos < last; pos++) out.push(start + pos);
  });
}

function popKernel(front: boolean) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector =>
    reshape(args[0] as ArrayVector, rowCount, site.returnType, (start, end, out) => {
      for (let elemIdx = front ? start + 1 : start; elemIdx < (front ? end : end - 1); elemIdx++) out.push(elemIdx);
    });
}

/** array_compact: consecutive equal elements collapse into one. */
function compactKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const list = args[0] as ArrayVector;
  const key = elementKeys(list.child);
  return reshape(list, rowCount, site.returnType, (start, end, out) => {
    for (let elemIdx = start; elemIdx < end; elemIdx++) if (elemIdx === start || key(elemIdx) !== key(elemIdx - 1)) out.push(elemIdx);
  });
}

/** array_remove(arr, v): the elements not equal to v. */
function removeKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const list = args[0] as ArrayVector;
  const key = elementKeys(list.child);
  const readValue = elementKeys(args[1]);
  return reshape(list, rowCount, site.returnType, (start, end, out, rowIdx) => {
    const wanted = readValue(rowIdx);
    for (let elemIdx = start; elemIdx < end; elemIdx++) if (key(elemIdx) !== wanted) out.push(elemIdx);
  });
}

/** array_apply(arr, op, v): the elements e with `e op v` (op one of =, !=, >, >=, <, <=; a constant). */
function applyKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const list = args[0] as ArrayVector;
  const op = rowCount > 0 ? String(rawReader(args[1])(0)).trim() : '=';
  const tests: Record<string, (diff: number) => boolean> = { '=': (d) => d === 0, '!=': (d) => d !== 0, '>': (d) => d > 0, '>=': (d) => d >= 0, '<': (d) => d < 0, '<=': (d) => d <= 0 };
  const test = tests[op];
  if (test === undefined) throw galeneError('INVALID_ARGUMENT', `array_apply(arr, op, val): op support =, >=, <=, >, <, !=, but we get ${op}`);
  const all = concatVectors(list.child.type, [list.child, { ...args[2], type: list.child.type } as Vector]);
  const compare = rowComparator(all);
  const base = list.child.length;
  return reshape(list, rowCount, site.returnType, (start, end, out, rowIdx) => {
    for (let elemIdx = start; elemIdx < end; elemIdx++) {
      if (all.nulls !== null && all.nulls[elemIdx] === 1) continue;
      if (test(compare(elemIdx, base + rowIdx))) out.push(elemIdx);
    }
  });
}

/** array_shuffle(arr[, seed]): the elements in a random order (Fisher-Yates). */
function shuffleKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  return reshape(args[0] as ArrayVector, rowCount, site.returnType, (start, end, out) => {
    const from = out.length;
    for (let elemIdx = start; elemIdx < end; elemIdx++) out.push(elemIdx);
    const row = out.view().subarray(from);
    for (let pos = row.length - 1; pos > 0; pos--) {
      const other = Math.floor(Math.random() * (pos + 1));
      const kept = row[pos];
      row[pos] = row[other];
      row[other] = kept;
    }
  });
}

/**
 * Several arrays' rows combined element by element: the children are concatenated once and `pick` sees
 * each argument's [start, end) in that combined child (argument a's elements start at bases[a]).
 */
function combine(args: readonly Vector[], rowCount: number, site: CallSite, pick: (ranges: Int32Array, out: IdBuffer, key: (idx: number) => unknown, rowIdx: number) => void): Vector {
  const element = elementType(site.returnType);
  const lists = args.map((vec) => vec as ArrayVector);
  const bases: number[] = [];
  let total = 0;
  for (const list of lists) {
    bases.push(total);
    total += list.child.length;
  }
  const all = concatVectors(element, lists.map((list) => ({ ...list.child, type: element }) as Vector));
  const key = elementKeys(all);
  const offsets = new Int32Array(rowCount + 1);
  const ids = new IdBuffer(total);
  const ranges = new Int32Array(lists.length * 2);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    lists.forEach((list, argIdx) => {
      ranges[argIdx * 2] = bases[argIdx] + list.offsets[rowIdx];
      ranges[argIdx * 2 + 1] = bases[argIdx] + list.offsets[rowIdx + 1];
    });
    pick(ranges, ids, key, rowIdx);
    offsets[rowIdx + 1] = ids.length;
  }
  return gathered(site.returnType, offsets, all, ids.view());
}

function concatKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  return combine(args, rowCount, site, (ranges, out) => {
    for (let argIdx = 0; argIdx < ranges.length; argIdx += 2) for (let elemIdx = ranges[argIdx]; elemIdx < ranges[argIdx + 1]; elemIdx++) out.push(elemIdx);
  });
}

/** The keys of one argument's elements in a row. */
function keySet(ranges: Int32Array, argIdx: number, key: (idx: number) => unknown): Set<unknown> {
  const keys = new Set<unknown>();
  for (let elemIdx = ranges[argIdx * 2]; elemIdx < ranges[argIdx * 2 + 1]; elemIdx++) keys.add(key(elemIdx));
  return keys;
}

/** array_union / array_intersect / array_except: distinct elements in first-seen order. */
function setKernel(mode: 'union' | 'intersect' | 'except') {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector =>
    combine(args, rowCount, site, (ranges, out, key) => {
      const seen = new Set<unknown>();
      const argCount = ranges.length / 2;
      const others = mode === 'union' ? [] : Array.from({ length: argCount - 1 }, (_v, idx) => keySet(ranges, idx + 1, key));
      const lastArg = mode === 'union' ? argCount : 1;
      for (let argIdx = 0; argIdx < lastArg; argIdx++) {
        for (let elemIdx = ranges[argIdx * 2]; elemIdx < ranges[argIdx * 2 + 1]; elemIdx++) {
          const value = key(elemIdx);
          if (seen.has(value)) continue;
          if (mode === 'intersect' && !others.every((set) => set.has(value))) continue;
          if (mode === 'except' && others[0].has(value)) continue;
          seen.add(value);
          out.push(elemIdx);
        }
      }
    });
}

/** array_except_all(a, b): multiset difference; each element of b removes one equal element of a, order and the rest kept. */
function exceptAllKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  return combine(args, rowCount, site, (ranges, out, key) => {
    const remove = new Map<unknown, number>();
    for (let elemIdx = ranges[2]; elemIdx < ranges[3]; elemIdx++) remove.set(key(elemIdx), (remove.get(key(elemIdx)) ?? 0) + 1);
    for (let elemIdx = ranges[0]; elemIdx < ranges[1]; elemIdx++) {
      const value = key(elemIdx);
      const left = remove.get(value) ?? 0;
      if (left > 0) remove.set(value, left - 1);
      else out.push(elemIdx);
    }
  });
}

/** A NULL array argument makes the row NULL (for kernels with nulls 'custom' that combine arrays). */
function nullRows(vectors: readonly Vector[], rowCount: number): Uint8Array | null {
  let nulls: Uint8Array | null = null;
  for (const vec of vectors) {
    if (vec.nulls === null || vec.kind !== 'array') continue;
    nulls ??= new Uint8Array(rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) nulls[rowIdx] |= vec.nulls[rowIdx];
  }
  return nulls;
}

/** array_pushback(arr, v) / array_pushfront(arr, v): v (NULL too) appended or prepended. */
function pushKernel(front: boolean) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const list = args[0] as ArrayVector;
    const element = elementType(site.returnType);
    const all = concatVectors(element, [{ ...list.child, type: element } as Vector, { ...args[1], type: element } as Vector]);
    const base = list.child.length;
    const offsets = new Int32Array(rowCount + 1);
    const ids = new IdBuffer(base + rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (list.nulls === null || list.nulls[rowIdx] === 0) {
        if (front) ids.push(base + rowIdx);
        for (let elemIdx = list.offsets[rowIdx]; elemIdx < list.offsets[rowIdx + 1]; elemIdx++) ids.push(elemIdx);
        if (!front) ids.push(base + rowIdx);
      }
      offsets[rowIdx + 1] = ids.length;
    }
    return { ...gathered(site.returnType, offsets, all, ids.view()), nulls: list.nulls };
  };
}

/** array_flatten(arr): an array of arrays becomes one array (NULL inner arrays add nothing). */
function flattenKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const outer = args[0] as ArrayVector;
  const inner = outer.child as ArrayVector;
  const offsets = new Int32Array(rowCount + 1);
  const ids = new IdBuffer(inner.child.length);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    for (let listIdx = outer.offsets[rowIdx]; listIdx < outer.offsets[rowIdx + 1]; listIdx++) {
      if (inner.nulls !== null && inner.nulls[listIdx] === 1) continue;
      for (let elemIdx = inner.offsets[listIdx]; elemIdx < inner.offsets[listIdx + 1]; elemIdx++) ids.push(elemIdx);
    }
    offsets[rowIdx + 1] = ids.length;
  }
  return gathered(site.returnType, offsets, inner.child, ids.view());
}

/** array_position / countequal: 1-based position of (or count of) elements equal to v; a NULL v finds NULL. */
function positionKernel(count: boolean) {
  return (args: readonly Vector[], rowCount: number): Vector => {
    const list = args[0] as ArrayVector;
    const key = elementKeys(list.child);
    const readValue = elementKeys(args[1]);
    const out = new BigInt64Array(rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (list.nulls !== null && list.nulls[rowIdx] === 1) continue;
      const wanted = readValue(rowIdx);
      const start = list.offsets[rowIdx];
      let found = 0;
      for (let elemIdx = start; elemIdx < list.offsets[rowIdx + 1]; elemIdx++) {
        if (key(elemIdx) !== wanted) continue;
        if (!count) {
          found = elemIdx - start + 1;
          break;
        }
        found++;
      }
      out[rowIdx] = BigInt(found);
    }
    return { kind: 'fixed', type: Types.BIGINT, length: rowCount, values: out, nulls: list.nulls };
  };
}

/** arrays_overlap(a, b): whether a non-NULL element is in both; array_contains_all(a, b): whether every element of b is in a. */
function overlapKernel(all: boolean) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const out = new Uint8Array(rowCount);
    const nulls = nullRows(args, rowCount);
    combine(args, rowCount, site, (ranges, _ids, key, rowIdx) => {
      const left = keySet(ranges, 0, key);
      let result = all ? 1 : 0;
      for (let elemIdx = ranges[2]; elemIdx < ranges[3]; elemIdx++) {
        const value = key(elemIdx);
        if (all && !left.has(value)) {
          result = 0;
          break;
        }
        if (!all && value !== null && left.has(value)) {
          result = 1;
          break;
        }
      }
      out[rowIdx] = result;
    });
    return { kind: 'fixed', type: Types.BOOLEAN, length: rowCount, values: out, nulls };
  };
}

/** array_min / array_max: the least / greatest non-NULL element; NULL when there is none. */
function extremeKernel(max: boolean) {
  return (args: readonly Vector[], rowCount: number): Vector => {
    const list = args[0] as ArrayVector;
    const child = list.child;
    const compare = rowComparator(child);
    const ids = new Int32Array(rowCount);
    const nulls = new Uint8Array(rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      let best = -1;
      for (let elemIdx = list.offsets[rowIdx]; elemIdx < list.offsets[rowIdx + 1]; elemIdx++) {
        if (child.nulls !== null && child.nulls[elemIdx] === 1) continue;
        if (best < 0 || (max ? compare(elemIdx, best) > 0 : compare(elemIdx, best) < 0)) best = elemIdx;
      }
      if (best < 0) nulls[rowIdx] = 1;
      else ids[rowIdx] = best;
    }
    const picked = takeRows(child, ids);
    return { ...picked, nulls } as Vector;
  };
}

/** Element types the arithmetic reductions take: integers, BOOLEAN, FLOAT, DOUBLE (DECIMAL not yet). */
function numericElement(name: string, types: readonly DataType[]): DataType {
  const arrayType = arrayArg(name, types);
  const element = concreteElement(arrayType);
  if (!isNumericType(element)) throw badArgs(name, types);
  if (element.name === 'DECIMAL') throw galeneError('UNSUPPORTED', `${name} of ${typeToSql(arrayType)}`);
  return element;
}

/** Integers sum as BIGINT (wrapping as Doris's Int64 does), floats as DOUBLE. */
function sumType(element: DataType): DataType {
  return element.name === 'FLOAT' || element.name === 'DOUBLE' ? Types.DOUBLE : Types.BIGINT;
}

type Reduction = 'sum' | 'avg' | 'product';

/** array_sum / array_avg / array_product over the non-NULL elements; NULL when there is none. */
function reduceKernel(kind: Reduction) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const list = args[0] as ArrayVector;
    const child = list.child as FixedVector;
    const nulls = new Uint8Array(rowCount);
    const exactInts = site.returnType.name === 'BIGINT';
    const ints = exactInts ? new BigInt64Array(rowCount) : null;
    const doubles = exactInts ? null : new Float64Array(rowCount);
    const values = exactInts ? child.values : toF64(child);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      let seen = 0;
      let total = kind === 'product' ? 1 : 0;
      let bigTotal = 0n;
      for (let elemIdx = list.offsets[rowIdx]; elemIdx < list.offsets[rowIdx + 1]; elemIdx++) {
        if (child.nulls !== null && child.nulls[elemIdx] === 1) continue;
        seen++;
        if (ints !== null) bigTotal += BigInt(values[elemIdx]);
        else if (kind === 'product') total *= values[elemIdx] as number;
        else total += values[elemIdx] as number;
      }
      if (seen === 0) nulls[rowIdx] = 1;
      else if (ints !== null) ints[rowIdx] = BigInt.asIntN(64, bigTotal);
      else doubles![rowIdx] = kind === 'avg' ? total / seen : total;
    }
    return { kind: 'fixed', type: site.returnType, length: rowCount, values: ints ?? doubles!, nulls };
  };
}

/** array_count(arr): elements that are neither NULL nor zero. */
function countKernel(args: readonly Vector[], rowCount: number): Vector {
  const list = args[0] as ArrayVector;
  const child = list.child as FixedVector;
  const values = toF64(child);
  const out = new BigInt64Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    let found = 0;
    for (let elemIdx = list.offsets[rowIdx]; elemIdx < list.offsets[rowIdx + 1]; elemIdx++) if ((child.nulls === null || child.nulls[elemIdx] === 0) && values[elemIdx] !== 0) found++;
    out[rowIdx] = BigInt(found);
  }
  return { kind: 'fixed', type: Types.BIGINT, length: rowCount, values: out, nulls: null };
}

/** array_join(arr, sep[, null_replace]): the elements' text joined; NULL elements skipped unless replaced. */
function joinKernel(args: readonly Vector[], rowCount: number): Vector {
  const list = args[0] as ArrayVector;
  const readElement = rawReader(list.child);
  const readSep = rawReader(args[1]);
  const readReplace = args.length > 2 ? rawReader(args[2]) : null;
  const out = new StringOut(Types.STRING, rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const sep = String(readSep(rowIdx));
    const replace = readReplace === null ? null : readReplace(rowIdx);
    const parts: string[] = [];
    for (let elemIdx = list.offsets[rowIdx]; elemIdx < list.offsets[rowIdx + 1]; elemIdx++) {
      const value = readElement(elemIdx);
      if (value !== null) parts.push(String(value));
      else if (replace !== null) parts.push(String(replace));
    }
    out.push(parts.join(sep));
  }
  return out.finish();
}

/** A fixed child of `type` from per-element numbers (and element nulls). */
function numericChild(type: DataType, values: Float64Array | BigInt64Array, nulls: Uint8Array | null): Vector {
  if (values instanceof BigInt64Array && type.name !== 'BIGINT') {
    const numbers = Float64Array.from(values, (value) => Number(value));
    return castNumbers(type, numbers, nulls);
  }
  if (values instanceof Float64Array && type.name !== 'DOUBLE') return castNumbers(type, values, nulls);
  return { kind: 'fixed', type, length: values.length, values, nulls };
}

function castNumbers(type: DataType, numbers: Float64Array, nulls: Uint8Array | null): Vector {
  const vec = constantVector(type, 0, numbers.length) as FixedVector;
  const target = vec.values;
  if (target instanceof BigInt64Array) for (let idx = 0; idx < numbers.length; idx++) target[idx] = BigInt(numbers[idx]);
  else (target as Float64Array).set(numbers);
  return { ...vec, nulls };
}

/** array_cum_sum / array_difference: one output element per input element; NULL elements stay NULL. */
function runningKernel(difference: boolean) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const list = args[0] as ArrayVector;
    const child = list.child as FixedVector;
    const element = elementType(site.returnType);
    const first = list.offsets[0];
    const count = list.offsets[rowCount] - first;
    const exact = isIntegerType(element);
    const source = exact ? null : toF64(child);
    const ints = exact ? new BigInt64Array(count) : null;
    const doubles = exact ? null : new Float64Array(count);
    const nulls = child.nulls === null ? null : new Uint8Array(count);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      let running = 0n;
      let runningDouble = 0;
      let previousNull = false;
      for (let elemIdx = list.offsets[rowIdx]; elemIdx < list.offsets[rowIdx + 1]; elemIdx++) {
        const outIdx = elemIdx - first;
        const isNull = child.nulls !== null && child.nulls[elemIdx] === 1;
        const atStart = elemIdx === list.offsets[rowIdx];
        if (isNull) {
          nulls![outIdx] = 1;
          previousNull = true;
          continue;
        }
        // array_difference: the element after a NULL has no difference either, and starts the next one
        // (Doris: [0, 1, 2, 3, NULL, 4, 6] -> [0, 1, 1, 1, NULL, NULL, 2]).
        if (difference && previousNull) {
          nulls![outIdx] = 1;
          previousNull = false;
          if (ints !== null) running = BigInt((child.values as ArrayLike<number | bigint>)[elemIdx]);
          else runningDouble = source![elemIdx];
          continue;
        }
        if (ints !== null) {
          const value = BigInt((child.values as ArrayLike<number | bigint>)[elemIdx]);
          ints[outIdx] = difference ? (atStart ? 0n : BigInt.asIntN(64, value - running)) : BigInt.asIntN(64, (running += value));
          if (difference) running = value;
        } else {
          const value = source![elemIdx];
          doubles![outIdx] = difference ? (atStart ? 0 : value - runningDouble) : (runningDouble += value);
          if (difference) runningDouble = value;
        }
      }
    }
    const offsets = new Int32Array(rowCount + 1);
    for (let rowIdx = 0; rowIdx <= rowCount; rowIdx++) offsets[rowIdx] = list.offsets[rowIdx] - first;
    return { kind: 'array', type: site.returnType, length: rowCount, offsets, child: numericChild(element, ints ?? doubles!, nulls), nulls: null };
  };
}

/** array_enumerate: [1, 2, ..., n]; array_enumerate_uniq: each element's occurrence number so far. */
function enumerateKernel(uniq: boolean) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const list = args[0] as ArrayVector;
    const key = elementKeys(list.child);
    const first = list.offsets[0];
    const values = new BigInt64Array(list.offsets[rowCount] - first);
    const offsets = new Int32Array(rowCount + 1);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const start = list.offsets[rowIdx];
      const counts = uniq ? new Map<unknown, number>() : null;
      for (let elemIdx = start; elemIdx < list.offsets[rowIdx + 1]; elemIdx++) {
        if (counts === null) {
          values[elemIdx - first] = BigInt(elemIdx - start + 1);
          continue;
        }
        const value = key(elemIdx);
        const seen = (counts.get(value) ?? 0) + 1;
        counts.set(value, seen);
        values[elemIdx - first] = BigInt(seen);
      }
      offsets[rowIdx + 1] = list.offsets[rowIdx + 1] - first;
    }
    return { kind: 'array', type: site.returnType, length: rowCount, offsets, child: { kind: 'fixed', type: Types.BIGINT, length: values.length, values, nulls: null }, nulls: null };
  };
}

/** Most elements array_range / array_with_constant build in one row (Doris's max_array_size_as_output). */
const MAX_GENERATED_ELEMENTS = 1_000_000;

/** array_range(end) / (start, end[, step]): start, start + step, ... below end (INT). */
function rangeKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const readers = args.map(rawReader);
  const offsets = new Int32Array(rowCount + 1);
  const values: number[] = [];
  const nulls = new Uint8Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const numbers = readers.map((read) => Number(read(rowIdx)));
    const [start, end, step] = numbers.length === 1 ? [0, numbers[0], 1] : [numbers[0], numbers[1], numbers[2] ?? 1];
    if (step <= 0) nulls[rowIdx] = 1;
    else {
      if ((end - start) / step > MAX_GENERATED_ELEMENTS) throw galeneError('INVALID_ARGUMENT', `Array size exceeds the limit ${MAX_GENERATED_ELEMENTS}`);
      for (let value = start; value < end; value += step) values.push(value);
    }
    offsets[rowIdx + 1] = values.length;
  }
  const child: Vector = { kind: 'fixed', type: Types.INT, length: values.length, values: Int32Array.from(values), nulls: null };
  return { kind: 'array', type: site.returnType, length: rowCount, offsets, child, nulls: nulls.includes(1) ? nulls : null };
}

/** array_with_constant(n, v) / array_repeat(v, n): n copies of v. */
function withConstantKernel(countArg: number) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const readCount = rawReader(args[countArg]);
    const offsets = new Int32Array(rowCount + 1);
    const ids = new IdBuffer(rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const count = Number(readCount(rowIdx));
      if (count > MAX_GENERATED_ELEMENTS) throw galeneError('INVALID_ARGUMENT', `Array size exceeds the limit ${MAX_GENERATED_ELEMENTS}`);
      for (let copy = 0; copy < count; copy++) ids.push(rowIdx);
      offsets[rowIdx + 1] = ids.length;
    }
    const element = elementType(site.returnType);
    return { ...gathered(site.returnType, offsets, { ...args[1 - countArg], type: element } as Vector, ids.view()), nulls: args[countArg].nulls };
  };
}

/** Same array type in, same out. */
function sameArray(name: string) {
  return (types: readonly DataType[]): Resolution => {
    const type = arrayArg(name, types);
    return { argTypes: [type, ...types.slice(1)], returnType: type };
  };
}

/** An array and a value of its element type: both cast to the common type. */
function arrayAndValue(name: string, returns?: DataType) {
  return (types: readonly DataType[]): Resolution => {
    const common = commonSuperType([elementType(arrayArg(name, types)), types[1]], name);
    return { argTypes: [Types.array(common), common], returnType: returns ?? Types.array(common) };
  };
}

/** Several arrays of one common element type. */
function arraysOfCommonType(name: string, returns?: DataType) {
  return (types: readonly DataType[]): Resolution => {
    const common = commonSuperType(types.map((_t, argIdx) => elementType(arrayArg(name, types, argIdx))), name);
    return { argTypes: types.map(() => Types.array(common)), returnType: returns ?? Types.array(common) };
  };
}

/** The widened element type of array_cum_sum / array_difference (integers one step wider, floats DOUBLE). */
function runningType(name: string, widen: boolean) {
  return (types: readonly DataType[]): Resolution => {
    const element = numericElement(name, types);
    let result: DataType;
    if (!isIntegerType(element)) result = Types.DOUBLE;
    else if (!widen) result = Types.BIGINT;
    else result = integerByRank(Math.min(integerRank(element) + 1, integerRank(Types.BIGINT)));
    return { argTypes: [Types.array(element)], returnType: Types.array(result) };
  };
}

function arrayFn(decl: Omit<Parameters<typeof defineFunction>[0], 'family'>): FunctionDef {
  return defineFunction({ ...decl, family: 'array' });
}

const SUM_NOTE = 'integers as BIGINT, floats as DOUBLE';

export const ARRAY_ELEMENT_FUNCTIONS: readonly FunctionDef[] = [
  arrayFn({ name: 'array_distinct', args: [arg('arr')], returns: 'type of arr', resolve: sameArray('array_distinct'), kernel: distinctKernel, description: 'The distinct elements in first-seen order (one NULL kept).', example: 'SELECT array_distinct([1, 2, 2, NULL, NULL, 1])' }),
  arrayFn({ name: 'array_sort', args: [arg('arr')], returns: 'type of arr', resolve: sameArray('array_sort'), kernel: sortKernel(false), description: 'The elements in ascending order, NULLs first; array_sort((x, y) -> cmp, arr) orders by a comparator lambda (negative: x first).', example: 'SELECT array_sort([3, NULL, 1, 2]), array_sort((x, y) -> IF(x < y, 1, IF(x = y, 0, -1)), [3, 2, 5, 1, 2])' }),
  arrayFn({ name: 'array_reverse_sort', args: [arg('arr')], returns: 'type of arr', resolve: sameArray('array_reverse_sort'), kernel: sortKernel(true), description: 'The elements in descending order, NULLs last.', example: 'SELECT array_reverse_sort([3, NULL, 1, 2])' }),
  arrayFn({ name: 'array_slice', args: [arg('arr'), arg('offset', 'BIGINT'), opt('length', 'BIGINT')], returns: 'type of arr', resolve: (types) => ({ argTypes: [arrayArg('array_slice', types), ...types.slice(1).map(() => Types.BIGINT)], returnType: arrayArg('array_slice', types) }), kernel: sliceKernel, description: 'length elements from the 1-based offset (negative counts from the end; a negative length stops that many before the end; no length: to the end).', example: 'SELECT array_slice([1, 2, 3, 4, 5], 2, 3), array_slice([1, 2, 3, 4, 5], -2)' }),
  arrayFn({ name: 'array_popback', args: [arg('arr')], returns: 'type of arr', resolve: sameArray('array_popback'), kernel: popKernel(false), description: 'The array without its last element.', example: 'SELECT array_popback([1, 2, 3])' }),
  arrayFn({ name: 'array_popfront', args: [arg('arr')], returns: 'type of arr', resolve: sameArray('array_popfront'), kernel: popKernel(true), description: 'The array without its first element.', example: 'SELECT array_popfront([1, 2, 3])' }),
  arrayFn({ name: 'array_compact', args: [arg('arr')], returns: 'type of arr', resolve: sameArray('array_compact'), kernel: compactKernel, description: 'Runs of consecutive equal elements collapsed into one.', example: 'SELECT array_compact([1, 1, 2, 2, 1])' }),
  arrayFn({ name: 'array_remove', args: [arg('arr'), arg('value')], returns: 'type of arr', resolve: arrayAndValue('array_remove'), kernel: removeKernel, description: 'The elements not equal to value; NULL when value is NULL.', example: 'SELECT array_remove([1, 2, 1, 3], 1)' }),
  arrayFn({ name: 'array_apply', args: [arg('arr'), arg('op', 'STRING'), arg('value')], returns: 'type of arr', resolve: (types) => { const r = arrayAndValue('array_apply')([types[0], types[2]]); return { argTypes: [r.argTypes[0], Types.STRING, r.argTypes[1]], returnType: r.returnType }; }, kernel: applyKernel, description: "The non-NULL elements e for which `e op value` holds; op is one of '=', '!=', '>', '>=', '<', '<='.", example: "SELECT array_apply([1, 2, 3, 4], '>', 2)" }),
  arrayFn({ name: 'array_shuffle', aliases: ['shuffle'], args: [arg('arr'), opt('seed', 'BIGINT')], returns: 'type of arr', resolve: (types) => ({ argTypes: [arrayArg('array_shuffle', types), ...types.slice(1).map(() => Types.BIGINT)], returnType: arrayArg('array_shuffle', types) }), volatility: 'row', kernel: shuffleKernel, description: 'The elements in a random order.', example: 'SELECT array_size(array_shuffle([1, 2, 3]))' }),
  arrayFn({ name: 'array_concat', args: [rest('arr')], returns: 'ARRAY<common type>', resolve: arraysOfCommonType('array_concat'), kernel: concatKernel, description: 'The arrays one after another; NULL when any is NULL.', example: 'SELECT array_concat([1, 2], [3], [4, 5])' }),
  arrayFn({ name: 'array_union', args: [arg('arr1'), rest('arr')], returns: 'ARRAY<common type>', resolve: arraysOfCommonType('array_union'), kernel: setKernel('union'), description: 'The distinct elements of all the arrays, in first-seen order.', example: 'SELECT array_union([1, 2, 3], [3, 4])' }),
  arrayFn({ name: 'array_intersect', args: [arg('arr1'), rest('arr')], returns: 'ARRAY<common type>', resolve: arraysOfCommonType('array_intersect'), kernel: setKernel('intersect'), description: 'The distinct elements of the first array that every other array has.', example: 'SELECT array_intersect([1, 2, 3], [3, 2, 5])' }),
  arrayFn({ name: 'array_except', args: [arg('arr1'), arg('arr2')], returns: 'ARRAY<common type>', resolve: arraysOfCommonType('array_except'), kernel: setKernel('except'), description: 'The distinct elements of the first array that the second does not have.', example: 'SELECT array_except([1, 2, 3], [2])' }),
  arrayFn({ name: 'array_except_all', args: [arg('arr1'), arg('arr2')], returns: 'ARRAY<common type>', resolve: arraysOfCommonType('array_except_all'), kernel: exceptAllKernel, description: 'The first array minus the second as multisets: each element of arr2 removes one equal element of arr1; duplicates and order are kept.', example: 'SELECT array_except_all([1, 1, 2, 3, 1], [1, 3])' }),
  arrayFn({ name: 'array_pushback', args: [arg('arr'), arg('value')], returns: 'type of arr', resolve: arrayAndValue('array_pushback'), nulls: 'custom', kernel: pushKernel(false), description: 'The array with value (NULL too) added at the end; NULL for a NULL array.', example: 'SELECT array_pushback([1, 2], 3)' }),
  arrayFn({ name: 'array_pushfront', args: [arg('arr'), arg('value')], returns: 'type of arr', resolve: arrayAndValue('array_pushfront'), nulls: 'custom', kernel: pushKernel(true), description: 'The array with value (NULL too) added at the front; NULL for a NULL array.', example: 'SELECT array_pushfront([1, 2], 0)' }),
  arrayFn({ name: 'array_flatten', args: [arg('arr')], returns: 'ARRAY<inner element type>', resolve: (types) => { const type = arrayArg('array_flatten', types); if (elementType(type).name !== 'ARRAY') throw badArgs('array_flatten', types); return { argTypes: [type], returnType: elementType(type) }; }, kernel: flattenKernel, description: 'An array of arrays as one array, the inner arrays in order.', example: 'SELECT array_flatten([[1, 2], [3]])' }),
  arrayFn({ name: 'array_position', args: [arg('arr'), arg('value')], returns: Types.BIGINT, resolve: arrayAndValue('array_position', Types.BIGINT), nulls: 'custom', kernel: positionKernel(false), description: 'The 1-based position of the first element equal to value (a NULL value finds a NULL element), 0 when there is none; NULL for a NULL array.', example: 'SELECT array_position([10, 20, 30], 20)' }),
  arrayFn({ name: 'countequal', args: [arg('arr'), arg('value')], returns: Types.BIGINT, resolve: arrayAndValue('countequal', Types.BIGINT), nulls: 'custom', kernel: positionKernel(true), description: 'How many elements equal value (a NULL value counts NULL elements); NULL for a NULL array.', example: 'SELECT countequal([1, 2, 1], 1)' }),
  arrayFn({ name: 'arrays_overlap', args: [arg('arr1'), arg('arr2')], returns: Types.BOOLEAN, resolve: arraysOfCommonType('arrays_overlap', Types.BOOLEAN), nulls: 'custom', kernel: overlapKernel(false), description: 'Whether the arrays share a non-NULL element; NULL when either is NULL.', example: 'SELECT arrays_overlap([1, 2], [2, 3])' }),
  arrayFn({ name: 'array_contains_all', args: [arg('arr1'), arg('arr2')], returns: Types.BOOLEAN, resolve: arraysOfCommonType('array_contains_all', Types.BOOLEAN), nulls: 'custom', kernel: overlapKernel(true), description: 'Whether every element of arr2 (NULL too) is in arr1; NULL when either is NULL.', example: 'SELECT array_contains_all([1, 2, 3], [3, 1])' }),
  arrayFn({ name: 'array_min', args: [arg('arr')], returns: 'element type', resolve: (types) => ({ argTypes: [arrayArg('array_min', types)], returnType: concreteElement(arrayArg('array_min', types)) }), kernel: extremeKernel(false), description: 'The least non-NULL element; NULL when there is none.', example: 'SELECT array_min([3, NULL, 1])' }),
  arrayFn({ name: 'array_max', args: [arg('arr')], returns: 'element type', resolve: (types) => ({ argTypes: [arrayArg('array_max', types)], returnType: concreteElement(arrayArg('array_max', types)) }), kernel: extremeKernel(true), description: 'The greatest non-NULL element; NULL when there is none.', example: "SELECT array_max(['a', 'c', 'b'])" }),
  arrayFn({ name: 'array_sum', args: [arg('arr')], returns: 'BIGINT | DOUBLE', resolve: (types) => { const element = numericElement('array_sum', types); return { argTypes: [Types.array(element)], returnType: sumType(element) }; }, kernel: reduceKernel('sum'), description: `Sum of the non-NULL elements (${SUM_NOTE}); NULL when there is none.`, example: 'SELECT array_sum([1, 2, NULL, 4])' }),
  arrayFn({ name: 'array_avg', args: [arg('arr')], returns: Types.DOUBLE, resolve: (types) => ({ argTypes: [Types.array(numericElement('array_avg', types))], returnType: Types.DOUBLE }), kernel: reduceKernel('avg'), description: 'Mean of the non-NULL elements as DOUBLE; NULL when there is none.', example: 'SELECT array_avg([1, 2, NULL, 4])' }),
  arrayFn({ name: 'array_product', args: [arg('arr')], returns: Types.DOUBLE, resolve: (types) => ({ argTypes: [Types.array(numericElement('array_product', types))], returnType: Types.DOUBLE }), kernel: reduceKernel('product'), description: 'Product of the non-NULL elements as DOUBLE; NULL when there is none.', example: 'SELECT array_product([2, 3, NULL, 4])' }),
  arrayFn({ name: 'array_count', args: [arg('arr')], returns: Types.BIGINT, resolve: (types) => ({ argTypes: [Types.array(numericElement('array_count', types))], returnType: Types.BIGINT }), kernel: countKernel, description: 'How many elements are neither NULL nor zero; with a lambda first, array_count(lambda, arr, ...) counts the elements for which it is true.', example: 'SELECT array_count([0, 1, 2, NULL])' }),
  arrayFn({ name: 'array_join', args: [arg('arr'), arg('sep', 'STRING'), opt('null_replace', 'STRING')], returns: Types.STRING, resolve: (types) => { arrayArg('array_join', types); if (types.slice(1).some((t) => t.name !== 'NULL' && !isStringType(t))) throw badArgs('array_join', types); return { argTypes: [Types.array(Types.STRING), ...types.slice(1).map(() => Types.STRING)], returnType: Types.STRING }; }, kernel: joinKernel, description: 'The elements as text joined by sep; NULL elements are skipped, or written as null_replace when given.', example: "SELECT array_join(['a', NULL, 'b'], '-'), array_join(['a', NULL, 'b'], '-', '?')" }),
  arrayFn({ name: 'array_cum_sum', args: [arg('arr')], returns: 'ARRAY<BIGINT | DOUBLE>', resolve: runningType('array_cum_sum', false), kernel: runningKernel(false), description: `Running sums of the elements (${SUM_NOTE}); a NULL element is skipped and its position is NULL.`, example: 'SELECT array_cum_sum([1, NULL, 3, 4])' }),
  arrayFn({ name: 'array_difference', args: [arg('arr')], returns: 'ARRAY<wider type>', resolve: runningType('array_difference', true), kernel: runningKernel(true), description: 'Each element minus the one before it (0 first); a NULL element and the one after it give NULL.', example: 'SELECT array_difference([1, 3, 6, 10])' }),
  arrayFn({ name: 'array_enumerate', args: [arg('arr')], returns: 'ARRAY<BIGINT>', resolve: (types) => ({ argTypes: [arrayArg('array_enumerate', types)], returnType: Types.array(Types.BIGINT) }), kernel: enumerateKernel(false), description: '[1, 2, ..., n] for an array of n elements.', example: "SELECT array_enumerate(['a', 'b', 'c'])" }),
  arrayFn({ name: 'array_enumerate_uniq', args: [arg('arr')], returns: 'ARRAY<BIGINT>', resolve: (types) => ({ argTypes: [arrayArg('array_enumerate_uniq', types)], returnType: Types.array(Types.BIGINT) }), kernel: enumerateKernel(true), description: 'For each element, how many times its value has occurred so far (1 for a first occurrence).', example: 'SELECT array_enumerate_uniq([1, 2, 1, 1, 2])' }),
  arrayFn({ name: 'array_range', args: [arg('start_or_end', 'INT'), opt('end', 'INT'), opt('step', 'INT')], returns: Types.array(Types.INT), resolve: (types) => ({ argTypes: types.map(() => Types.INT), returnType: Types.array(Types.INT) }), kernel: rangeKernel, description: 'start (default 0), start + step, ... below end; step defaults to 1 and a step <= 0 gives NULL.', example: 'SELECT array_range(3), array_range(1, 10, 3)' }),
  arrayFn({ name: 'array_with_constant', args: [arg('count', 'BIGINT'), arg('value')], returns: 'ARRAY<type of value>', resolve: (types) => ({ argTypes: [Types.BIGINT, types[1].name === 'NULL' ? Types.TINYINT : types[1]], returnType: Types.array(types[1].name === 'NULL' ? Types.TINYINT : types[1]) }), nulls: 'custom', kernel: withConstantKernel(0), description: 'count copies of value (NULL too).', example: "SELECT array_with_constant(3, 'x')" }),
  arrayFn({ name: 'array_repeat', args: [arg('value'), arg('count', 'BIGINT')], returns: 'ARRAY<type of value>', resolve: (types) => ({ argTypes: [types[0].name === 'NULL' ? Types.TINYINT : types[0], Types.BIGINT], returnType: Types.array(types[0].name === 'NULL' ? Types.TINYINT : types[0]) }), nulls: 'custom', kernel: withConstantKernel(1), description: 'count copies of value (NULL too); array_with_constant with the arguments swapped.', example: 'SELECT array_repeat(7, 2)' }),
];
