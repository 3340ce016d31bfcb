/**
 * Runtime filters in a scan task (exec/runtime-filter.ts): the filters' columns are read first, for the
 * rows the indexes left, and tested; the task then reads its other columns only for the rows they keep.
 * Shared by the scan workers; the in-thread scan filters its batches instead (operators/table-scan.ts).
 */
import { concatVectors, sliceVector } from '../common/column';
import type { ProfileSink } from '../common/profile';
import type { ColumnSchema } from '../meta/schema';
import type { FragmentSpec } from '../exec/plan/fragment-spec';
import { applyRuntimeFilter, runtimeFilterCounter, RUNTIME_FILTER_SAMPLE_ROWS, worthTesting } from '../exec/runtime-filter';
import { RowRanges } from '../storage/row-ranges';
import type { SegmentReader } from '../storage/segment-reader';
import { readColumns, rowsOf } from './segment-columns';

/** `ranges` narrowed to the rows every runtime filter of `fragment` keeps (the same ranges when none). */
export async function applyRuntimeFilterRanges(reader: SegmentReader, ranges: RowRanges, fragment: FragmentSpec, profile: ProfileSink): Promise<RowRanges> {
  const spec = fragment.runtimeFilters;
  const rowCount = ranges.count();
  if (spec === undefined || spec.filters.length === 0 || rowCount === 0) return ranges;
  const columns = spec.filters.map((filter) => fragment.columns.find((column) => column.name === filter.column)).filter((column): column is ColumnSchema => column !== undefined);
  if (columns.length !== spec.filters.length) return ranges;
  const start = performance.now();
  const parts = await readColumns(reader, columns, ranges, rowCount, profile);
  const keep = new Uint8Array(rowCount).fill(1);
  const vectors = spec.filters.map((_filter, filterIdx) => concatVectors(columns[filterIdx].type, parts[filterIdx]));
  // A sample first: filters that drop under a tenth of it are not tested on the task's other rows.
  const sample = Math.min(rowCount, RUNTIME_FILTER_SAMPLE_ROWS);
  spec.filters.forEach((filter, filterIdx) => applyRuntimeFilter(filter, vectors[filterIdx], sample, keep));
  let sampleKept = 0;
  for (let rowIdx = 0; rowIdx < sample; rowIdx++) sampleKept += keep[rowIdx];
  if (sample < rowCount && !worthTesting(sample, sample - sampleKept)) {
    profile.add(runtimeFilterCounter(spec.scanId, 'RuntimeFilterInputRows'), sample);
    profile.add(runtimeFilterCounter(spec.scanId, 'RuntimeFilterUntestedRows'), rowCount - sample);
    profile.add(runtimeFilterCounter(spec.scanId, 'FilterTimeMs'), performance.now() - start);
    return ranges;
  }
  if (sample < rowCount) {
    const rest = keep.subarray(sample);
    spec.filters.forEach((filter, filterIdx) => applyRuntimeFilter(filter, sliceVector(vectors[filterIdx], sample, rowCount), rowCount - sample, rest));
  }
  const ordinals = rowsOf(ranges);
  const kept = new Int32Array(rowCount);
  let count = 0;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    kept[count] = ordinals[rowIdx];
    count += keep[rowIdx];
  }
  profile.add(runtimeFilterCounter(spec.scanId, 'RuntimeFilterInputRows'), rowCount);
  profile.add(runtimeFilterCounter(spec.scanId, 'FilterTimeMs'), performance.now() - start);
  profile.add(runtimeFilterCounter(spec.scanId, 'RowsFilteredByRuntimeFilter'), rowCount - count);
  // Keeping nearly every row, the filter is not worth reading the other columns as scattered runs: they
  // are read whole and the join drops the rest (a filter only ever needs to keep a superset).
  return count >= rowCount * WEAK_FILTER_KEPT ? ranges : RowRanges.fromRowIds(kept.subarray(0, count));
}

/** The share of a task's rows above which the filtered rows are not cut out of the read. */
const WEAK_FILTER_KEPT = 0.9;
