/**
 * Funnel analysis: window_funnel(window, mode, time, cond1, ..., condN), the deepest step of an ordered
 * chain of events (cond1, then cond2, ...) that all fall within `window` seconds of the chain's first event.
 *
 * Each row with some condition true is kept as (group, time, condition mask) in growing typed arrays;
 * finalize orders them by group (one counting pass) and each group's rows by time, then walks them once.
 */
import { getRaw, Vector } from '../../../common/column';
import { MICROS_PER_SECOND } from '../../../common/datetime';
import { galeneError } from '../../../common/errors';
import { DataType, isNumericType, isStringType, Types, typeToSql } from '../../../common/types';
import type { AggregateAccumulator } from '../../expr-api';
import { toF64 } from '../vector-ops';
import type { AggregateDef } from './aggregate-functions';
import { rowsByGroup } from './collect-aggregates';

/** Doris's limit on window_funnel's conditions. */
const FUNNEL_MAX_EVENTS = 32;
/** The leading arguments before the conditions: window, mode, time. */
const FUNNEL_LEADING_ARGS = 3;

class WindowFunnelAccumulator implements AggregateAccumulator {
  private groups = new Int32Array(1024);
  private times = new Float64Array(1024);
  private masks = new Int32Array(1024);
  private count = 0;
  private windowMicros: number | null = null;

  constructor(private readonly eventCount: number) {}

  resize(): void {}

  private reserve(extra: number): void {
    if (this.count + extra <= this.groups.length) return;
    const capacity = Math.max(this.count + extra, this.groups.length * 2);
    const groups = new Int32Array(capacity);
    groups.set(this.groups.subarray(0, this.count));
    const times = new Float64Array(capacity);
    times.set(this.times.subarray(0, this.count));
    const masks = new Int32Array(capacity);
    masks.set(this.masks.subarray(0, this.count));
    this.groups = groups;
    this.times = times;
    this.masks = masks;
  }

  update(groupIds: Int32Array, args: readonly Vector[], rowCount: number): void {
    if (rowCount === 0) return;
    if (this.windowMicros === null) {
      const window = getRaw(args[0], 0);
      if (window === null || Number(window) < 0) throw galeneError('INVALID_ARGUMENT', `window_funnel window must be a non-negative number of seconds, but given ${String(window)}`);
      const mode = String(getRaw(args[1], 0) ?? '').toLowerCase();
      if (mode !== 'default') throw galeneError('UNSUPPORTED', `window_funnel mode '${mode}'`);
      this.windowMicros = Number(window) * MICROS_PER_SECOND;
    }
    const timeVec = args[2];
    const times = toF64(timeVec);
    const conditions = args.slice(FUNNEL_LEADING_ARGS).map((vec) => ({ values: toF64(vec), nulls: vec.nulls }));
    this.reserve(rowCount);
    let count = this.count;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (timeVec.nulls !== null && timeVec.nulls[rowIdx]) continue;
      let mask = 0;
      for (let eventIdx = 0; eventIdx < conditions.length; eventIdx++) {
        const { values, nulls } = conditions[eventIdx];
        if (values[rowIdx] !== 0 && !(nulls !== null && nulls[rowIdx])) mask |= 1 << eventIdx;
      }
      if (mask === 0) continue;
      this.groups[count] = groupIds[rowIdx];
      this.times[count] = times[rowIdx];
      this.masks[count++] = mask;
    }
    this.count = count;
  }

  stateBytes(): number {
    return this.count * 16;
  }

  finalize(groupCount: number): Vector {
    const { starts, order } = rowsByGroup(this.groups, this.count, groupCount);
    const out = new Int32Array(groupCount);
    const chainStarts = new Float64Array(this.eventCount);
    const window = this.windowMicros ?? 0;
    for (let group = 0; group < groupCount; group++) {
      const rows = Array.from(order.subarray(starts[group], starts[group + 1]));
      rows.sort((left, right) => this.times[left] - this.times[right] || left - right);
      out[group] = this.deepestStep(rows, chainStarts, window);
    }
    return { kind: 'fixed', type: Types.INT, length: groupCount, values: out, nulls: null };
  }

  /** The funnel walk over one group's rows in time order: chainStarts[i] is the start of a chain that reached step i+1. */
  private deepestStep(rows: readonly number[], chainStarts: Float64Array, window: number): number {
    chainStarts.fill(-Infinity);
    let deepest = 0;
    for (const row of rows) {
      const time = this.times[row];
      const mask = this.masks[row];
      // Events of one time in condition order, as Doris sorts its (time, condition) pairs.
      for (let eventIdx = 0; eventIdx < this.eventCount; eventIdx++) {
        if (((mask >>> eventIdx) & 1) === 0) continue;
        if (eventIdx === 0) chainStarts[0] = time;
        else if (chainStarts[eventIdx - 1] !== -Infinity && time <= chainStarts[eventIdx - 1] + window) chainStarts[eventIdx] = chainStarts[eventIdx - 1];
        else continue;
        if (eventIdx + 1 > deepest) deepest = eventIdx + 1;
        if (deepest === this.eventCount) return deepest;
      }
    }
    return deepest;
  }
}

function resolveFunnel(argTypes: readonly DataType[]) {
  const [window, mode, time, ...conditions] = argTypes;
  const mismatch = () => galeneError('TYPE_MISMATCH', `No matching function with signature: window_funnel(${argTypes.map(typeToSql).join(', ')})`);
  if (!isNumericType(window) || !(isStringType(mode) || mode.name === 'NULL')) throw mismatch();
  if (!(time.name === 'DATETIME' || time.name === 'DATE')) throw mismatch();
  for (const condition of conditions) if (!(condition.name === 'BOOLEAN' || condition.name === 'NULL' || isNumericType(condition))) throw mismatch();
  return { argTypes: [Types.BIGINT, Types.STRING, Types.DATETIME, ...conditions.map(() => Types.BOOLEAN)], returnType: Types.INT };
}

export const FUNNEL_AGGREGATES: readonly AggregateDef[] = [
  {
    name: 'window_funnel',
    signature: "window_funnel(window_seconds, 'default', time, condition1, ..., conditionN) -> INT",
    minArgs: FUNNEL_LEADING_ARGS + 1,
    maxArgs: FUNNEL_LEADING_ARGS + FUNNEL_MAX_EVENTS,
    resolve: resolveFunnel,
    create: (argTypes) => new WindowFunnelAccumulator(argTypes.length - FUNNEL_LEADING_ARGS),
    description:
      "Funnel depth: the largest k such that rows meeting condition1, condition2, ..., condition k occur in that time order, all within window_seconds of the first (mode 'default' only).",
    example: "SELECT window_funnel(3600, 'default', t, e = 1, e = 2) FROM (SELECT CAST('2024-01-01 10:00:00' AS DATETIME) AS t, 1 AS e UNION ALL SELECT CAST('2024-01-01 10:30:00' AS DATETIME), 2) x",
  },
];
