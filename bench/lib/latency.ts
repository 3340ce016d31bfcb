/**
 * Latency and memory sampling helpers for benchmarks that watch a server while something else runs:
 * nearest-rank percentiles, current resident set size of a process, and options a benchmark takes on top
 * of parseBenchArgs's --quick / --json.
 */
import * as fs from 'node:fs';

/** Nearest-rank percentile (p in 0..100) of the values; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Current resident set size (VmRSS) of a process in MiB, from /proc; NaN once the process is gone.
 * VmHWM (peakRssMiB) only ever grows, so a per-phase maximum needs samples of this.
 */
export function currentRssMiB(pid: number): number {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return NaN;
  }
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

/**
 * Take `--NAME VALUE` options a benchmark adds (names without the dashes) out of its arguments; the rest
 * goes to parseBenchArgs, which rejects anything it does not know.
 */
export function takeOptions(args: readonly string[], names: readonly string[]): { values: Map<string, string>; rest: string[] } {
  const values = new Map<string, string>();
  const rest: string[] = [];
  for (let argIdx = 0; argIdx < args.length; argIdx++) {
    const name = args[argIdx].startsWith('--') ? args[argIdx].slice(2) : '';
    if (!names.includes(name)) {
      rest.push(args[argIdx]);
      continue;
    }
    const value = args[++argIdx];
    if (value === undefined) throw new Error(`benchmark option --${name} needs a value`);
    values.set(name, value);
  }
  return { values, rest };
}
