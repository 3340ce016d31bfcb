/**
 * The byte form of what a scan fragment ships and returns between processes (FE -> BE scan requests,
 * BE -> FE batches and FragmentResults with partial aggregate states): the structured-clone form that
 * scan workers already exchange with the main thread, written to bytes with the V8 serializer
 * (node:v8). One serialization for both hops: what crosses a thread today crosses a socket unchanged.
 *
 * The serializer writes a typed array as its viewed bytes only (a 10-row slice of a cached 64 KiB page
 * costs 10 rows), numbers, strings and bigints natively (so partial states of every accumulator,
 * LARGEINT keys and BoundExpr literals survive), and nothing executable. Before writing, vectors are
 * trimmed to their rows (string bytes and ARRAY children can extend past a slice); after reading, every
 * vector's shape is checked, so a damaged or hostile message is a CORRUPTION error, never a wrong answer
 * or a crash further up. Batches keep their physical layout: fixed-width values as their typed array,
 * null maps as bytes, strings as offsets + UTF-8 bytes, dictionary columns as codes + entries, ARRAY
 * (and JSON, a string column) as offsets + child.
 */
import { deserialize, serialize } from 'node:v8';
import { compactArray, type Batch, type Vector } from '../../common/column';
import { GaleneError } from '../../common/errors';
import type { AggregateState, PartialAggregate } from '../aggregate-state';
import type { FragmentResult } from '../plan/fragment-spec';

/** Any structured-cloneable plain value (a spec, a request, a descriptor) as bytes. */
export function toWire(value: unknown): Buffer {
  return serialize(value);
}

/** The value `toWire` wrote; CORRUPTION naming `what` when the bytes are not a serialized value. */
export function fromWire(bytes: Uint8Array, what: string): unknown {
  try {
    return deserialize(bytes);
  } catch (err) {
    throw new GaleneError('CORRUPTION', [`${what}: undecodable message (${(err as Error).message})`], { cause: err });
  }
}

/** The vector holding exactly its `length` rows (no bytes of a larger page or child). */
export function trimVector(vec: Vector): Vector {
  const nulls = vec.nulls !== null && vec.nulls.length !== vec.length ? vec.nulls.subarray(0, vec.length) : vec.nulls;
  switch (vec.kind) {
    case 'fixed':
      return vec.values.length === vec.length && nulls === vec.nulls ? vec : { ...vec, values: vec.values.subarray(0, vec.length), nulls };
    case 'dict':
      return vec.codes.length === vec.length && nulls === vec.nulls ? vec : { ...vec, codes: vec.codes.subarray(0, vec.length), nulls };
    case 'object':
      return vec.values.length === vec.length && nulls === vec.nulls ? vec : { ...vec, values: vec.values.slice(0, vec.length), nulls };
    case 'string': {
      const base = vec.offsets[0];
      const end = vec.offsets[vec.length];
      if (base === 0 && end === vec.bytes.length && vec.offsets.length === vec.length + 1 && nulls === vec.nulls) return vec;
      const offsets = base === 0 ? vec.offsets.subarray(0, vec.length + 1) : vec.offsets.slice(0, vec.length + 1).map((offset) => offset - base);
      return { ...vec, offsets, bytes: vec.bytes.subarray(base, end), nulls };
    }
    case 'array': {
      const compact = compactArray({ ...vec, offsets: vec.offsets.subarray(0, vec.length + 1), nulls });
      return { ...compact, child: trimVector(compact.child) };
    }
    case 'struct':
      return { ...vec, children: vec.children.map(trimVector), nulls };
  }
}

function trimBatch(batch: Batch): Batch {
  return { length: batch.length, columns: batch.columns.map(trimVector) };
}

/** A FragmentResult (filtered batches or a partial aggregate) as bytes. */
export function fragmentResultToWire(result: FragmentResult): Buffer {
  if (result.kind === 'batches') return serialize({ kind: 'batches', batches: result.batches.map(trimBatch) });
  const { groupCount, keys, states } = result.partial;
  return serialize({ kind: 'partial', partial: { groupCount, keys: keys.map(trimVector), states } });
}

/** The FragmentResult `fragmentResultToWire` wrote, its vectors checked. */
export function fragmentResultFromWire(bytes: Uint8Array): FragmentResult {
  const value = fromWire(bytes, 'fragment result') as FragmentResult;
  if (value === null || typeof value !== 'object') throw corrupt('fragment result', 'not an object');
  if (value.kind === 'batches') {
    if (!Array.isArray(value.batches)) throw corrupt('fragment result', 'batches missing');
    for (const batch of value.batches) checkBatch(batch, 'fragment result');
    return value;
  }
  if (value.kind === 'partial') {
    checkPartial(value.partial);
    return value;
  }
  throw corrupt('fragment result', `unknown kind ${String((value as { kind?: unknown }).kind)}`);
}

/** One batch as bytes (a scan's rows streamed to the FE). */
export function batchToWire(batch: Batch): Buffer {
  return serialize(trimBatch(batch));
}

/** The batch `batchToWire` wrote, its vectors checked. */
export function batchFromWire(bytes: Uint8Array): Batch {
  const batch = fromWire(bytes, 'batch') as Batch;
  checkBatch(batch, 'batch');
  return batch;
}

/** Vectors (fetched rows, one per column) as bytes. */
export function vectorsToWire(vectors: readonly Vector[]): Buffer {
  return serialize(vectors.map(trimVector));
}

export function vectorsFromWire(bytes: Uint8Array): Vector[] {
  const vectors = fromWire(bytes, 'vectors') as Vector[];
  if (!Array.isArray(vectors)) throw corrupt('vectors', 'not a list');
  for (const vec of vectors) checkVector(vec, 'vectors');
  return vectors;
}

function corrupt(what: string, why: string): GaleneError {
  return new GaleneError('CORRUPTION', [`${what}: ${why}`]);
}

function checkPartial(partial: PartialAggregate): void {
  if (partial === null || typeof partial !== 'object' || !Number.isInteger(partial.groupCount) || !Array.isArray(partial.keys) || !Array.isArray(partial.states)) throw corrupt('partial aggregate', 'bad shape');
  for (const key of partial.keys) {
    checkVector(key, 'partial aggregate key');
    if (key.length !== partial.groupCount) throw corrupt('partial aggregate key', `${key.length} rows for ${partial.groupCount} groups`);
  }
  for (const state of partial.states as AggregateState[]) if (state === null || typeof state !== 'object' || !Number.isInteger(state.groupCount)) throw corrupt('partial aggregate state', 'bad state');
}

function checkBatch(batch: Batch, what: string): void {
  if (batch === null || typeof batch !== 'object' || !Number.isInteger(batch.length) || batch.length < 0 || !Array.isArray(batch.columns)) throw corrupt(what, 'bad batch');
  for (const vec of batch.columns) {
    checkVector(vec, what);
    if (vec.length !== batch.length) throw corrupt(what, `a column of ${vec.length} rows in a batch of ${batch.length}`);
  }
}

const FIXED_ARRAYS: readonly Function[] = [Uint8Array, Int8Array, Int16Array, Int32Array, BigInt64Array, Float32Array, Float64Array];

/** Throws CORRUPTION unless `vec` is a well-formed vector: every index a reader follows stays in bounds. */
function checkVector(vec: Vector, what: string): void {
  if (vec === null || typeof vec !== 'object' || !Number.isInteger(vec.length) || vec.length < 0 || vec.type === null || typeof vec.type !== 'object' || typeof vec.type.name !== 'string') throw corrupt(what, 'bad vector');
  const length = vec.length;
  if (vec.nulls !== null && !(vec.nulls instanceof Uint8Array && vec.nulls.length >= length)) throw corrupt(what, 'bad null map');
  switch (vec.kind) {
    case 'fixed':
      if (!FIXED_ARRAYS.includes(vec.values?.constructor) || vec.values.length < length) throw corrupt(what, 'bad fixed values');
      return;
    case 'dict': {
      if (!(vec.codes instanceof Int32Array) || vec.codes.length < length || !Array.isArray(vec.dict)) throw corrupt(what, 'bad dictionary column');
      const size = vec.dict.length;
      for (let rowIdx = 0; rowIdx < length; rowIdx++) if (vec.codes[rowIdx] < 0 || vec.codes[rowIdx] >= size) throw corrupt(what, 'dictionary code out of range');
      return;
    }
    case 'object':
      if (!Array.isArray(vec.values) || vec.values.length < length) throw corrupt(what, 'bad bigint values');
      return;
    case 'string':
      if (!(vec.offsets instanceof Int32Array) || !(vec.bytes instanceof Uint8Array) || vec.offsets.length < length + 1) throw corrupt(what, 'bad string column');
      checkOffsets(vec.offsets, length, vec.bytes.length, what);
      return;
    case 'array':
      if (!(vec.offsets instanceof Int32Array) || vec.offsets.length < length + 1) throw corrupt(what, 'bad array column');
      checkVector(vec.child, what);
      checkOffsets(vec.offsets, length, vec.child.length, what);
      return;
    case 'struct':
      if (!Array.isArray(vec.children)) throw corrupt(what, 'bad struct column');
      for (const child of vec.children) {
        checkVector(child, what);
        if (child.length < length) throw corrupt(what, 'struct field shorter than its rows');
      }
      return;
    default:
      throw corrupt(what, `unknown vector kind ${String((vec as { kind?: unknown }).kind)}`);
  }
}

/** Offsets non-decreasing and within `limit`. */
function checkOffsets(offsets: Int32Array, length: number, limit: number, what: string): void {
  let previous = offsets[0];
  if (previous < 0) throw corrupt(what, 'negative offset');
  for (let rowIdx = 1; rowIdx <= length; rowIdx++) {
    const offset = offsets[rowIdx];
    if (offset < previous) throw corrupt(what, 'offsets go backwards');
    previous = offset;
  }
  if (previous > limit) throw corrupt(what, 'offset past the data');
}
