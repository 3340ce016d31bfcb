/**
 * Physical operators: one file per operator, each exporting its `open<Name>` (one run: child batch streams
 * in, its batch stream out, pull-based async iterables) and `explain<Name>` (EXPLAIN parameter lines). Its
 * node description (`<Name>Node`) lives with the other plan types in ../plan/physical-plan.ts, which
 * imports no operator; the per-kind tables live in ../plan/operator-registry.ts.
 * May import common/, meta/ and storage/ types, ../bound-expr, ../context, ../expr and ../plan; never sql/.
 */
export * from './filter';
export * from './hash-aggregate';
export * from './hash-join';
export * from './limit';
export * from './materialize';
export * from './nested-loop-join';
export * from './project';
export * from './sort';
export * from './table-scan';
export * from './top-n';
export * from './union-all';
export * from './values';
export { createGroupKeyTable, makeRowKey, type GroupKeyTable } from './group-key-table';
