/**
 * load/: the write path below the FE (DESIGN §5): load transactions and labels (load-transaction.ts),
 * writing a load's rows into tablet segments (table-writer.ts: bucketing, memtable preparation, segment
 * upload), the write pipeline every load runs through (write-pipeline/: memtables, flush and upload pools,
load memory, backpressure), the load plan and results (load-plan.ts, load-result.ts), the readers Stream Load and Group
 * Commit share (source/), Stream Load (stream-load/) and Group Commit (group-commit/). Loads are planned
 * on the FE side (src/fe/load-planner.ts); load/ only compiles and runs them. DESIGN §6: may import exec/,
 * storage/, io/, meta/ and common/; never sql/ or fe/.
 *
 * Entry points (imported by file): load-transaction.ts (beginLoad, loadBatch), table-writer.ts
 * (writeTableRows); each sub-folder's index.ts lists its own.
 */
export {};
