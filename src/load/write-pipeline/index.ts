/**
 * The write pipeline (issue 13, DESIGN §5): per-load, per-tablet memtables (load-writer.ts) -> the flush
 * pool (flush-pool.ts, segments encoded in worker threads) -> the upload pool (upload-pool.ts) -> the
 * transaction commits once every upload succeeded. Load memory is bounded (load-memory.ts), writers wait
 * on backpressure (backpressure.ts, apache/doris #66847), and the adaptive controller sizes the flush pool
 * (flush-thread-controller.ts). One WritePipeline per BE (write-pipeline.ts). See docs/object-storage.md.
 */
export { WritePipeline, DEFAULT_WRITE_PIPELINE_SETTINGS, PIPELINE_SETTING_NAMES } from './write-pipeline';
export type { WritePipelineSettings, WritePipelineStats } from './write-pipeline';
export { LoadWriter } from './load-writer';
export { needBackpressure, waitWhile, BACKPRESSURE_STEP_MS } from './backpressure';
export type { BackpressureSignals } from './backpressure';
export { adjustFlushThreads, FlushThreadController } from './flush-thread-controller';
export { writePipelineCounters, writePipelineGauges } from './pipeline-metrics';
