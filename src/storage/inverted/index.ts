/**
 * storage/inverted/: inverted (full-text and exact-match) indexes of segments. The analyzers that turn a
 * value into terms with positions (analyzer.ts), the index PROPERTIES with Doris's checks
 * (inverted-params.ts), and the MATCH rules shared by the index reader and the row-by-row match_*
 * functions (match-semantics.ts). Knows no SQL; may import io/, meta/ and common/ (DESIGN §6).
 */
export type { AnalyzerConfig, Token } from './analyzer';
export { analyze, analyzeTerms, chineseParserAvailable, chineseUnavailableError, DEFAULT_STOPWORDS, KEYWORD_ANALYZER, MAX_TERM_LENGTH } from './analyzer';
export { analyzerFor, INVERTED_PROPERTY_KEYS, invertedPropertiesProblem, isTokenized, parseInvertedProperties, storedInvertedProperties } from './inverted-params';
export type { MatchOp, MatchQuery } from './match-semantics';
export { analyzeElements, MATCH_OPS, matchesTokens, matchQuery, parseSlop, PHRASE_OPS, positionsMatch, slotCount, slotMatcher } from './match-semantics';
