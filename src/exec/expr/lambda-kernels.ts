/**
 * The two calls that evaluate a lambda (every other higher-order function is rewritten by the binder into
 * one over array_map, as Doris's FE does): array_map(lambda, arr1, ...) and array_sort((x, y) -> cmp, arr).
 *
 * A lambda is never called per element: its body is compiled like any expression (compile-expr.ts) and
 * run once per batch over a batch of its own — the arrays' children flattened into columns (one per
 * parameter), then each captured outer expression repeated once per element (one takeRows by parent
 * row). So `x -> x * 2 + t.k` is one multiply and one add over all the elements of the batch.
 *
 * Doris's rules: the arrays given to one lambda must have the same length on each row ("function array_map
 * 's 2-th argument should have same offsets with first argument"); a NULL array makes the row NULL.
 */
import { takeRows, type ArrayVector, type Batch, type Vector } from '../../common/column';
import { galeneError } from '../../common/errors';
import { typesEqual, type DataType } from '../../common/types';
import type { TaskContext } from '../context';
import { castVector } from './cast';
import { toF64 } from './vector-ops';

/** Evaluates a compiled lambda body over its own batch (parameters, then captures). */
export type BodyEval = (batch: Batch, ctx: TaskContext) => Vector;

/** The rows where any of the arrays is NULL, or null when none is. */
function nullRows(lists: readonly ArrayVector[], rowCount: number): Uint8Array | null {
  let nulls: Uint8Array | null = null;
  for (const list of lists) {
    if (list.nulls === null) continue;
    nulls ??= new Uint8Array(rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) nulls[rowIdx] |= list.nulls[rowIdx];
  }
  return nulls;
}

/** Per row, the element count (0 for a NULL row); throws Doris's error when the arrays disagree. */
function rowSizes(lists: readonly ArrayVector[], nulls: Uint8Array | null, rowCount: number, name: string): Int32Array {
  const sizes = new Int32Array(rowCount);
  const first = lists[0];
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    if (nulls !== null && nulls[rowIdx] === 1) continue;
    const size = first.offsets[rowIdx + 1] - first.offsets[rowIdx];
    for (let listIdx = 1; listIdx < lists.length; listIdx++) {
      const other = lists[listIdx];
      if (other.offsets[rowIdx + 1] - other.offsets[rowIdx] !== size) {
        throw galeneError('INVALID_ARGUMENT', `function ${name}'s ${listIdx + 1}-th argument should have same offsets with first argument`);
      }
    }
    sizes[rowIdx] = size;
  }
  return sizes;
}

/** array_map: the body over every element; the result's offsets are the arrays' (NULL rows empty). */
export function arrayMapKernel(body: BodyEval, lists: readonly ArrayVector[], captures: readonly Vector[], rowCount: number, type: DataType, ctx: TaskContext): Vector {
  const nulls = nullRows(lists, rowCount);
  const sizes = rowSizes(lists, nulls, rowCount, 'array_map');
  const offsets = new Int32Array(rowCount + 1);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) offsets[rowIdx + 1] = offsets[rowIdx] + sizes[rowIdx];
  const total = offsets[rowCount];
  const parents = new Int32Array(total);
  const elementIds = lists.map(() => new Int32Array(total));
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const base = offsets[rowIdx];
    for (let pos = 0; pos < sizes[rowIdx]; pos++) parents[base + pos] = rowIdx;
    lists.forEach((list, listIdx) => {
      const ids = elementIds[listIdx];
      const start = list.offsets[rowIdx];
      for (let pos = 0; pos < sizes[rowIdx]; pos++) ids[base + pos] = start + pos;
    });
  }
  const columns = [...lists.map((list, listIdx) => takeRows(list.child, elementIds[listIdx])), ...captures.map((vec) => takeRows(vec, parents))];
  const result = body({ length: total, columns }, ctx);
  const element = type.element!;
  const child = typesEqual(result.type, element) ? result : castVector(result, element, 'sql');
  return { kind: 'array', type, length: rowCount, offsets, child, nulls };
}

/**
 * array_sort((x, y) -> cmp, arr): the comparator over every ordered pair of a row's elements, computed in
 * one batch (n² pairs per row), then each row's element ids sorted by the table of answers (a negative
 * answer puts x first; NULL counts as 0). Stable, so equal elements keep their order.
 */
export function arraySortLambdaKernel(body: BodyEval, list: ArrayVector, captures: readonly Vector[], rowCount: number, type: DataType, ctx: TaskContext): Vector {
  const sizes = rowSizes([list], list.nulls, rowCount, 'array_sort');
  let pairCount = 0;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) pairCount += sizes[rowIdx] * sizes[rowIdx];
  if (pairCount > 64 * 1024 * 1024) throw galeneError('INVALID_ARGUMENT', 'array_sort with a lambda: arrays too large to compare pairwise');
  const left = new Int32Array(pairCount);
  const right = new Int32Array(pairCount);
  const parents = new Int32Array(pairCount);
  let pairIdx = 0;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const start = list.offsets[rowIdx];
    const size = sizes[rowIdx];
    for (let xIdx = 0; xIdx < size; xIdx++) {
      for (let yIdx = 0; yIdx < size; yIdx++) {
        left[pairIdx] = start + xIdx;
        right[pairIdx] = start + yIdx;
        parents[pairIdx++] = rowIdx;
      }
    }
  }
  const answers = body({ length: pairCount, columns: [takeRows(list.child, left), takeRows(list.child, right), ...captures.map((vec) => takeRows(vec, parents))] }, ctx);
  const order = toF64(answers);
  const answerNulls = answers.nulls;
  const offsets = new Int32Array(rowCount + 1);
  const ids: number[] = [];
  let rowBase = 0;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const start = list.offsets[rowIdx];
    const size = sizes[rowIdx];
    const positions = Array.from({ length: size }, (_v, pos) => pos);
    positions.sort((xPos, yPos) => {
      const at = rowBase + xPos * size + yPos;
      const answer = answerNulls !== null && answerNulls[at] === 1 ? 0 : order[at];
      return answer < 0 ? -1 : answer > 0 ? 1 : 0;
    });
    for (const pos of positions) ids.push(start + pos);
    rowBase += size * size;
    offsets[rowIdx + 1] = ids.length;
  }
  return { kind: 'array', type, length: rowCount, offsets, child: takeRows(list.child, ids), nulls: list.nulls };
}
