/**
 * storage/ann/: the per-segment HNSW (ANN) index of a vector column — parameters and their Doris checks
 * (ann-params.ts), the index file format (ann-file.ts), the builder that runs off the event loop
 * (ann-builder.ts + ann-build-worker.ts), the reader that memory-maps a file (ann-reader.ts), exact
 * typed-array kernels (exact-scan.ts) and the segment search that combines them into filtered, range and
 * TopN search with Doris's distances (ann-search.ts). The HNSW library is usearch (bench/ann-libraries.ts,
 * docs/benchmarks.md). Works on Float32Array vectors and row ordinals; knows no SQL. May import io/ and
 * common/ (DESIGN §6).
 */
export type { AnnIndexParams, AnnMetric, AnnQuantizer } from './ann-params';
export { ANN_DEFAULTS, DEFAULT_EF_SEARCH, DEFAULT_MIN_SEGMENT_ROWS, parseAnnProperties, validateAnnParams } from './ann-params';
export type { AnnFileHeader } from './ann-file';
export { readAnnFileHeader } from './ann-file';
export type { AnnBuildInput } from './ann-builder';
export { AnnBuilder, buildAnnFileSync } from './ann-builder';
export { AnnIndexReader } from './ann-reader';
export type { AllowedRows, AnnSearchOptions, AnnSearchResult, RangeOp, VectorSource } from './ann-search';
export { AnnSegmentSearcher, EXACT_SCAN_BUDGET_VALUES, exactMaxRowsFor } from './ann-search';
export { exactTopK, exactFilter } from './exact-scan';
