/**
 * load/stream-load/: runs a planned Doris HTTP Stream Load (PUT /api/{db}/{table}/_stream_load) in its own
 * transaction, with the rows that delete keys (merge_type DELETE / MERGE, a delete sign). The FE turns
 * the request headers into a LoadPlan (src/fe/load-planner.ts); the body readers and row conversion it
 * shares with Group Commit live in ../source/. May import ../ (load plan, results, transactions, the
 * table writer), ../source, exec/, storage/, io/, meta/ and common/; never ../group-commit (the dispatch
 * between the two is ../start-stream-load.ts).
 *
 * Entry point: stream-load-service.ts (StreamLoadService).
 */
export {};
