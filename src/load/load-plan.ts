/**
 * A load plan: what the FE makes of a Stream Load request's headers (src/fe/load-planner.ts) and all that
 * load/ needs to run it — plain data, no SQL text to parse and no names to resolve. The FE has parsed and
 * validated the headers, found the target table, checked the table-model options against it, and bound
 * the `columns` and `where` expressions; load/ compiles the bound expressions (src/exec/expr
 * compileExpr) and runs the plan (src/load/source/row-converter.ts, then Stream Load or Group Commit).
 *
 * Column indexes: `SourceColumn.colIdx` and `DerivedColumn.colIdx` index `table.schema.columns`.
 * Derived expressions are bound over the source columns in `sourceColumns` order (a column reference
 * `#i` is source column i, of the type given there). The filter is bound over the table columns (after
 * mapping and conversion) followed by the `scratch` source columns in their order.
 */
import type { DataType } from '../common/types';
import type { BoundExpr } from '../exec/bound-expr';
import type { TableState } from '../meta/catalog';
import type { CompressType } from './source/decompress';

export type StreamLoadFormat = 'csv' | 'csv_with_names' | 'csv_with_names_and_types' | 'json';

/** A parsed JSONPath: keys and array indexes from the root (`$.a.b[0]` -> ['a', 'b', 0]). */
export type JsonPath = readonly (string | number)[];

/** The headers of a load that are plain values (formats, separators, limits, flags), validated. */
export interface LoadOptions {
  /** The `label` header; null when the request gave none (the plan's `label` is then generated). */
  readonly label: string | null;
  readonly format: StreamLoadFormat;
  readonly columnSeparator: Buffer;
  readonly lineDelimiter: Buffer;
  /** compress_type: how the body is decompressed before it is parsed. */
  readonly compressType: CompressType;
  /** CSV `enclose` / `escape` bytes (null: none); `trim_double_quotes`; lines skipped at the start (skip_lines, or the csv_with_names* header lines). */
  readonly enclose: number | null;
  readonly escape: number | null;
  readonly trimDoubleQuotes: boolean;
  readonly skipLines: number;
  readonly stripOuterArray: boolean;
  readonly jsonPaths: readonly JsonPath[] | null;
  /** json_root: the rows are read from this node of each document (null: the document itself). */
  readonly jsonRoot: JsonPath | null;
  readonly readJsonByLine: boolean;
  /** fuzzy_parse: every JSON row's values are taken by the first row's key positions. */
  readonly fuzzyParse: boolean;
  /** num_as_string: JSON numbers keep their exact text (no conversion through a double). */
  readonly numAsString: boolean;
  readonly maxFilterRatio: number;
  readonly timeoutSeconds: number;
  readonly strictMode: boolean;
  readonly partialColumns: boolean;
  readonly sequenceCol: string | null;
  readonly twoPhaseCommit: boolean;
  /** exec_mem_limit: bytes of parsed rows a load buffers before writing them out. */
  readonly memLimit: number;
  readonly comment: string;
  /**
   * APPEND (default) adds the rows; DELETE deletes the rows' keys; MERGE deletes the keys of the rows the
   * `delete` condition selects and upserts the others (merge-on-write UNIQUE KEY tables).
   */
  readonly mergeType: 'APPEND' | 'DELETE' | 'MERGE';
  /** Warnings for headers accepted without effect: in the answer's Message and the server log. */
  readonly warnings: readonly string[];
}

/**
 * One source column (a CSV field or a JSON value, in input order), and how it is taken: `direct` straight
 * into table column `colIdx`; `scratch` kept as text for the derived columns and the filter; `skip`
 * dropped (named by `columns` but used by nothing).
 */
export interface SourceColumn {
  readonly name: string;
  readonly mode: 'direct' | 'scratch' | 'skip';
  /** The table column a direct column fills; -1 otherwise. */
  readonly colIdx: number;
  /** The column's type in the expressions: the table column's for a direct column, STRING otherwise. */
  readonly type: DataType;
}

/** A derived column `name = expr` of the `columns` header: table column `colIdx` takes `expr`'s value. */
export interface DerivedColumn {
  readonly colIdx: number;
  readonly expr: BoundExpr;
}

/** The `where` header, bound to BOOLEAN; `text` is the header as given (for error messages). */
export interface LoadFilter {
  readonly expr: BoundExpr;
  readonly text: string;
}

export interface LoadPlan {
  /** The target table as the FE resolved it (schema, database id, tablets). */
  readonly table: TableState;
  /** The load's label: the header's, or one generated for it. */
  readonly label: string;
  readonly options: LoadOptions;
  readonly sourceColumns: readonly SourceColumn[];
  readonly derivedColumns: readonly DerivedColumn[];
  readonly filter: LoadFilter | null;
  /**
   * Rows for which this is true delete their key instead of being upserted: merge_type MERGE's `delete`
   * condition, or a loaded `__DORIS_DELETE_SIGN__` column. Bound like `filter`; null: no such rows.
   */
  readonly deleteSign: LoadFilter | null;
}

/** Whether the plan needs the batch stage (derived columns or a filter) after row conversion. */
export function hasBatchStage(plan: Pick<LoadPlan, 'derivedColumns' | 'filter' | 'deleteSign'>): boolean {
  return plan.derivedColumns.length > 0 || plan.filter !== null || plan.deleteSign !== null;
}
