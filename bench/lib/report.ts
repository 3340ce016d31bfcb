/**
 * Benchmark plumbing shared by every bench/ program: options (--quick, --json FILE), medians, peak RSS
 * of a process, and printing the result table (markdown) plus its JSON form.
 */
import * as fs from 'node:fs';

export interface BenchOptions {
  readonly quick: boolean;
  readonly jsonFile: string | null;
}

export function parseBenchArgs(args: readonly string[]): BenchOptions {
  let quick = false;
  let jsonFile: string | null = null;
  for (let argIdx = 0; argIdx < args.length; argIdx++) {
    if (args[argIdx] === '--quick') quick = true;
    else if (args[argIdx] === '--json') jsonFile = args[++argIdx] ?? null;
    else throw new Error(`unknown benchmark option ${args[argIdx]} (expected --quick, --json FILE)`);
  }
  return { quick, jsonFile };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median wall time in ms of `runs` calls after one warm-up call. */
export async function timeMedian(runs: number, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** Peak resident set size (VmHWM) of a process in MiB, from /proc. */
export function peakRssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

export type Row = Record<string, string | number>;

/** Print rows as a markdown table and write them as JSON when asked. */
export function report(title: string, rows: readonly Row[], options: BenchOptions): void {
  const columns = Object.keys(rows[0] ?? {});
  const cell = (value: string | number | undefined): string => (typeof value === 'number' ? (Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 3 : 1)) : (value ?? ''));
  console.log(`\n## ${title}\n`);
  console.log(`| ${columns.join(' | ')} |`);
  console.log(`|${columns.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${columns.map((column) => cell(row[column])).join(' | ')} |`);
  if (options.jsonFile) fs.writeFileSync(options.jsonFile, JSON.stringify(rows, null, 2) + '\n');
}
