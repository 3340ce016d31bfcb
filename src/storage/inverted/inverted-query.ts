/**
 * What an inverted-index reader answers (the A/B/C contract of issue 12). Placeholder on the query-path
 * branch until the storage branch (h-tix) lands its own copy of this file, which replaces it.
 */
import type { RawValue } from '../../common/column';

export type InvertedQuery =
  | { readonly op: 'match_any' | 'match_all' | 'match_phrase' | 'match_phrase_prefix' | 'match_regexp' | 'match_phrase_edge'; readonly text: string }
  | { readonly op: '=' | '!=' | '<' | '<=' | '>' | '>='; readonly value: RawValue }
  | { readonly op: 'in' | 'not_in'; readonly values: readonly RawValue[] }
  | { readonly op: 'is_null' | 'is_not_null' }
  | { readonly op: 'array_contains'; readonly value: RawValue };
