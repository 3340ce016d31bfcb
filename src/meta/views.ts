/**
 * Views (CREATE VIEW): a named, stored query. A view lives in a database beside its tables and shares
 * their namespace (a view and a table cannot have one name). The record keeps the query's text as
 * written — bound again at every use, in the view's database, so a view over a dropped or changed table
 * fails or follows the change at query time — and the column labels given by CREATE VIEW v (a, b).
 * Records are kept in the meta store (table `views`) and in the catalog's memory.
 */

export interface ViewColumn {
  readonly name: string;
  readonly comment: string;
}

export interface ViewRecord {
  readonly id: number;
  readonly dbId: number;
  readonly databaseName: string;
  readonly name: string;
  /** The SELECT (or WITH / set operation) text of the definition. */
  readonly definition: string;
  /** Labels of the output columns from `CREATE VIEW v (a, b)`; null when not given. */
  readonly columns: readonly ViewColumn[] | null;
  readonly comment: string;
  /** The account that created it, as `'user'@'host'` (information_schema.VIEWS DEFINER). */
  readonly definer: string;
  readonly createTime: number;
}
