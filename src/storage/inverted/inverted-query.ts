/**
 * What an inverted-index reader answers (the A/B/C contract). A MATCH text is the SQL string as written
 * (slop suffix included); the reader analyzes it with the index's own analyzer, exactly as the row-by-row
 * functions do. Comparisons, IN, NULL tests and array_contains are answered by indexes without a parser
 * (the whole value is one term); values are raw (storage/physical) values of the column's type.
 */
import type { RawValue } from '../../common/column';

export type InvertedQuery =
  | { readonly op: 'match_any' | 'match_all' | 'match_phrase' | 'match_phrase_prefix' | 'match_regexp' | 'match_phrase_edge'; readonly text: string }
  | { readonly op: '=' | '!=' | '<' | '<=' | '>' | '>='; readonly value: RawValue }
  | { readonly op: 'in' | 'not_in'; readonly values: readonly RawValue[] }
  | { readonly op: 'is_null' | 'is_not_null' }
  | { readonly op: 'array_contains'; readonly value: RawValue };

export type InvertedOp = InvertedQuery['op'];

/** Per-query knobs the session gives (Doris session variables). */
export interface InvertedQueryOptions {
  /** `inverted_index_max_expansions`: terms a MATCH_PHRASE_PREFIX's last term expands to (Doris default 50). */
  readonly maxExpansions?: number;
}

export const DEFAULT_MAX_EXPANSIONS = 50;
