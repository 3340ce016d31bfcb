/**
 * exec/expr/aggregates/: the aggregate functions (COUNT, SUM, AVG, MIN/MAX, ...): one declaration per
 * function in aggregate-functions.ts, each with an accumulator over group ids that the hash aggregate
 * drives (update per batch, serialize/merge for partial aggregation, finalize), exact decimal sums in
 * exact-sum.ts, and the registry the binder resolves names in. May import common/, the exec contracts
 * (../../expr-api, ../../bound-expr) and the scalar kernels' helpers in ../; never operators or sql/.
 */
export { isAggregateFunctionName, listAggregateFunctions, resolveAggregate } from './aggregate-registry';
