/**
 * storage/inverted/: inverted (full-text and exact-match) indexes of segments. The analyzers that turn a
 * value into terms with positions (analyzer.ts), the index PROPERTIES with Doris's checks
 * (inverted-params.ts), and the MATCH rules shared by the index reader and the row-by-row match_*
 * functions (match-semantics.ts); the per-segment index file of a text, number, date or ARRAY column —
 * its format (inverted-file.ts), the writer (inverted-writer.ts) and its worker-thread builder
 * (inverted-builder.ts), the per-segment build at flush / compaction / BUILD INDEX
 * (segment-inverted-indexes.ts), the reader that answers InvertedQuery as row sets (inverted-reader.ts,
 * inverted-query.ts) and the RowSet type (row-set.ts, over CRoaring). Knows no SQL; may import io/,
 * meta/ and common/ (DESIGN §6).
 */
export type { AnalyzerConfig, Token } from './analyzer';
export { analyze, analyzeTerms, chineseParserAvailable, chineseUnavailableError, DEFAULT_STOPWORDS, KEYWORD_ANALYZER, MAX_TERM_LENGTH } from './analyzer';
export { analyzerFor, INVERTED_PROPERTY_KEYS, invertedPropertiesProblem, isTokenized, parseInvertedProperties, storedInvertedProperties } from './inverted-params';
export type { MatchOp, MatchQuery } from './match-semantics';
export { analyzeElements, MATCH_OPS, matchesTokens, matchQuery, parseSlop, PHRASE_OPS, positionsMatch, slotCount, slotMatcher } from './match-semantics';
export { RowSet } from './row-set';
export type { InvertedOp, InvertedQuery, InvertedQueryOptions } from './inverted-query';
export { DEFAULT_MAX_EXPANSIONS } from './inverted-query';
export type { InvertedFooter, KeyKind } from './inverted-file';
export { InvertedIndexReader } from './inverted-reader';
export type { InvertedOpenOptions, TermRef } from './inverted-reader';
export type { BuiltInvertedIndex } from './inverted-writer';
export { buildInvertedIndex } from './inverted-writer';
export type { InvertedBuildInput, InvertedFileInfo } from './inverted-builder';
export { buildInvertedFileSync, InvertedBuilder } from './inverted-builder';
export type { TableInvertedIndex } from './segment-inverted-indexes';
export { buildSegmentInvertedIndexes, invertedBuilder, tableInvertedIndexes } from './segment-inverted-indexes';
