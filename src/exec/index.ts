/**
 * exec/: query execution (DESIGN §4): the bound-expression tree the binder produces (bound-expr.ts), the
 * vectorized expression engine (expr/) behind its contract (expr-api.ts), the physical operators
 * (operators/, one file each), physical plans with their per-kind tables, EXPLAIN and the executor
 * (plan/), fragments run in worker threads (parallel/), the contexts a running plan sees (context.ts),
 * the plain data of partial aggregates (aggregate-state.ts), query tasks (cancellation, memory, time
 * slices) and in-memory tables. DESIGN §6: may import storage/, io/, meta/ and common/; never sql/, load/,
 * be/ or fe/ (they import it).
 *
 * No re-exports on purpose: code imports the file it needs, not this folder, so no barrel can close an
 * import cycle; each sub-folder's index.ts lists its own entry points.
 */
export {};
