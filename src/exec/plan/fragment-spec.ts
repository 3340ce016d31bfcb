/**
 * The plain-data description of a scan fragment — what a SCAN FRAGMENT plan node
 * (src/exec/operators/scan-fragment.ts) ships to the table source's scan workers — and what one fragment
 * task returns. A leaf types file: src/exec/context.ts (TableSource), the BE's worker pool and the
 * fragment runtime (src/exec/parallel/run-fragment.ts) all name these types without importing code.
 *
 * Everything in a FragmentSpec is structured-cloneable data with no session behind it: stored column
 * schemas, pruning predicates, bound expressions whose `?` parameters are already literals and that call
 * only pure functions, and aggregate specs. That is what lets the same spec run in a worker thread today
 * and behind an exchange on another BE later.
 */
import type { Batch } from '../../common/column';
import type { ScanPredicate } from '../../common/scan-predicate';
import type { ColumnSchema } from '../../meta/schema';
import type { AnnIndexParams } from '../../storage/ann/ann-params';
import type { InvertedQuery } from '../../storage/inverted/inverted-query';
import type { PartialAggregate } from '../aggregate-state';
import type { BoundExpr } from '../bound-expr';
import type { RuntimeFilterValue } from '../runtime-filter';
import type { FragmentAggregate, InvertedTree } from './physical-plan';

export interface FragmentSpec {
  /** Stored columns the scan returns, in batch column order (schema entries: type, uniqueId). */
  readonly columns: readonly ColumnSchema[];
  readonly predicates: readonly ScanPredicate[];
  /** Append the global row id column after `columns` (a lazily materialized TopN's phase one, ScanRequest.globalRowId). */
  readonly globalRowId?: boolean;
  /** Computed in order and appended to every batch before the filter (ScanFragmentNode.virtualColumns). */
  readonly virtualColumns?: readonly BoundExpr[];
  /** Rows where this is not TRUE are dropped. */
  readonly filter: BoundExpr | null;
  /** A partial aggregate over the filtered rows; null to return the filtered rows. */
  readonly aggregate: FragmentAggregate | null;
  /**
   * An ANN search over the task's segment (src/be/ann-segment-scan.ts) instead of a row scan: the result is
   * the found rows' `columns` (read by row ordinal), then their distance when `ann.distance`. `filter` and
   * `aggregate` are then null.
   */
  readonly ann?: AnnSegmentSpec;
  /** Index predicates applied to the task's rows before any column is read (be/inverted-segment-filter.ts). */
  readonly inverted?: InvertedFilter;
  /**
   * Runtime filters built by hash joins above (exec/runtime-filter.ts), tested on their columns' values
   * before the other columns are read (be/runtime-filter-rows.ts); their min/max are in `predicates` too.
   * `scanId` names the profile counters.
   */
  readonly runtimeFilters?: { readonly scanId: number; readonly filters: readonly RuntimeFilterValue[] };
}

/** An inverted-index predicate tree with its queries bound (InvertedScanSpec for one run). */
export type InvertedFilterNode = InvertedTree<{ readonly kind: 'leaf'; readonly indexName: string; readonly column: string; readonly query: InvertedQuery }>;

/**
 * What a scan with index predicates (TableScanNode.inverted) asks every segment, bound for this run: the
 * tree for segments that have every index file it names, and the exact filter over `filterColumns` for
 * the others (and for all segments when `exactOnly`: a parameter's value has no exact index form).
 */
export interface InvertedFilter {
  readonly predicate: InvertedFilterNode;
  readonly filterColumns: readonly ColumnSchema[];
  readonly filter: BoundExpr;
  readonly exactOnly: boolean;
  /** `inverted_index_max_expansions` when planned: terms a MATCH_PHRASE_PREFIX's last term expands to. */
  readonly maxExpansions: number;
}

/**
 * What a scan with an ANN search (TableScanNode.ann) asks its table source, with every expression bound:
 * the query vector, per-segment k, radius and hnsw_ef_search as values.
 */
export interface AnnScanRequest {
  readonly indexName: string;
  readonly query: Float32Array;
  /** Each segment's k (LIMIT + OFFSET); null: every row within the radius. */
  readonly k: number | null;
  readonly radius: { readonly op: '<' | '<=' | '>' | '>='; readonly value: number } | null;
  readonly ef: number;
  /** Stored columns the allowed-row filter reads, and the filter over them (no `?` left). */
  readonly filterColumns: readonly string[];
  readonly filter: BoundExpr | null;
  readonly distance: boolean;
}

/** The per-segment form of an AnnScanRequest (FragmentSpec.ann): the index's parameters and the columns resolved. */
export interface AnnSegmentSpec {
  readonly indexName: string;
  readonly params: AnnIndexParams;
  readonly vectorColumn: ColumnSchema;
  readonly query: Float32Array;
  readonly k: number | null;
  readonly radius: AnnScanRequest['radius'];
  readonly ef: number;
  readonly filterColumns: readonly ColumnSchema[];
  readonly filter: BoundExpr | null;
  readonly distance: boolean;
}

/** What one fragment task returns: a partial aggregate, or the filtered rows. */
export type FragmentResult = { readonly kind: 'partial'; readonly partial: PartialAggregate } | { readonly kind: 'batches'; readonly batches: Batch[] };
