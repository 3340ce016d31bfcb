/**
 * common/: what every layer shares, and so the bottom of the layer order (DESIGN §6): data types, the
 * column vectors and batches (the in-memory columnar layout of storage's decoded pages and exec's
 * operators), the one error type with its code table, the one config registry, query profiles, statement
 * results, scan predicates, date/time and number conversion, the cooperative scheduler. It imports nothing
 * outside itself (node built-ins only, and prom-client in metrics.ts); every other folder may import it.
 */
export type { Batch, DictVector, FixedArray, FixedVector, ObjectVector, RawValue, StringVector, Vector } from './column';
export { BATCH_SIZE, VectorBuilder, anyNullIn, concatVectors, countNulls, nullCount, selectRows, sliceVector, takeRows } from './column';
export { Types, physicalKind } from './types';
export type { DataType, PhysicalKind } from './types';
export { GaleneError, galeneError, toGaleneError } from './errors';
export type { ErrorCode } from './errors';
export { Config, SETTINGS, loadConfig } from './config';
export { QueryProfile } from './profile';
export type { StatementResult } from './result';
export type { ScanPredicate } from './scan-predicate';
