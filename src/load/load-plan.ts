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

export type StreamLoadFormat = 'csv' | 'csv_with_names' | 'json';

/** A parsed JSONPath: keys and array indexes from the root (`$.a.b[0]` -> ['a', 'b', 0]). */
export type JsonPath = readonly (string | number)[];

/** The headers of a load that are plain values (formats, separators, limits, flags), validated. */
export interface LoadOptions {
  /** The `label` header; null when the request gave none (the plan's `label` is then generated). */
  readonly label: string | null;
  readonly format: StreamLoadFormat;
  readonly columnSeparator: Buffer;
  readonly lineDelimiter: Buffer;
  readonly stripOuterArray: boolean;
  readonly jsonPaths: readonly JsonPath[] | null;
  readonly readJsonByLine: boolean;
  readonly maxFilterRatio: number;
  readonly timeoutSeconds: number;
  readonly strictMode: boolean;
  readonly partialColumns: boolean;
  readonly sequenceCol: string | null;
  readonly twoPhaseCommit: boolean;
  /** exec_mem_limit: bytes of parsed rows a load buffers before writing them out. */
  readonly memLimit: number;
  readonly comment: string;
  /** APPEND (default) adds the rows; DELETE deletes the rows' keys (merge-on-write UNIQUE KEY tables). */
  readonly mergeType: 'APPEND' | 'DELETE';
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
}

/** Whether the plan needs the batch stage (derived columns or a filter) after row conversion. */
export function hasBatchStage(plan: Pick<LoadPlan, 'derivedColumns' | 'filter'>): boolean {
  return plan.derivedColumns.length > 0 || plan.filter !== null;
}
