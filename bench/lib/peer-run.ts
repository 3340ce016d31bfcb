/**
 * Running a query set on Galene and on DuckDB side by side (bench/tpch.ts, bench/clickbench.ts): a
 * checked run then timed runs, short error text for the result table, and the geometric mean of ratios.
 */
import type { TextRow } from '../../test/helpers/mysql-client';
import { median } from './report';

/** First line of an error message, shortened for the table. */
export const shortError = (err: unknown): string => ((err as Error).message ?? String(err)).split('\n')[0].replace(/\|/g, '/').slice(0, 160);

/** One checked run (its rows and time), then `repeats` timed runs; ms is their median (the checked run's time when none). */
export async function checkedAndTimed(repeats: number, run: () => Promise<TextRow[]>): Promise<{ rows: TextRow[]; ms: number }> {
  const start = performance.now();
  const rows = await run();
  const times = [performance.now() - start];
  return { rows, ms: await timedRepeats(repeats, run, times) };
}

/** Median ms of `repeats` more runs (of `fallback` when none). */
export async function timedRepeats(repeats: number, run: () => Promise<unknown>, fallback: number[]): Promise<number> {
  const times: number[] = [];
  for (let runIdx = 0; runIdx < repeats; runIdx++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return median(times.length ? times : fallback);
}

/** The geometric mean of positive ratios (NaN when there are none). */
export function geometricMean(ratios: readonly number[]): number {
  return ratios.length ? Math.exp(ratios.reduce((sum, ratio) => sum + Math.log(ratio), 0) / ratios.length) : NaN;
}
