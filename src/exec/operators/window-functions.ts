/**
 * The kernels of the window functions, each over the whole sorted input at once (typed arrays indexed by
 * sorted row position, see window-frames.ts):
 *   - ranking (row_number, rank, dense_rank, percent_rank, cume_dist, ntile) from the partition and peer
 *     arrays;
 *   - value functions (lag, lead, first_value, last_value, nth_value) as a source row per output row, then
 *     one takeRows of the argument;
 *   - aggregates: a frame that is the whole partition runs the aggregate's own accumulator with one group
 *     per partition (so every aggregate, DISTINCT included, works as in GROUP BY); other frames use
 *     prefix sums (COUNT, exact SUM / AVG), add/remove with compensated summation (DOUBLE SUM / AVG over
 *     sliding frames) or a monotonic deque (MIN / MAX), all O(n) since frame bounds only move forward.
 *     Any other aggregate over a moving frame feeds each row's frame to a group of its own (O(total frame
 *     size), in chunks with event-loop checkpoints).
 */
import { takeRows, type Vector } from '../../common/column';
import { physicalKind, Types, type DataType } from '../../common/types';
import { bigintsAs } from '../expr/functions/arithmetic';
import { resolveAggregate } from '../expr';
import { emptyGroupNulls } from '../expr/aggregates/aggregate-functions';
import { bigDivRound, gatherBranches, i64AllSafe, maxAbs, objectVectorFromExactNumbers, scaleOf, toBigScaled, toF64, toNumberScaled, vectorFromNumbers, EXACT_NUMBER_LIMIT } from '../expr/vector-ops';
import type { WindowFunctionSpec } from '../plan/physical-plan';
import { comparableValues } from './sort-permutation';
import { coversPartitions, startsAtPartition, type FrameRows, type PartitionLayout } from './window-frames';

/** What a kernel gets: the function, its argument vectors over the sorted rows, the layout and its frame. */
export interface WindowInput {
  readonly spec: WindowFunctionSpec;
  readonly args: readonly Vector[];
  readonly layout: PartitionLayout;
  readonly frame: FrameRows;
  /** Yields to the event loop when the statement's time slice is used (QueryTask.checkpoint). */
  readonly checkpoint: () => Promise<void> | undefined;
}

/** One output vector (one value per sorted row) for a window function. */
export async function computeWindowFunction(input: WindowInput): Promise<Vector> {
  const { spec } = input;
  if (spec.aggregate) return windowAggregate(input);
  switch (spec.name) {
    case 'row_number':
    case 'rank':
    case 'dense_rank':
    case 'ntile':
      return vectorFromNumbers(Types.BIGINT, ranking(spec.name, spec.param, input.layout), null);
    case 'percent_rank':
    case 'cume_dist':
      return vectorFromNumbers(Types.DOUBLE, ranking(spec.name, spec.param, input.layout), null);
    case 'lag':
    case 'lead':
      return shifted(input);
    case 'first_value':
    case 'last_value':
    case 'nth_value':
      return takeWithNulls(input.args[0], frameValueRows(input));
    default:
      throw new TypeError(`unknown window function ${spec.name}`);
  }
}

function ranking(name: string, buckets: number, layout: PartitionLayout): Float64Array {
  const { rowCount, partStart, partEnd, peerStart, peerEnd } = layout;
  const out = new Float64Array(rowCount);
  let dense = 0;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const first = partStart[rowIdx];
    const size = partEnd[rowIdx] - first;
    switch (name) {
      case 'row_number':
        out[rowIdx] = rowIdx - first + 1;
        break;
      case 'rank':
        out[rowIdx] = peerStart[rowIdx] - first + 1;
        break;
      case 'dense_rank':
        if (rowIdx === first) dense = 1;
        else if (peerStart[rowIdx] === rowIdx) dense++;
        out[rowIdx] = dense;
        break;
      case 'percent_rank':
        out[rowIdx] = size <= 1 ? 0 : (peerStart[rowIdx] - first) / (size - 1);
        break;
      case 'cume_dist':
        out[rowIdx] = (peerEnd[rowIdx] - first) / size;
        break;
      case 'ntile': {
        // The first `size % buckets` buckets hold one row more than the others.
        const small = Math.floor(size / buckets);
        const large = small + 1;
        const largeBuckets = size % buckets;
        const position = rowIdx - first;
        out[rowIdx] = position < largeBuckets * large ? Math.floor(position / large) + 1 : largeBuckets + Math.floor((position - largeBuckets * large) / small) + 1;
        break;
      }
    }
  }
  return out;
}

/** `vec` at rows `source` (-1: NULL). */
function takeWithNulls(vec: Vector, source: Int32Array): Vector {
  const count = source.length;
  const rows = new Int32Array(count);
  let missing: Uint8Array | null = null;
  for (let rowIdx = 0; rowIdx < count; rowIdx++) {
    const src = source[rowIdx];
    if (src < 0) {
      missing ??= new Uint8Array(count);
      missing[rowIdx] = 1;
    } else rows[rowIdx] = src;
  }
  const taken = takeRows(vec, rows, count);
  if (missing === null) return taken;
  const nulls = taken.nulls === null ? missing : taken.nulls.map((flag, rowIdx) => flag | missing![rowIdx]);
  return { ...taken, nulls } as Vector;
}

/** LAG / LEAD: the value `offset` rows before / after within the partition, else the default (or NULL). */
function shifted(input: WindowInput): Vector {
  const { spec, layout } = input;
  const value = input.args[0];
  const rowCount = layout.rowCount;
  const step = spec.name === 'lag' ? -spec.param : spec.param;
  const rows = new Int32Array(rowCount);
  const choice = new Int32Array(rowCount);
  const fallback = input.args.length > 1 ? 1 : -1;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const src = rowIdx + step;
    const inside = src >= layout.partStart[rowIdx] && src < layout.partEnd[rowIdx];
    rows[rowIdx] = inside ? src : rowIdx;
    choice[rowIdx] = inside ? 0 : fallback;
  }
  const moved = takeRows(value, rows, rowCount);
  return gatherBranches(spec.type, fallback > 0 ? [moved, input.args[1]] : [moved], choice, rowCount);
}

/** FIRST_VALUE / LAST_VALUE / NTH_VALUE: the source row in each frame (-1: none), NULLs skipped if asked. */
function frameValueRows(input: WindowInput): Int32Array {
  const { spec, frame, layout } = input;
  const rowCount = layout.rowCount;
  const out = new Int32Array(rowCount);
  const nulls = input.args[0].nulls;
  const skipNulls = spec.ignoreNulls && nulls !== null;
  let nextValid: Int32Array | null = null;
  let prevValid: Int32Array | null = null;
  if (skipNulls && spec.name === 'first_value') {
    nextValid = new Int32Array(rowCount + 1);
    nextValid[rowCount] = rowCount;
    for (let rowIdx = rowCount - 1; rowIdx >= 0; rowIdx--) nextValid[rowIdx] = nulls[rowIdx] === 0 ? rowIdx : nextValid[rowIdx + 1];
  } else if (skipNulls && spec.name === 'last_value') {
    prevValid = new Int32Array(rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) prevValid[rowIdx] = nulls[rowIdx] === 0 ? rowIdx : rowIdx > 0 ? prevValid[rowIdx - 1] : -1;
  }
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const start = frame.start[rowIdx];
    const end = frame.end[rowIdx];
    let src = -1;
    if (start < end) {
      if (spec.name === 'first_value') {
        src = nextValid === null ? start : nextValid[start] < end ? nextValid[start] : -1;
      } else if (spec.name === 'last_value') {
        src = prevValid === null ? end - 1 : prevValid[end - 1] >= start ? prevValid[end - 1] : -1;
      } else {
        src = start + spec.param - 1 < end ? start + spec.param - 1 : -1;
      }
    }
    out[rowIdx] = src;
  }
  return out;
}

// ---------------------------------------------------------------- aggregates

async function windowAggregate(input: WindowInput): Promise<Vector> {
  const { spec, layout, frame } = input;
  if (coversPartitions(frame, layout)) return perPartition(input);
  if (!spec.distinct) {
    switch (spec.name) {
      case 'count':
        return countOverFrames(input);
      case 'sum':
      case 'avg':
        return spec.argTypes[0].name === 'DOUBLE' ? doubleSumOverFrames(input) : exactSumOverFrames(input);
      case 'min':
      case 'max':
        return takeWithNulls(input.args[0], extremeRows(input, spec.name === 'max'));
      default:
        break;
    }
  }
  return frameGroups(input);
}

/** The aggregate's accumulator with one group per partition, each row given its partition's value. */
function perPartition(input: WindowInput): Vector {
  const { spec, layout } = input;
  const accumulator = resolveAggregate(spec.name, spec.argTypes, spec.distinct).create();
  accumulator.resize(layout.partitionCount);
  if (layout.rowCount > 0) accumulator.update(layout.partitionId, input.args, layout.rowCount);
  return takeRows(accumulator.finalize(layout.partitionCount), layout.partitionId);
}

/** Prefix counts of the rows where every argument is non-NULL (COUNT(*): all rows). */
function validPrefix(args: readonly Vector[], rowCount: number): Float64Array {
  const prefix = new Float64Array(rowCount + 1);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    let valid = 1;
    for (const arg of args) if (arg.nulls !== null && arg.nulls[rowIdx] === 1) valid = 0;
    prefix[rowIdx + 1] = prefix[rowIdx] + valid;
  }
  return prefix;
}

function countOverFrames(input: WindowInput): Vector {
  const rowCount = input.layout.rowCount;
  const prefix = validPrefix(input.args, rowCount);
  const out = new Float64Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = prefix[input.frame.end[rowIdx]] - prefix[input.frame.start[rowIdx]];
  return vectorFromNumbers(Types.BIGINT, out, null);
}

function frameCounts(input: WindowInput): Float64Array {
  const rowCount = input.layout.rowCount;
  const prefix = validPrefix(input.args.slice(0, 1), rowCount);
  const counts = new Float64Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) counts[rowIdx] = prefix[input.frame.end[rowIdx]] - prefix[input.frame.start[rowIdx]];
  return counts;
}

/**
 * DOUBLE SUM / AVG. A running frame adds values in row order, as GROUP BY's sum does; a sliding frame
 * adds and removes with Neumaier's compensation, so removals do not leave rounding residue behind.
 */
function doubleSumOverFrames(input: WindowInput): Vector {
  const { layout, frame, spec } = input;
  const rowCount = layout.rowCount;
  const values = toF64(input.args[0]);
  const nulls = input.args[0].nulls;
  const counts = frameCounts(input);
  const out = new Float64Array(rowCount);
  const running = startsAtPartition(frame, layout);
  let sum = 0;
  let compensation = 0;
  let lo = 0;
  let hi = 0;
  const add = (value: number): void => {
    const next = sum + value;
    compensation += Math.abs(sum) >= Math.abs(value) ? sum - next + value : value - next + sum;
    sum = next;
  };
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    if (rowIdx === layout.partStart[rowIdx]) {
      sum = 0;
      compensation = 0;
      lo = hi = rowIdx;
    }
    const start = frame.start[rowIdx];
    const end = frame.end[rowIdx];
    // Add up to the frame's end first (end >= start), then remove what fell out before its start.
    for (; hi < end; hi++) {
      if (nulls !== null && nulls[hi] === 1) continue;
      if (running) sum += values[hi];
      else add(values[hi]);
    }
    for (; lo < start; lo++) if (nulls === null || nulls[lo] === 0) add(-values[lo]);
    const total = sum + compensation;
    out[rowIdx] = spec.name === 'avg' ? total / counts[rowIdx] : total;
  }
  return vectorFromNumbers(spec.type, out, emptyGroupNulls(counts, rowCount));
}

/** Integer / decimal SUM / AVG from exact prefix sums (float64 while they stay below 2^53, else bigint). */
function exactSumOverFrames(input: WindowInput): Vector {
  const { frame, spec } = input;
  const arg = input.args[0];
  const rowCount = input.layout.rowCount;
  const counts = frameCounts(input);
  const nulls = emptyGroupNulls(counts, rowCount);
  const scale = scaleOf(spec.argTypes[0]);
  const fitsNumbers = arg.kind === 'fixed' && !(arg.values instanceof BigInt64Array && !i64AllSafe(arg.values, rowCount));
  const numbers = fitsNumbers ? toNumberScaled(arg, scale) : null;
  if (numbers !== null && maxAbs(numbers, rowCount) * rowCount < EXACT_NUMBER_LIMIT) {
    const prefix = new Float64Array(rowCount + 1);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) prefix[rowIdx + 1] = prefix[rowIdx] + (arg.nulls !== null && arg.nulls[rowIdx] === 1 ? 0 : numbers[rowIdx]);
    const sums = new Float64Array(rowCount);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) sums[rowIdx] = prefix[frame.end[rowIdx]] - prefix[frame.start[rowIdx]];
    if (spec.name === 'avg' && spec.type.name !== 'DECIMAL') {
      const divisor = 10 ** scale;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) sums[rowIdx] = counts[rowIdx] === 0 ? 0 : sums[rowIdx] / divisor / counts[rowIdx];
      return vectorFromNumbers(spec.type, sums, nulls);
    }
    if (spec.name === 'sum') return physicalKind(spec.type) === 'bigint' ? objectVectorFromExactNumbers(spec.type, sums, nulls) : vectorFromNumbers(spec.type, sums, nulls);
    return decimalAverages(spec.type, scale, (rowIdx) => BigInt(sums[rowIdx]), counts, nulls);
  }
  const big = toBigScaled(arg, scale);
  const prefix = new Array<bigint>(rowCount + 1);
  prefix[0] = 0n;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) prefix[rowIdx + 1] = prefix[rowIdx] + (arg.nulls !== null && arg.nulls[rowIdx] === 1 ? 0n : big[rowIdx]);
  const sumAt = (rowIdx: number): bigint => prefix[frame.end[rowIdx]] - prefix[frame.start[rowIdx]];
  if (spec.name === 'avg' && spec.type.name !== 'DECIMAL') {
    const out = new Float64Array(rowCount);
    const divisor = 10 ** scale;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = counts[rowIdx] === 0 ? 0 : Number(sumAt(rowIdx)) / divisor / counts[rowIdx];
    return vectorFromNumbers(spec.type, out, nulls);
  }
  if (spec.name === 'avg') return decimalAverages(spec.type, scale, sumAt, counts, nulls);
  const out = new Array<bigint>(rowCount);
  const wrap = physicalKind(spec.type) === 'i64';
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = wrap ? BigInt.asIntN(64, sumAt(rowIdx)) : sumAt(rowIdx);
  return bigintsAs(spec.type, out, nulls);
}

/** DECIMAL AVG: the exact sum scaled up to the result's scale, divided by the count, rounded half away from zero. */
function decimalAverages(type: DataType, argScale: number, sumAt: (rowIdx: number) => bigint, counts: Float64Array, nulls: Uint8Array | null): Vector {
  const rowCount = counts.length;
  const up = 10n ** BigInt(scaleOf(type) - argScale);
  const out = new Array<bigint>(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = counts[rowIdx] === 0 ? 0n : bigDivRound(sumAt(rowIdx) * up, BigInt(counts[rowIdx]));
  return bigintsAs(type, out, nulls);
}

/** MIN / MAX: the row holding each frame's extreme non-NULL value (-1: none), by a monotonic deque. */
function extremeRows(input: WindowInput, largest: boolean): Int32Array {
  const { layout, frame } = input;
  const rowCount = layout.rowCount;
  const arg = input.args[0];
  const values = comparableValues(arg);
  const nulls = arg.nulls;
  const deque = new Int32Array(rowCount);
  const out = new Int32Array(rowCount);
  let head = 0;
  let tail = 0;
  let hi = 0;
  // `worse(a, b)`: b beats a, so a can never be the answer while b is in the frame.
  const worse = largest ? (a: number, b: number): boolean => values[a] <= values[b] : (a: number, b: number): boolean => values[a] >= values[b];
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    if (rowIdx === layout.partStart[rowIdx]) {
      head = tail = 0;
      hi = rowIdx;
    }
    const start = frame.start[rowIdx];
    const end = frame.end[rowIdx];
    if (hi < start) hi = start;
    for (; hi < end; hi++) {
      if (nulls !== null && nulls[hi] === 1) continue;
      while (tail > head && worse(deque[tail - 1], hi)) tail--;
      deque[tail++] = hi;
    }
    while (tail > head && deque[head] < start) head++;
    out[rowIdx] = tail > head ? deque[head] : -1;
  }
  return out;
}

/** Entries (frame rows) fed to the accumulator per step of frameGroups. */
const FRAME_CHUNK_ROWS = 65_536;

/** Any aggregate over moving frames: row r's frame rows go to group r of one accumulator. */
async function frameGroups(input: WindowInput): Promise<Vector> {
  const { spec, frame, layout } = input;
  const rowCount = layout.rowCount;
  const accumulator = resolveAggregate(spec.name, spec.argTypes, spec.distinct).create();
  accumulator.resize(rowCount);
  let rowIds = new Int32Array(FRAME_CHUNK_ROWS);
  let groupIds = new Int32Array(FRAME_CHUNK_ROWS);
  let count = 0;
  const flush = async (): Promise<void> => {
    if (count === 0) return;
    const ids = rowIds.subarray(0, count);
    accumulator.update(groupIds.subarray(0, count), input.args.map((arg) => takeRows(arg, ids, count)), count);
    count = 0;
    const pause = input.checkpoint();
    if (pause !== undefined) await pause;
  };
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const size = frame.end[rowIdx] - frame.start[rowIdx];
    if (count + size > rowIds.length) {
      await flush();
      if (size > rowIds.length) {
        rowIds = new Int32Array(size);
        groupIds = new Int32Array(size);
      }
    }
    for (let src = frame.start[rowIdx]; src < frame.end[rowIdx]; src++) {
      rowIds[count] = src;
      groupIds[count++] = rowIdx;
    }
  }
  await flush();
  return accumulator.finalize(rowCount);
}
