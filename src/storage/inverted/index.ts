/**
 * storage/inverted/: the per-segment inverted index of a text, number, date or ARRAY column — the file
 * format (inverted-file.ts), the writer (inverted-writer.ts) and its worker-thread builder
 * (inverted-builder.ts), the per-segment build at flush / compaction / BUILD INDEX
 * (segment-inverted-indexes.ts), the reader that answers InvertedQuery as row sets
 * (inverted-reader.ts, inverted-query.ts) and the RowSet type (row-set.ts, over CRoaring). Analyzers and
 * the MATCH semantics are shared with the row-by-row functions. Knows no SQL; may import io/, meta/ and
 * common/ (DESIGN §6).
 */
export { RowSet } from './row-set';
export type { InvertedOp, InvertedQuery, InvertedQueryOptions } from './inverted-query';
export { DEFAULT_MAX_EXPANSIONS, MATCH_OPS } from './inverted-query';
export type { InvertedFooter, KeyKind } from './inverted-file';
export { InvertedIndexReader } from './inverted-reader';
export type { InvertedOpenOptions, TermRef } from './inverted-reader';
export type { BuiltInvertedIndex } from './inverted-writer';
export { buildInvertedIndex } from './inverted-writer';
export type { InvertedBuildInput, InvertedFileInfo } from './inverted-builder';
export { buildInvertedFileSync, InvertedBuilder } from './inverted-builder';
export type { TableInvertedIndex } from './segment-inverted-indexes';
export { buildSegmentInvertedIndexes, invertedBuilder, tableInvertedIndexes } from './segment-inverted-indexes';
export type { AnalyzerConfig, Token } from './interim-contract';
