/**
 * Building one segment's ANN index file. `buildAnnFileSync` is the whole build (the HNSW library adds the
 * vectors on its own native threads, writes its index to a temporary file, the trailer is appended and
 * the file renamed into place); it blocks, so the engine calls it through `AnnBuilder`, which runs it in
 * a worker thread (ann-build-worker.ts) and keeps the event loop free. Large builds use every core
 * (usearch's parallel add); small ones one.
 *
 * A build killed at any point (SIGKILL included) leaves at most a temporary file whose name carries
 * TEMP_MARKER — never listed by the object store, swept by its temp-file cleanup — and no index file.
 */
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Index } from 'usearch';
import { ErrorCode, GaleneError } from '../../common/errors';
import { PRIVATE_DIR_MODE } from '../../common/private-files';
import type { ObjectStore } from '../../io/object-store';
import type { AnnFileHeader } from './ann-file';
import { finishAnnFileSync, tempPathFor } from './ann-file';
import type { AnnIndexParams } from './ann-params';
import { USEARCH_METRIC, USEARCH_SCALAR, validateAnnParams } from './ann-params';

/** Builds with at least this many vectors use every core. */
export const PARALLEL_BUILD_MIN_VECTORS = 20_000;

export interface AnnBuildInput {
  readonly params: AnnIndexParams;
  /** `vectorCount * dim` values, one vector per indexed row, in `rowIds` order. */
  readonly vectors: Float32Array;
  /** Row ordinal of each vector; absent: vector i is row i. Rows without a valid vector are simply absent. */
  readonly rowIds?: Int32Array | null;
  /** Rows in the segment (>= every row id + 1); defaults to the vector count. */
  readonly rowCount?: number;
  /** Native threads for the add; default: every core for large builds, 1 for small ones. */
  readonly threads?: number;
}

/** A usearch index object configured for `params` (searches use `efSearch`). */
export function newUsearchIndex(params: AnnIndexParams, efSearch: number): Index {
  return new Index({
    dimensions: params.dim,
    metric: USEARCH_METRIC[params.metric] as never,
    quantization: USEARCH_SCALAR[params.quantizer] as never,
    connectivity: params.maxDegree,
    expansion_add: params.efConstruction,
    expansion_search: Math.max(1, efSearch),
    multi: false,
  });
}

function checkInput(input: AnnBuildInput): { vectorCount: number; rowCount: number } {
  const params = validateAnnParams(input.params);
  if (input.vectors.length % params.dim !== 0) throw new GaleneError('INTERNAL', [`ann build: ${input.vectors.length} values are not a whole number of ${params.dim}-dim vectors`]);
  const vectorCount = input.vectors.length / params.dim;
  if (input.rowIds && input.rowIds.length !== vectorCount) throw new GaleneError('INTERNAL', [`ann build: ${input.rowIds.length} row ids for ${vectorCount} vectors`]);
  let maxRow = vectorCount - 1;
  if (input.rowIds) for (let idx = 0; idx < input.rowIds.length; idx++) maxRow = Math.max(maxRow, input.rowIds[idx]);
  const rowCount = input.rowCount ?? maxRow + 1;
  if (rowCount <= maxRow) throw new GaleneError('INTERNAL', [`ann build: row id ${maxRow} outside a segment of ${rowCount} rows`]);
  return { vectorCount, rowCount };
}

/** Build the index of `input` into `target` (atomically). Blocking; the worker and tests call it. */
export function buildAnnFileSync(target: string, input: AnnBuildInput): AnnFileHeader {
  const { vectorCount, rowCount } = checkInput(input);
  const index = newUsearchIndex(input.params, input.params.efConstruction);
  const keys = new BigUint64Array(vectorCount);
  for (let idx = 0; idx < vectorCount; idx++) keys[idx] = BigInt(input.rowIds ? input.rowIds[idx] : idx);
  const threads = input.threads ?? (vectorCount >= PARALLEL_BUILD_MIN_VECTORS ? os.availableParallelism() : 1);
  const temp = tempPathFor(target);
  if (vectorCount > 0) index.add(keys, input.vectors, threads);
  try {
    index.save(temp);
  } catch (err) {
    throw new GaleneError('IO_ERROR', [`write ann index ${target}: ${(err as Error).message}`], { cause: err });
  }
  return finishAnnFileSync(temp, target, { params: input.params, rowCount, vectorCount });
}

export interface AnnBuildRequest {
  readonly id: number;
  readonly target: string;
  readonly input: AnnBuildInput;
}

export type AnnBuildReply = { readonly id: number; readonly ok: true; readonly header: AnnFileHeader } | { readonly id: number; readonly ok: false; readonly code: ErrorCode | null; readonly message: string };

/** The worker's error as the same GaleneError (its code, its already formatted message). */
function replyError(reply: Extract<AnnBuildReply, { ok: false }>): GaleneError {
  if (!reply.code) return new GaleneError('INTERNAL', [`ann index build failed: ${reply.message}`]);
  const err = new GaleneError(reply.code);
  err.message = reply.message;
  return err;
}

/**
 * Runs builds in one worker thread, one at a time (each build already uses every core), started on first
 * use and replaced if it dies. A failed build rejects with a GaleneError; nothing is left at its target.
 */
export class AnnBuilder {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (header: AnnFileHeader) => void; reject: (err: Error) => void }>();

  private start(): Worker {
    const worker = new Worker(path.join(__dirname, 'ann-build-worker.js'));
    worker.on('message', (reply: AnnBuildReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.ok) waiter.resolve(reply.header);
      else waiter.reject(replyError(reply));
    });
    const fail = (err: Error): void => {
      if (this.worker === worker) this.worker = null;
      for (const waiter of this.pending.values()) waiter.reject(new GaleneError('INTERNAL', [`ann build worker failed: ${err.message}`], { cause: err }));
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exited with code ${code}`)));
    return worker;
  }

  /** Build `input`'s index file at `target` off the event loop. The vectors are copied to the worker. */
  build(target: string, input: AnnBuildInput): Promise<AnnFileHeader> {
    checkInput(input);
    this.worker ??= this.start();
    const worker = this.worker;
    worker.ref();
    const id = this.nextId++;
    // Structured cloning copies a view's whole ArrayBuffer: send a view of part of a buffer as its own copy.
    const vectors = input.vectors.byteLength === input.vectors.buffer.byteLength ? input.vectors : input.vectors.slice();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, target, input: { ...input, vectors } } satisfies AnnBuildRequest);
    });
  }

  /**
   * Build the index object `key` of `store` (segmentIndexKey): on a local store the file is written in
   * place (atomically); on a remote one it is built in `tempDir` and uploaded with one atomic `put`.
   */
  async buildObject(store: ObjectStore, key: string, input: AnnBuildInput, tempDir = os.tmpdir()): Promise<AnnFileHeader> {
    const local = store.localPath(key);
    if (local) {
      await fsp.mkdir(path.dirname(local), { recursive: true, mode: PRIVATE_DIR_MODE });
      return this.build(local, input);
    }
    const file = path.join(tempDir, `galene-ann-build-${process.pid}-${this.nextId}-${Date.now().toString(36)}.idx`);
    try {
      const header = await this.build(file, input);
      await store.put(key, await fsp.readFile(file));
      return header;
    } finally {
      await fsp.rm(file, { force: true });
    }
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}
