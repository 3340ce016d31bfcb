/**
 * The plain data of a partial aggregate: an accumulator's serialized per-group state and a partial result
 * over some rows (group keys and one state per aggregate). A leaf types file (it imports only common/):
 * the accumulators (expr-api.ts, expr/aggregates/), the grouped aggregation (operators/grouped-aggregation.ts),
 * fragment results (plan/fragment-spec.ts) and the final HashAggregate all name these types without a cycle.
 * Everything here is structured-cloneable, so a partial computed in a worker thread (or, later, on another
 * BE) is merged by the final aggregate as is.
 */
import type { Vector } from '../common/column';

/** An accumulator's serialized per-group state (see AggregateAccumulator.serialize in expr-api.ts). */
export interface AggregateState {
  readonly groupCount: number;
  readonly data: unknown;
}

/** The partial result of an aggregation: one row per group (keys) and each accumulator's state. */
export interface PartialAggregate {
  readonly groupCount: number;
  readonly keys: Vector[];
  readonly states: AggregateState[];
}
