/**
 * Doris's array higher-order functions in their lambda-free forms: the binder (src/sql/bind-lambda.ts)
 * rewrites `fn(lambda, arr, ...)` into these over `array_map(lambda, arr, ...)`, as Doris's FE does, so a
 * kernel here sees a plain ARRAY<BOOLEAN> of flags (or of sort keys) and never a lambda:
 *
 *   array_filter(arr, flags), array_exists(flags), array_first_index / array_last_index(flags),
 *   array_match_all / array_match_any(flags), array_sortby(arr, keys), array_split / array_reverse_split(arr, flags).
 *
 * array_map, array_first and array_last exist only with a lambda: their declarations here carry the
 * signature and docs, and refuse a call without one. A flag is true when it is neither NULL nor zero.
 * Flags and the array must have the same length on each row (Doris's error otherwise).
 */
import { takeRows, type ArrayVector, type FixedVector, type Vector } from '../../../common/column';
import { galeneError } from '../../../common/errors';
import { rowComparator } from '../../../common/row-order';
import { DataType, Types } from '../../../common/types';
import type { CallSite, FunctionDef, Resolution } from '../function-registry';
import { badArgs } from '../function-registry';
import { arg, defineFunction, rest } from '../signature';

const BOOLEAN_ARRAY = Types.array(Types.BOOLEAN);

function arrayType(name: string, types: readonly DataType[], argIdx: number): DataType {
  const type = types[argIdx];
  if (type.name === 'NULL') return Types.array(Types.TINYINT);
  if (type.name !== 'ARRAY') throw badArgs(name, types);
  return type;
}

/** fn(flags): the flags cast to ARRAY<BOOLEAN>. */
function flagsOnly(name: string, returnType: DataType) {
  return (types: readonly DataType[]): Resolution => {
    arrayType(name, types, 0);
    return { argTypes: [BOOLEAN_ARRAY], returnType };
  };
}

/** fn(arr, flags or keys). */
function arrayAndFlags(name: string, returns: (arr: DataType) => DataType, castSecond: boolean) {
  return (types: readonly DataType[]): Resolution => {
    const arr = arrayType(name, types, 0);
    const second = arrayType(name, types, 1);
    return { argTypes: [arr, castSecond ? BOOLEAN_ARRAY : second], returnType: returns(arr) };
  };
}

/** Lambda-only functions: a call without a lambda is refused with Doris's words. */
function needsLambda(name: string) {
  return (): Resolution => {
    throw galeneError('ANALYSIS_ERROR', `${name} must use lambda as first input params`);
  };
}

function unreachable(): Vector {
  throw galeneError('INTERNAL', 'a lambda-only function reached its kernel');
}

/** The BOOLEAN child of a flags array (0/1 values, its own null map). */
function flagValues(flags: ArrayVector): { values: Uint8Array; nulls: Uint8Array | null } {
  const child = flags.child as FixedVector;
  return { values: child.values as Uint8Array, nulls: child.nulls };
}

function isTrue(values: Uint8Array, nulls: Uint8Array | null, elemIdx: number): boolean {
  return values[elemIdx] !== 0 && (nulls === null || nulls[elemIdx] === 0);
}

function checkSameSize(name: string, arr: ArrayVector, other: ArrayVector, rowIdx: number): number {
  const size = arr.offsets[rowIdx + 1] - arr.offsets[rowIdx];
  if (other.offsets[rowIdx + 1] - other.offsets[rowIdx] !== size) throw galeneError('INVALID_ARGUMENT', `function ${name}'s second argument should have the same size as the first on every row`);
  return size;
}

function rowIsNull(vec: Vector, rowIdx: number): boolean {
  return vec.nulls !== null && vec.nulls[rowIdx] === 1;
}

/** array_filter(arr, flags): the elements whose flag is true. */
function filterKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const arr = args[0] as ArrayVector;
  const flags = args[1] as ArrayVector;
  const { values, nulls } = flagValues(flags);
  const offsets = new Int32Array(rowCount + 1);
  const ids: number[] = [];
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    if (!rowIsNull(arr, rowIdx) && !rowIsNull(flags, rowIdx)) {
      const size = checkSameSize('array_filter', arr, flags, rowIdx);
      const start = arr.offsets[rowIdx];
      const flagStart = flags.offsets[rowIdx];
      for (let pos = 0; pos < size; pos++) if (isTrue(values, nulls, flagStart + pos)) ids.push(start + pos);
    }
    offsets[rowIdx + 1] = ids.length;
  }
  return { kind: 'array', type: site.returnType, length: rowCount, offsets, child: takeRows(arr.child, ids), nulls: null };
}

/** array_exists(flags): the flags themselves, as 0/1 with their NULLs. */
function existsKernel(args: readonly Vector[]): Vector {
  return { ...(args[0] as ArrayVector), type: BOOLEAN_ARRAY };
}

/** array_first_index / array_last_index(flags): the 1-based position of the first / last true flag, 0 when none. */
function indexKernel(last: boolean) {
  return (args: readonly Vector[], rowCount: number): Vector => {
    const flags = args[0] as ArrayVector;
    const { values, nulls } = flagValues(flags);
    const out = new BigInt64Array(rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const start = flags.offsets[rowIdx];
      const size = flags.offsets[rowIdx + 1] - start;
      for (let step = 0; step < size; step++) {
        const pos = last ? size - 1 - step : step;
        if (isTrue(values, nulls, start + pos)) {
          out[rowIdx] = BigInt(pos + 1);
          break;
        }
      }
    }
    return { kind: 'fixed', type: Types.BIGINT, length: rowCount, values: out, nulls: null };
  };
}

/** array_match_all / array_match_any(flags) in three-valued logic: a NULL flag that could decide gives NULL. */
function matchKernel(all: boolean) {
  return (args: readonly Vector[], rowCount: number): Vector => {
    const flags = args[0] as ArrayVector;
    const { values, nulls } = flagValues(flags);
    const out = new Uint8Array(rowCount);
    const outNulls = new Uint8Array(rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      let decided = false;
      let unknown = false;
      for (let elemIdx = flags.offsets[rowIdx]; elemIdx < flags.offsets[rowIdx + 1]; elemIdx++) {
        if (nulls !== null && nulls[elemIdx] === 1) unknown = true;
        else if ((values[elemIdx] !== 0) !== all) {
          decided = true;
          break;
        }
      }
      out[rowIdx] = decided ? (all ? 0 : 1) : all ? 1 : 0;
      outNulls[rowIdx] = !decided && unknown ? 1 : 0;
    }
    return { kind: 'fixed', type: Types.BOOLEAN, length: rowCount, values: out, nulls: outNulls };
  };
}

/** array_sortby(arr, keys): arr reordered by ascending keys (NULL keys first); a NULL keys array leaves arr as it is. */
function sortByKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const arr = args[0] as ArrayVector;
  const keys = args[1] as ArrayVector;
  const compare = rowComparator(keys.child, false, true);
  const offsets = new Int32Array(rowCount + 1);
  const ids: number[] = [];
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    if (!rowIsNull(arr, rowIdx)) {
      const start = arr.offsets[rowIdx];
      const size = arr.offsets[rowIdx + 1] - start;
      const positions = Array.from({ length: size }, (_v, pos) => pos);
      if (!rowIsNull(keys, rowIdx)) {
        checkSameSize('array_sortby', arr, keys, rowIdx);
        const keyStart = keys.offsets[rowIdx];
        positions.sort((a, b) => compare(keyStart + a, keyStart + b) || a - b);
      }
      for (const pos of positions) ids.push(start + pos);
    }
    offsets[rowIdx + 1] = ids.length;
  }
  return { kind: 'array', type: site.returnType, length: rowCount, offsets, child: takeRows(arr.child, ids), nulls: arr.nulls };
}

/**
 * array_split(arr, flags): a new piece starts at each element (but the first) whose flag is true;
 * array_reverse_split: a piece ends at each element (but the last) whose flag is true. NULL flags do not split.
 */
function splitKernel(reverse: boolean) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const arr = args[0] as ArrayVector;
    const flags = args[1] as ArrayVector;
    const { values, nulls } = flagValues(flags);
    const outer = new Int32Array(rowCount + 1);
    const inner: number[] = [0];
    const ids: number[] = [];
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (!rowIsNull(arr, rowIdx) && !rowIsNull(flags, rowIdx)) {
        const size = checkSameSize(site.name, arr, flags, rowIdx);
        const start = arr.offsets[rowIdx];
        const flagStart = flags.offsets[rowIdx];
        for (let pos = 0; pos < size; pos++) {
          const cutBefore = reverse ? pos > 0 && isTrue(values, nulls, flagStart + pos - 1) : pos > 0 && isTrue(values, nulls, flagStart + pos);
          if (cutBefore) inner.push(ids.length);
          ids.push(start + pos);
        }
        if (size > 0) inner.push(ids.length);
      }
      outer[rowIdx + 1] = inner.length - 1;
    }
    const elementType = site.returnType.element!;
    const pieces: ArrayVector = { kind: 'array', type: elementType, length: inner.length - 1, offsets: Int32Array.from(inner), child: takeRows(arr.child, ids), nulls: null };
    return { kind: 'array', type: site.returnType, length: rowCount, offsets: outer, child: pieces, nulls: null };
  };
}

function hof(decl: Omit<Parameters<typeof defineFunction>[0], 'family'>): FunctionDef {
  return defineFunction({ ...decl, family: 'array' });
}

const LAMBDA_NOTE = 'With a lambda first, fn(lambda, arr, ...) is fn over array_map(lambda, arr, ...).';

export const ARRAY_HIGHER_ORDER_FUNCTIONS: readonly FunctionDef[] = [
  hof({ name: 'array_map', args: [arg('lambda'), rest('arr')], signature: 'array_map(lambda, arr[, arr ...]) -> ARRAY<type of lambda>', returns: 'ARRAY<type of lambda>', resolve: needsLambda('array_map'), kernel: unreachable, description: 'The lambda applied to the elements (one parameter per array; the arrays must have the same length on each row); a NULL array gives NULL.', example: 'SELECT array_map(x -> x * 2, [1, 2, 3]), array_map((x, y) -> x + y, [1, 2], [10, 20])' }),
  hof({ name: 'array_filter', args: [arg('arr'), arg('flags')], signature: 'array_filter(arr, flags) | array_filter(lambda, arr[, arr ...]) -> type of arr', returns: 'type of arr', resolve: arrayAndFlags('array_filter', (arr) => arr, true), kernel: filterKernel, description: `The elements whose flag is true. ${LAMBDA_NOTE}`, example: 'SELECT array_filter(x -> x > 1, [1, 2, 3]), array_filter([1, 2, 3], [true, false, true])' }),
  hof({ name: 'array_exists', args: [arg('flags')], signature: 'array_exists(flags) | array_exists(lambda, arr[, arr ...]) -> ARRAY<BOOLEAN>', returns: BOOLEAN_ARRAY, resolve: flagsOnly('array_exists', BOOLEAN_ARRAY), kernel: existsKernel, description: `For each element, whether it is true (non-zero); NULL stays NULL. ${LAMBDA_NOTE}`, example: 'SELECT array_exists(x -> x > 1, [1, 2, 3])' }),
  hof({ name: 'array_first', args: [arg('lambda'), arg('arr')], signature: 'array_first(lambda, arr[, arr ...]) -> element type', returns: 'element type', resolve: needsLambda('array_first'), kernel: unreachable, description: 'The first element for which the lambda is true, NULL when there is none.', example: 'SELECT array_first(x -> x > 1, [1, 2, 3])' }),
  hof({ name: 'array_last', args: [arg('lambda'), arg('arr')], signature: 'array_last(lambda, arr[, arr ...]) -> element type', returns: 'element type', resolve: needsLambda('array_last'), kernel: unreachable, description: 'The last element for which the lambda is true, NULL when there is none.', example: 'SELECT array_last(x -> x > 1, [1, 2, 3])' }),
  hof({ name: 'array_first_index', args: [arg('flags')], signature: 'array_first_index(flags) | array_first_index(lambda, arr[, arr ...]) -> BIGINT', returns: Types.BIGINT, resolve: flagsOnly('array_first_index', Types.BIGINT), kernel: indexKernel(false), description: `The 1-based position of the first true element, 0 when there is none. ${LAMBDA_NOTE}`, example: 'SELECT array_first_index(x -> x > 1, [1, 2, 3])' }),
  hof({ name: 'array_last_index', args: [arg('flags')], signature: 'array_last_index(flags) | array_last_index(lambda, arr[, arr ...]) -> BIGINT', returns: Types.BIGINT, resolve: flagsOnly('array_last_index', Types.BIGINT), kernel: indexKernel(true), description: `The 1-based position of the last true element, 0 when there is none. ${LAMBDA_NOTE}`, example: 'SELECT array_last_index(x -> x > 1, [1, 2, 3, 0])' }),
  hof({ name: 'array_match_all', args: [arg('flags')], signature: 'array_match_all(flags) | array_match_all(lambda, arr[, arr ...]) -> BOOLEAN', returns: Types.BOOLEAN, resolve: flagsOnly('array_match_all', Types.BOOLEAN), kernel: matchKernel(true), description: `Whether every element is true (true for an empty array; NULL when none is false but some is NULL). ${LAMBDA_NOTE}`, example: 'SELECT array_match_all(x -> x > 0, [1, 2, 3])' }),
  hof({ name: 'array_match_any', args: [arg('flags')], signature: 'array_match_any(flags) | array_match_any(lambda, arr[, arr ...]) -> BOOLEAN', returns: Types.BOOLEAN, resolve: flagsOnly('array_match_any', Types.BOOLEAN), kernel: matchKernel(false), description: `Whether some element is true (false for an empty array; NULL when none is true but some is NULL). ${LAMBDA_NOTE}`, example: 'SELECT array_match_any(x -> x > 2, [1, 2, 3])' }),
  hof({ name: 'array_sortby', args: [arg('arr'), arg('keys')], signature: 'array_sortby(arr, keys) | array_sortby(lambda, arr[, arr ...]) -> type of arr', returns: 'type of arr', resolve: arrayAndFlags('array_sortby', (arr) => arr, false), nulls: 'custom', kernel: sortByKernel, description: `arr reordered by ascending keys (NULL keys first; NULL keys: arr unchanged). ${LAMBDA_NOTE}`, example: "SELECT array_sortby(['a', 'b', 'c'], [3, 1, 2]), array_sortby(x -> -x, [1, 2, 3])" }),
  hof({ name: 'array_split', args: [arg('arr'), arg('flags')], signature: 'array_split(arr, flags) | array_split(lambda, arr[, arr ...]) -> ARRAY<type of arr>', returns: 'ARRAY<type of arr>', resolve: arrayAndFlags('array_split', (arr) => Types.array(arr), true), kernel: splitKernel(false), description: `arr cut before each element (but the first) whose flag is true. ${LAMBDA_NOTE}`, example: 'SELECT array_split([1, 2, 3, 4, 5], [false, true, false, true, false])' }),
  hof({ name: 'array_reverse_split', args: [arg('arr'), arg('flags')], signature: 'array_reverse_split(arr, flags) | array_reverse_split(lambda, arr[, arr ...]) -> ARRAY<type of arr>', returns: 'ARRAY<type of arr>', resolve: arrayAndFlags('array_reverse_split', (arr) => Types.array(arr), true), kernel: splitKernel(true), description: `arr cut after each element (but the last) whose flag is true. ${LAMBDA_NOTE}`, example: 'SELECT array_reverse_split([1, 2, 3, 4, 5], [false, true, false, true, false])' }),
];
