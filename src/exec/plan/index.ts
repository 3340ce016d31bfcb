/**
 * Physical plans: the operator-tree description (physical-plan.ts), the per-kind operator tables
 * (operator-registry.ts), EXPLAIN text (explain-plan.ts), the executor (execute-plan.ts) and bound-expression
 * helpers shared with the binder and optimizer. May import common/, meta/, storage/ types and exec/; never sql/.
 */
export * from './physical-plan';
export * from './operator-registry';
export * from './explain-plan';
export * from './execute-plan';
export type { OperatorRuntime } from './operator-runtime';
export * from './bound-expr-utils';
