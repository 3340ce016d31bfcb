/**
 * A simple predicate on one stored column that storage can use to skip data (zone maps, short-key index,
 * later bloom filters and inverted indexes). Pruning only: a scan may still return rows that do not match;
 * the Filter operator above always re-checks. Values are raw values of the column's type (column.ts).
 */
import type { RawValue } from './column';

export type ScanPredicate =
  | { readonly column: string; readonly op: '=' | '<' | '<=' | '>' | '>='; readonly value: RawValue }
  | { readonly column: string; readonly op: 'in'; readonly values: readonly RawValue[] }
  | { readonly column: string; readonly op: 'isnull' | 'isnotnull' };
