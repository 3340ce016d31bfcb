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
import * as os from 'node:os';
import * as path from 'node:path';
import { Index } from 'usearch';
import { GaleneError } from '../../common/errors';
import type { ObjectPut, ObjectStore } from '../../io/object-store';
import { buildIndexObject, IndexBuildWorker } from '../index-build-worker';
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

/** Vectors added per native call (a few hundred milliseconds of build each). */
const ADD_SLICE_VECTORS = 16_384;

/** Build the index of `input` into `target` (atomically). Blocking; the worker and tests call it. */
export function buildAnnFileSync(target: string, input: AnnBuildInput): AnnFileHeader {
  const { vectorCount, rowCount } = checkInput(input);
  const index = newUsearchIndex(input.params, input.params.efConstruction);
  const keys = new BigUint64Array(vectorCount);
  for (let idx = 0; idx < vectorCount; idx++) keys[idx] = BigInt(input.rowIds ? input.rowIds[idx] : idx);
  const threads = input.threads ?? (vectorCount >= PARALLEL_BUILD_MIN_VECTORS ? os.availableParallelism() : 1);
  const temp = tempPathFor(target);
  // In slices, so the worker returns to JS between them: a server stopping terminates a long build within
  // one slice instead of waiting minutes for a single native call over every vector.
  const dim = input.params.dim;
  for (let start = 0; start < vectorCount; start += ADD_SLICE_VECTORS) {
    const end = Math.min(vectorCount, start + ADD_SLICE_VECTORS);
    index.add(keys.subarray(start, end), input.vectors.subarray(start * dim, end * dim), threads);
  }
  try {
    index.save(temp);
  } catch (err) {
    throw new GaleneError('IO_ERROR', [`write ann index ${target}: ${(err as Error).message}`], { cause: err });
  }
  return finishAnnFileSync(temp, target, { params: input.params, rowCount, vectorCount });
}

export interface AnnBuildRequest {
  readonly target: string;
  readonly input: AnnBuildInput;
}

/**
 * Runs builds in one worker thread, one at a time (each build already uses every core), started on first
 * use and replaced if it dies (storage/index-build-worker.ts). A failed build rejects with a GaleneError;
 * nothing is left at its target.
 */
export class AnnBuilder {
  private readonly worker = new IndexBuildWorker<AnnBuildRequest, AnnFileHeader>(path.join(__dirname, 'ann-build-worker.js'), 'ann build');

  /** Build `input`'s index file at `target` off the event loop. The vectors are copied to the worker. */
  build(target: string, input: AnnBuildInput): Promise<AnnFileHeader> {
    checkInput(input);
    // Structured cloning copies a view's whole ArrayBuffer: send a view of part of a buffer as its own copy.
    const vectors = input.vectors.byteLength === input.vectors.buffer.byteLength ? input.vectors : input.vectors.slice();
    return this.worker.run({ target, input: { ...input, vectors } });
  }

  /**
   * Build the index object `key` of `store` (segmentIndexKey): on a local store the file is written in
   * place (atomically); on a remote one it is built in `tempDir` and uploaded with one atomic `put`
   * (`store.put` unless given, e.g. the upload pool's).
   */
  buildObject(store: ObjectStore, key: string, input: AnnBuildInput, tempDir = os.tmpdir(), put?: ObjectPut): Promise<AnnFileHeader> {
    return buildIndexObject(store, key, (file) => this.build(file, input), tempDir, put);
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
