/**
 * The BE's write pipeline (DESIGN §5, Doris's MemTableMemoryLimiter + MemTableFlushExecutor + the S3 upload
 * pool): one per BE, shared by every load. Per-load writers (load-writer.ts) fill per-tablet memtables up to
 * `write_buffer_size`, hand them to the flush pool (segments encoded in worker threads), whose segment files
 * go to the upload pool; load memory is bounded by the limiter; the adaptive controller sizes the flush pool.
 * The settings are read live (a config change applies to the next check).
 */
import * as os from 'node:os';
import type { Config } from '../../common/config';
import { parsePageCacheLimit } from '../../storage/page-cache';
import { FlushPool } from './flush-pool';
import { FlushThreadController } from './flush-thread-controller';
import { LoadMemoryLimiter } from './load-memory';
import { UploadPool } from './upload-pool';

export interface WritePipelineSettings {
  /** `write_buffer_size`. */
  writeBufferSize: number;
  /** Load memory hard limit in bytes (`load_process_max_memory_limit_percent` of `mem_limit`). */
  hardLimitBytes: number;
  /** `load_process_soft_mem_limit_percent` (of the hard limit). */
  softLimitPercent: number;
  /** `memtable_flush_running_count_limit`. */
  flushRunningLimit: number;
  /** `enable_s3_upload_queue_backpressure`. */
  useUploadQueue: boolean;
  /** `s3_upload_queue_busy_threshold`. */
  uploadQueueBusyThreshold: number;
  /** `num_s3_file_upload_thread_pool_max_thread`. */
  uploadThreads: number;
  /** `flush_thread_num_per_store`: initial and fewest flush threads. */
  flushThreadsMin: number;
  /** cpus x `max_flush_thread_num_per_cpu`: most flush threads. */
  flushThreadsMax: number;
}

export const DEFAULT_WRITE_PIPELINE_SETTINGS: WritePipelineSettings = {
  writeBufferSize: 209715200,
  hardLimitBytes: Math.floor(os.totalmem() * 0.9 * 0.5),
  softLimitPercent: 80,
  flushRunningLimit: 2,
  useUploadQueue: true,
  uploadQueueBusyThreshold: 100,
  uploadThreads: 64,
  flushThreadsMin: 6,
  flushThreadsMax: Math.max(6, os.cpus().length * 4),
};

/** Counters of the pipeline for /metrics and the benchmarks. */
export interface WritePipelineStats {
  /** Time writers waited for backpressure or the hard limit, summed (WaitFlushLimitTime). */
  waitFlushLimitNs: number;
  /** Writes that had to wait. */
  waitFlushLimitCount: number;
}

export class WritePipeline {
  readonly flushPool: FlushPool;
  readonly uploadPool: UploadPool;
  readonly memory: LoadMemoryLimiter;
  readonly controller: FlushThreadController;
  readonly stats: WritePipelineStats = { waitFlushLimitNs: 0, waitFlushLimitCount: 0 };
  readonly settings: WritePipelineSettings;

  constructor(settings: Partial<WritePipelineSettings> = {}) {
    this.settings = { ...DEFAULT_WRITE_PIPELINE_SETTINGS, ...settings };
    this.flushPool = new FlushPool(this.settings.flushThreadsMin);
    this.uploadPool = new UploadPool(this.settings.uploadThreads);
    this.memory = new LoadMemoryLimiter(0, 0);
    this.applyLimits();
    this.controller = new FlushThreadController(
      () => ({
        threads: this.flushPool.tasks.limit,
        flushQueueSize: this.flushPool.tasks.queueSize,
        // A local directory has no utilisation signal here: a backed-up upload queue stands for busy IO either way.
        ioBusy: this.uploadPool.queueSize > this.settings.uploadQueueBusyThreshold,
        minThreads: this.settings.flushThreadsMin,
        maxThreads: Math.max(this.settings.flushThreadsMin, this.settings.flushThreadsMax),
      }),
      (threads) => this.flushPool.setThreads(threads),
    );
    this.controller.start();
  }

  /** Change settings at run time (the pools and limits follow). */
  update(settings: Partial<WritePipelineSettings>): void {
    Object.assign(this.settings, settings);
    this.applyLimits();
    this.uploadPool.tasks.setLimit(this.settings.uploadThreads);
    const flushThreads = this.flushPool.tasks.limit;
    const bounded = Math.max(this.settings.flushThreadsMin, Math.min(Math.max(this.settings.flushThreadsMin, this.settings.flushThreadsMax), flushThreads));
    if (bounded !== flushThreads) this.flushPool.setThreads(bounded);
  }

  private applyLimits(): void {
    this.memory.hardLimitBytes = this.settings.hardLimitBytes;
    this.memory.softLimitBytes = Math.floor((this.settings.hardLimitBytes * this.settings.softLimitPercent) / 100);
  }

  async close(): Promise<void> {
    this.controller.stop();
    await this.flushPool.close();
  }

  /** The pipeline of a BE, from its config; settings changed at run time apply at once. */
  static fromConfig(config: Config): WritePipeline {
    const read = (): WritePipelineSettings => {
      const memLimit = parsePageCacheLimit(config.getString('mem_limit'), os.totalmem(), 'mem_limit');
      return {
        writeBufferSize: config.getInt('write_buffer_size'),
        hardLimitBytes: Math.floor((memLimit * config.getInt('load_process_max_memory_limit_percent')) / 100),
        softLimitPercent: config.getInt('load_process_soft_mem_limit_percent'),
        flushRunningLimit: config.getInt('memtable_flush_running_count_limit'),
        useUploadQueue: config.get<boolean>('enable_s3_upload_queue_backpressure'),
        uploadQueueBusyThreshold: config.getInt('s3_upload_queue_busy_threshold'),
        uploadThreads: config.getInt('num_s3_file_upload_thread_pool_max_thread'),
        flushThreadsMin: config.getInt('flush_thread_num_per_store'),
        flushThreadsMax: os.cpus().length * config.getInt('max_flush_thread_num_per_cpu'),
      };
    };
    const pipeline = new WritePipeline(read());
    for (const name of PIPELINE_SETTING_NAMES) config.onChange(name, () => pipeline.update(read()));
    return pipeline;
  }
}

/** The config settings the pipeline reads (docs/object-storage.md lists them). */
export const PIPELINE_SETTING_NAMES = [
  'write_buffer_size',
  'load_process_max_memory_limit_percent',
  'load_process_soft_mem_limit_percent',
  'memtable_flush_running_count_limit',
  'enable_s3_upload_queue_backpressure',
  's3_upload_queue_busy_threshold',
  'num_s3_file_upload_thread_pool_max_thread',
  'flush_thread_num_per_store',
  'max_flush_thread_num_per_cpu',
] as const;
