/**
 * Null maps vs null bitmaps (issue 9, seam 7): the engine's layout (one byte per row, 1 = NULL, as
 * src/common/column.ts has it) against a bitmap (one bit per row, 1 = NULL, the polarity of the page
 * format's bitmap; Arrow's validity bitmap is the same cost with the bit flipped), on the hot paths, with
 * the kernels written the way the engine writes them and the best plain-JS bitmap form of each:
 *
 * - filter: `x > c` over a nullable DOUBLE, the selection (compile-expr.ts selectTrue: truth & not-null),
 *   then gathering the null map of a second nullable column for the selected rows (column.ts takeRows);
 * - aggregate: SUM(x) and COUNT(x) grouped by a small int key (aggregate-functions.ts, exact-sum.ts);
 * - decode: building a page's null map from its on-disk bitmap (storage/encoding/null-map.ts readNullMap),
 *   and OR-ing two null maps for NULL propagation (exec/expr/vector-ops.ts orNulls).
 *
 * Every kernel runs over the whole column in 4,096-row batches (BATCH_SIZE), 10% of rows NULL at random,
 * fixed seed; the median of several runs after a warm-up. `ratio` is bitmap time / byte-map time (above 1:
 * the byte map is faster).
 *
 * A second table measures the null count (column.ts): an all-valid batch whose null map is kept (all
 * zero, as a slice of a nullable page or a filter's output used to be) against one dropped to null by its
 * producer (the anyNullIn scan included), on the same select, aggregate and OR kernels.
 *
 *   npm run bench -- nullmaps [--quick] [--json FILE]
 */
import * as fs from 'node:fs';
import { anyNullIn, BATCH_SIZE } from '../src/common/column';
import { mulberry32 } from '../src/common/prng';
import { median, parseBenchArgs, peakRssMiB, report, Row } from './lib/report';

const NULL_FRACTION = 0.1;
const GROUPS = 16;

interface Column {
  /** Per batch: the values, the byte-per-row null map, the bitmap (ceil(rows / 8) bytes). */
  readonly values: Float64Array[];
  readonly bytes: Uint8Array[];
  readonly bits: Uint8Array[];
}

function makeColumn(rowCount: number, seed: number): Column {
  const random = mulberry32(seed);
  const column: Column = { values: [], bytes: [], bits: [] };
  for (let start = 0; start < rowCount; start += BATCH_SIZE) {
    const length = Math.min(BATCH_SIZE, rowCount - start);
    const values = new Float64Array(length);
    const bytes = new Uint8Array(length);
    const bits = new Uint8Array((length + 7) >>> 3);
    for (let rowIdx = 0; rowIdx < length; rowIdx++) {
      values[rowIdx] = Math.floor(random() * 1000);
      if (random() < NULL_FRACTION) {
        bytes[rowIdx] = 1;
        bits[rowIdx >>> 3] |= 1 << (rowIdx & 7);
      }
    }
    column.values.push(values);
    column.bytes.push(bytes);
    column.bits.push(bits);
  }
  return column;
}

/** Keeps results alive so no kernel is optimized away. */
let sink = 0;

// ---------------------------------------------------------------- filter

/** The comparison kernel: branch-free truth bytes, whatever the null layout (values only). */
function compareGreater(values: Float64Array, threshold: number, truth: Uint8Array): void {
  for (let rowIdx = 0; rowIdx < values.length; rowIdx++) truth[rowIdx] = values[rowIdx] > threshold ? 1 : 0;
}

function selectBytes(truth: Uint8Array, nulls: Uint8Array, rowIds: Int32Array, rowCount: number): number {
  let count = 0;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    rowIds[count] = rowIdx;
    count += truth[rowIdx] & (nulls[rowIdx] ^ 1);
  }
  return count;
}

/** One bitmap byte loaded per 8 rows. */
function selectBits(truth: Uint8Array, nulls: Uint8Array, rowIds: Int32Array, rowCount: number): number {
  let count = 0;
  for (let byteIdx = 0, rowIdx = 0; rowIdx < rowCount; byteIdx++) {
    const valid = ~nulls[byteIdx];
    const end = Math.min(rowIdx + 8, rowCount);
    for (let bit = 0; rowIdx < end; rowIdx++, bit++) {
      rowIds[count] = rowIdx;
      count += truth[rowIdx] & (valid >>> bit);
    }
  }
  return count;
}

function takeNullsBytes(nulls: Uint8Array, rowIds: Int32Array, count: number): Uint8Array {
  const out = new Uint8Array(count);
  for (let outIdx = 0; outIdx < count; outIdx++) out[outIdx] = nulls[rowIds[outIdx]];
  return out;
}

function takeNullsBits(nulls: Uint8Array, rowIds: Int32Array, count: number): Uint8Array {
  const out = new Uint8Array((count + 7) >>> 3);
  for (let outIdx = 0; outIdx < count; outIdx++) {
    const rowIdx = rowIds[outIdx];
    out[outIdx >>> 3] |= ((nulls[rowIdx >>> 3] >>> (rowIdx & 7)) & 1) << (outIdx & 7);
  }
  return out;
}

function selectAllValid(truth: Uint8Array, rowIds: Int32Array, rowCount: number): number {
  let count = 0;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    rowIds[count] = rowIdx;
    count += truth[rowIdx];
  }
  return count;
}

// ---------------------------------------------------------------- aggregate

function sumCountAllValid(groupIds: Int32Array, values: Float64Array, sums: Float64Array, counts: Float64Array): void {
  for (let rowIdx = 0; rowIdx < values.length; rowIdx++) {
    const group = groupIds[rowIdx];
    sums[group] += values[rowIdx];
    counts[group]++;
  }
}

function sumCountBytes(groupIds: Int32Array, values: Float64Array, nulls: Uint8Array, sums: Float64Array, counts: Float64Array): void {
  for (let rowIdx = 0; rowIdx < values.length; rowIdx++) {
    if (nulls[rowIdx]) continue;
    const group = groupIds[rowIdx];
    sums[group] += values[rowIdx];
    counts[group]++;
  }
}

/** One bitmap byte per 8 rows; a byte of all-valid rows (0) takes the loop without a null test. */
function sumCountBits(groupIds: Int32Array, values: Float64Array, nulls: Uint8Array, sums: Float64Array, counts: Float64Array): void {
  const rowCount = values.length;
  for (let byteIdx = 0, rowIdx = 0; rowIdx < rowCount; byteIdx++) {
    const nullBits = nulls[byteIdx];
    const end = Math.min(rowIdx + 8, rowCount);
    if (nullBits === 0) {
      for (; rowIdx < end; rowIdx++) {
        const group = groupIds[rowIdx];
        sums[group] += values[rowIdx];
        counts[group]++;
      }
      continue;
    }
    for (let bit = 0; rowIdx < end; rowIdx++, bit++) {
      if ((nullBits >>> bit) & 1) continue;
      const group = groupIds[rowIdx];
      sums[group] += values[rowIdx];
      counts[group]++;
    }
  }
}

/** COUNT(x): the branch-free form of aggregate-functions.ts's CountState. */
function countBytes(groupIds: Int32Array, nulls: Uint8Array, counts: Float64Array, rowCount: number): void {
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) counts[groupIds[rowIdx]] += nulls[rowIdx] ^ 1;
}

function countBits(groupIds: Int32Array, nulls: Uint8Array, counts: Float64Array, rowCount: number): void {
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) counts[groupIds[rowIdx]] += ((nulls[rowIdx >>> 3] >>> (rowIdx & 7)) & 1) ^ 1;
}

// ---------------------------------------------------------------- decode

/** readNullMap's bitmap branch: the on-disk bitmap expanded to one byte per row. */
function decodeToBytes(page: Uint8Array, rowCount: number): Uint8Array {
  const nulls = new Uint8Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) nulls[rowIdx] = (page[rowIdx >>> 3] >>> (rowIdx & 7)) & 1;
  return nulls;
}

/** The on-disk bitmap is the in-memory form: one copy out of the (cached, shared) page buffer. */
function decodeToBits(page: Uint8Array): Uint8Array {
  return page.slice();
}

function orBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length);
  out.set(a);
  for (let rowIdx = 0; rowIdx < a.length; rowIdx++) out[rowIdx] |= b[rowIdx];
  return out;
}

/** 32 rows per step over Int32 views (batches are 4,096 rows: whole words, except a short last batch). */
function orBits(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length);
  const words = a.length >>> 2;
  if (words > 0 && a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const a32 = new Int32Array(a.buffer, a.byteOffset, words);
    const b32 = new Int32Array(b.buffer, b.byteOffset, words);
    const out32 = new Int32Array(out.buffer, 0, words);
    for (let wordIdx = 0; wordIdx < words; wordIdx++) out32[wordIdx] = a32[wordIdx] | b32[wordIdx];
  }
  for (let byteIdx = words << 2; byteIdx < a.length; byteIdx++) out[byteIdx] = a[byteIdx] | b[byteIdx];
  return out;
}

// ---------------------------------------------------------------- driver

/** Median ms of each of two kernels over `runs` runs, the two alternating (a drifting machine load hits both). */
function timePair(runs: number, first: () => void, second: () => void): [number, number] {
  first();
  second();
  const firstTimes: number[] = [];
  const secondTimes: number[] = [];
  for (let run = 0; run < runs; run++) {
    let start = performance.now();
    first();
    firstTimes.push(performance.now() - start);
    start = performance.now();
    second();
    secondTimes.push(performance.now() - start);
  }
  return [median(firstTimes), median(secondTimes)];
}

export async function main(args: readonly string[]): Promise<void> {
  const options = parseBenchArgs(args);
  const rowCount = options.quick ? 1_000_000 : 4_000_000;
  const runs = options.quick ? 9 : 15;
  const x = makeColumn(rowCount, 1);
  const y = makeColumn(rowCount, 2);
  const batches = x.values.length;
  const random = mulberry32(3);
  const groupIds = x.values.map((values) => Int32Array.from(values, () => Math.floor(random() * GROUPS)));
  const truth = new Uint8Array(BATCH_SIZE);
  const rowIds = new Int32Array(BATCH_SIZE);
  const threshold = 500;

  const filterBytes = (): void => {
    for (let batchIdx = 0; batchIdx < batches; batchIdx++) {
      const length = x.values[batchIdx].length;
      compareGreater(x.values[batchIdx], threshold, truth);
      const count = selectBytes(truth, x.bytes[batchIdx], rowIds, length);
      sink += takeNullsBytes(y.bytes[batchIdx], rowIds, count).length;
    }
  };
  const filterBits = (): void => {
    for (let batchIdx = 0; batchIdx < batches; batchIdx++) {
      const length = x.values[batchIdx].length;
      compareGreater(x.values[batchIdx], threshold, truth);
      const count = selectBits(truth, x.bits[batchIdx], rowIds, length);
      sink += takeNullsBits(y.bits[batchIdx], rowIds, count).length;
    }
  };
  const selectOnly = (bits: boolean) => (): void => {
    for (let batchIdx = 0; batchIdx < batches; batchIdx++) {
      const length = x.values[batchIdx].length;
      sink += bits ? selectBits(truth, x.bits[batchIdx], rowIds, length) : selectBytes(truth, x.bytes[batchIdx], rowIds, length);
    }
  };
  const sums = new Float64Array(GROUPS);
  const counts = new Float64Array(GROUPS);
  const aggregate = (bits: boolean) => (): void => {
    for (let batchIdx = 0; batchIdx < batches; batchIdx++) {
      if (bits) sumCountBits(groupIds[batchIdx], x.values[batchIdx], x.bits[batchIdx], sums, counts);
      else sumCountBytes(groupIds[batchIdx], x.values[batchIdx], x.bytes[batchIdx], sums, counts);
    }
    sink += sums[0];
  };
  const count = (bits: boolean) => (): void => {
    for (let batchIdx = 0; batchIdx < batches; batchIdx++) {
      const length = x.values[batchIdx].length;
      if (bits) countBits(groupIds[batchIdx], x.bits[batchIdx], counts, length);
      else countBytes(groupIds[batchIdx], x.bytes[batchIdx], counts, length);
    }
    sink += counts[0];
  };
  const decode = (bits: boolean) => (): void => {
    for (let batchIdx = 0; batchIdx < batches; batchIdx++) {
      const length = x.values[batchIdx].length;
      sink += (bits ? decodeToBits(x.bits[batchIdx]) : decodeToBytes(x.bits[batchIdx], length)).length;
    }
  };
  const or = (bits: boolean) => (): void => {
    for (let batchIdx = 0; batchIdx < batches; batchIdx++) {
      sink += (bits ? orBits(x.bits[batchIdx], y.bits[batchIdx]) : orBytes(x.bytes[batchIdx], y.bytes[batchIdx])).length;
    }
  };

  const cases: { path: string; kernel: string; bytes: () => void; bits: () => void }[] = [
    { path: 'filter', kernel: 'x > 500: compare + select + take the null map of y', bytes: filterBytes, bits: filterBits },
    { path: 'filter', kernel: 'select only (truth & not null)', bytes: selectOnly(false), bits: selectOnly(true) },
    { path: 'aggregate', kernel: 'SUM(x), COUNT(x) GROUP BY k (16 groups)', bytes: aggregate(false), bits: aggregate(true) },
    { path: 'aggregate', kernel: 'COUNT(x) GROUP BY k, branch-free', bytes: count(false), bits: count(true) },
    { path: 'decode', kernel: 'page null map from its on-disk bitmap', bytes: decode(false), bits: decode(true) },
    { path: 'decode', kernel: 'OR of two null maps (NULL propagation)', bytes: or(false), bits: or(true) },
  ];
  const rows: Row[] = [];
  for (const benchCase of cases) {
    const [bytemapMs, bitmapMs] = timePair(runs, benchCase.bytes, benchCase.bits);
    rows.push({ path: benchCase.path, kernel: benchCase.kernel, rows: rowCount, bytemap_ms: bytemapMs, bitmap_ms: bitmapMs, ratio: bitmapMs / bytemapMs });
  }
  const memory = { bytemap_bytes_per_row: 1, bitmap_bytes_per_row: 0.125 };
  const title = `nullmaps: byte-per-row null map vs bitmap, ${rowCount} rows in ${BATCH_SIZE}-row batches, ${NULL_FRACTION * 100}% NULL, median of ${runs} (ratio = bitmap / byte map); null map ${memory.bytemap_bytes_per_row} B/row vs ${memory.bitmap_bytes_per_row} B/row`;
  report(title, rows, { ...options, jsonFile: null });

  const zeros = x.values.map((values) => new Uint8Array(values.length));
  const allValid: { kernel: string; kept: () => void; dropped: () => void }[] = [
    {
      kernel: 'select (truth & not null)',
      kept: () => {
        for (let batchIdx = 0; batchIdx < batches; batchIdx++) sink += selectBytes(truth, zeros[batchIdx], rowIds, zeros[batchIdx].length);
      },
      dropped: () => {
        for (let batchIdx = 0; batchIdx < batches; batchIdx++) {
          const length = zeros[batchIdx].length;
          const nulls = anyNullIn(zeros[batchIdx], 0, length) ? zeros[batchIdx] : null;
          sink += nulls === null ? selectAllValid(truth, rowIds, length) : selectBytes(truth, nulls, rowIds, length);
        }
      },
    },
    {
      kernel: 'SUM(x), COUNT(x) GROUP BY k',
      kept: () => {
        for (let batchIdx = 0; batchIdx < batches; batchIdx++) sumCountBytes(groupIds[batchIdx], x.values[batchIdx], zeros[batchIdx], sums, counts);
      },
      dropped: () => {
        for (let batchIdx = 0; batchIdx < batches; batchIdx++) {
          const nulls = anyNullIn(zeros[batchIdx], 0, zeros[batchIdx].length) ? zeros[batchIdx] : null;
          if (nulls === null) sumCountAllValid(groupIds[batchIdx], x.values[batchIdx], sums, counts);
          else sumCountBytes(groupIds[batchIdx], x.values[batchIdx], nulls, sums, counts);
        }
      },
    },
    {
      kernel: 'OR with a nullable column',
      kept: () => {
        for (let batchIdx = 0; batchIdx < batches; batchIdx++) sink += orBytes(zeros[batchIdx], y.bytes[batchIdx]).length;
      },
      dropped: () => {
        // orNulls with one map: that map, no copy.
        for (let batchIdx = 0; batchIdx < batches; batchIdx++) sink += anyNullIn(zeros[batchIdx], 0, zeros[batchIdx].length) ? orBytes(zeros[batchIdx], y.bytes[batchIdx]).length : y.bytes[batchIdx].length;
      },
    },
  ];
  const countRows: Row[] = [];
  for (const benchCase of allValid) {
    const [keptMs, droppedMs] = timePair(runs, benchCase.kept, benchCase.dropped);
    countRows.push({ kernel: `all-valid batches: ${benchCase.kernel}`, rows: rowCount, map_kept_ms: keptMs, map_dropped_ms: droppedMs, ratio: droppedMs / keptMs });
  }
  report(`nullmaps: all-valid batches with an all-zero null map kept vs dropped to null by the producer, median of ${runs} (ratio = dropped / kept); peak RSS ${peakRssMiB(process.pid)} MiB`, countRows, { ...options, jsonFile: null });
  if (options.jsonFile) fs.writeFileSync(options.jsonFile, JSON.stringify([...rows, ...countRows], null, 2) + '\n');
  if (sink === -1) console.log(sink);
}
