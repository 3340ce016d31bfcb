/**
 * A load's source: its request body read in blocks, parsed (CSV, JSON), converted row by row into the
 * target table's column types and then, per block, through the plan's derived columns and filter (the
 * RowConverter compiles the bound expressions of the load plan, ../load-plan.ts), with every filtered
 * row in the load's error log. Shared by both ways a Stream Load runs — a transaction of its own
 * (../stream-load) and a Group Commit batch (../group-commit) — which import this folder and never each
 * other.
 *
 * Layering: imports common/, meta/ schema types, exec/ (the expression compiler and the bound-expression
 * types) and ../load-plan only; never sql/ (loads are planned on the FE, src/fe/load-planner.ts).
 */
export { BODY_BLOCK_BYTES, readBodyInBlocks } from './body-blocks';
export type { BodyReader, BodyTiming } from './body-blocks';
export { openBodyReader } from './body-reader';
export { concatBatches } from './concat-batches';
export { CsvReader } from './csv-reader';
export { JsonReader } from './json-reader';
export { LoadErrorLog, MAX_ERROR_ROWS, errorLogFileName, readErrorLog, removeOldErrorLogs } from './load-error-log';
export { RowConverter } from './row-converter';
