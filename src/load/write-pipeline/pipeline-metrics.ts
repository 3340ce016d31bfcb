/**
 * The write pipeline's series for the BE's /metrics (be-metrics.ts): load memory, flushes (Doris's
 * doris_be_memtable_flush_total / _duration_us), the upload pool and the backpressure waits.
 */
import type { ScrapedValue } from '../../common/metrics';
import type { WritePipeline } from './write-pipeline';

type PipelineMetric = readonly [name: string, help: string, read: () => ScrapedValue, labelName?: string];

export function writePipelineGauges(pipeline: WritePipeline): PipelineMetric[] {
  const { memory, flushPool, uploadPool } = pipeline;
  return [
    ['doris_be_memtable_memory_bytes', 'Load memory in use: memtables being filled, flushed or uploaded', () => memory.bytes],
    ['doris_be_memtable_memory_peak_bytes', 'Highest load memory in use since start', () => memory.peakBytes],
    ['doris_be_load_memory_limit_bytes', 'Load memory limits: hard (writers wait), soft (the largest memtable is flushed first)', () => ({ hard: memory.hardLimitBytes, soft: memory.softLimitBytes }), 'type'],
    ['doris_be_memtable_flush_queue_size', 'Memtables waiting for a flush thread', () => flushPool.tasks.queueSize],
    ['doris_be_memtable_flush_running', 'Memtable flushes running', () => flushPool.tasks.runningCount],
    ['doris_be_memtable_flush_threads', 'Flush threads the adaptive controller allows now', () => flushPool.tasks.limit],
    ['doris_be_s3_file_upload_queue_size', 'Segment and index uploads waiting in the upload pool (the backpressure signal of remote stores)', () => uploadPool.queueSize],
    ['doris_be_s3_file_upload_running', 'Uploads running', () => uploadPool.tasks.runningCount],
  ];
}

export function writePipelineCounters(pipeline: WritePipeline): PipelineMetric[] {
  const { memory, flushPool, uploadPool, stats } = pipeline;
  return [
    ['doris_be_memtable_flush_total', 'Memtables flushed', () => flushPool.tasks.completed],
    ['doris_be_memtable_flush_duration_us', 'Microseconds memtable flushes took (queue wait excluded)', () => flushPool.tasks.durationUs],
    ['doris_be_memtable_soft_limit_flush_total', 'Memtables flushed early because load memory passed the soft limit', () => memory.softLimitFlushes],
    ['doris_be_s3_file_upload_total', 'Uploads finished', () => uploadPool.tasks.completed],
    ['doris_be_s3_file_upload_failures_total', 'Uploads that failed (after the store retried)', () => uploadPool.tasks.failed],
    ['doris_be_s3_file_upload_bytes', 'Bytes uploaded', () => uploadPool.bytes],
    ['doris_be_load_wait_flush_limit_total', 'Tablet writes that waited for backpressure or the load memory limit', () => stats.waitFlushLimitCount],
    ['doris_be_load_wait_flush_limit_time_us', 'Microseconds tablet writes waited (WaitFlushLimitTime, summed)', () => Math.round(stats.waitFlushLimitNs / 1000)],
  ];
}
