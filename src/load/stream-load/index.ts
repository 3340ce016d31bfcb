/**
 * load/stream-load/: Doris's HTTP Stream Load (PUT /api/{db}/{table}/_stream_load): request options from
 * the headers, body readers (CSV, JSON, body blocks), row conversion to column batches, the error log
 * behind ErrorURL, DELETE loads, and the service that runs one load in its own transaction or through
 * Group Commit. May import ../ (load transactions, the table writer), ../group-commit, exec/, storage/,
 * io/, meta/ and common/; the FE's HTTP API calls it.
 *
 * Entry points (imported by file while issue 9 moves header parsing to the FE and the shared readers to
 * their own folder): stream-load-service.ts (StreamLoadService).
 */
export {};
