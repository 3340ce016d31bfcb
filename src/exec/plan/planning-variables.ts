/**
 * Session variables the planner reads, through the PlanningContext, so that a cached plan records the
 * value it was made with (sql/plan-cache.ts replans when it changes).
 */
import { GaleneError } from '../../common/errors';
import type { PlanningContext } from '../context';
import { parseRuntimeFilterType, type RuntimeFilterPlanning } from './runtime-filters';

/** A session variable's value; undefined when no such variable is declared. */
export function variableValue(ctx: PlanningContext, name: string): unknown {
  try {
    return ctx.getSystemVariable(name, null).value;
  } catch (err) {
    if (err instanceof GaleneError && err.code === 'UNKNOWN_SYSTEM_VARIABLE') return undefined;
    throw err;
  }
}

/** A boolean session variable's value (1/0, true/false, on/off); false when no such variable is declared. */
export function booleanVariable(ctx: PlanningContext, name: string): boolean {
  const value = variableValue(ctx, name);
  if (typeof value === 'string') return ['1', 'true', 'on'].includes(value.toLowerCase());
  return value !== null && value !== undefined && Number(value) !== 0;
}

/**
 * `optimize_index_scan_parallelism` (Doris's default: off): an index-driven scan (ANN TopN / range) runs
 * one task per segment; off, segments are grouped by rows (ScanRequest.indexScan, be/scan-scheduler.ts).
 * Read only by plans that have such a scan.
 */
export function indexScanPerSegment(ctx: PlanningContext): boolean {
  return booleanVariable(ctx, 'optimize_index_scan_parallelism');
}

/**
 * What the runtime-filters pass (runtime-filters.ts) plans with, from Doris's session variables; null when
 * runtime_filter_mode is OFF. GLOBAL and LOCAL are the same on one node: every filter reaches its scan.
 */
export function runtimeFilterPlanning(ctx: PlanningContext): RuntimeFilterPlanning | null {
  const mode = String(variableValue(ctx, 'runtime_filter_mode') ?? 'GLOBAL').toUpperCase();
  if (mode === 'OFF') return null;
  const types = parseRuntimeFilterType(String(variableValue(ctx, 'runtime_filter_type') ?? 'IN_OR_BLOOM_FILTER,MIN_MAX')) ?? [];
  const number = (name: string, fallback: number): number => {
    const value = Number(variableValue(ctx, name) ?? fallback);
    return Number.isFinite(value) ? value : fallback;
  };
  return { types, prune: booleanVariable(ctx, 'enable_runtime_filter_prune'), maxNum: number('runtime_filters_max_num', 10), maxInNum: number('runtime_filter_max_in_num', 1024), bloomMaxBytes: number('runtime_bloom_filter_max_size', 16777216) };
}
