/**
 * Stream Load planning on the FE: a request's headers -> a load plan (src/load/load-plan.ts), the way
 * Doris's FE plans a load its BE then runs. Here the headers are validated (stream-load-headers.ts), the
 * target table is found, the table-model options (merge_type DELETE / MERGE, hidden columns,
 * partial_columns, sequence_col) are checked against it, and the `columns` mapping, the `where` filter and
 * the delete sign (`delete`, a loaded __DORIS_DELETE_SIGN__) are bound with the SQL binder.
 * What is left for load/ is plain data and bound expressions: it compiles them and runs the load
 * (src/load/start-stream-load.ts), so no SQL is parsed or bound under src/load.
 *
 * A request that does not plan is answered with Doris's Stream Load result (Status Fail and the message)
 * before any body byte is read.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { GaleneError } from '../common/errors';
import { Types } from '../common/types';
import type { BoundExpr } from '../exec/bound-expr';
import { anyExpr, substituteColumns } from '../exec/plan/bound-expr-utils';
import type { DerivedColumn, LoadFilter, LoadOptions, LoadPlan, SourceColumn } from '../load/load-plan';
import { messageOf, PrepareOutcome, refusedLoad } from '../load/load-result';
import { startStreamLoad } from '../load/start-stream-load';
import type { StreamLoadService } from '../load/stream-load/stream-load-service';
import type { TableState } from '../meta/catalog';
import { isMergeOnWrite, sequenceColumnName } from '../meta/delete-bitmap';
import { findColumn, hasLoadDefault, loadAcceptsNull, loadDefaultValue, type TableSchema } from '../meta/schema';
import type { Expr } from '../sql/ast';
import { ExprBinder, toBoolean } from '../sql/binder-expr';
import { Scope, type ScopeColumn } from '../sql/binder-scope';
import { parseExpression } from '../sql/parser';
import { DELETE_SIGN_COLUMN, SEQUENCE_HIDDEN_COLUMN } from '../load/hidden-columns';
import { loadBindingContext, scopeColumn } from './load-binding';
import { generatedColumns } from './generated-columns';
import { ColumnMappingItem, parseStreamLoadHeaders, StreamLoadHeaders } from './stream-load-headers';

/** What planning a load may ask of the catalog. */
export interface LoadPlanningCatalog {
  hasDatabase(name: string): boolean;
  findTable(database: string, name: string): TableState | undefined;
}

const invalid = (message: string): GaleneError => new GaleneError('LOAD_INVALID_ARGUMENT', [message]);


/** A load has no statement to bind `?` to: refuse it while planning rather than fail on every row. */
function withoutPlaceholders(expr: BoundExpr): BoundExpr {
  if (anyExpr(expr, (node) => node.kind === 'param')) throw new GaleneError('UNSUPPORTED', ['? placeholders in Stream Load expressions']);
  return expr;
}

/**
 * partial_columns needs a merge-on-write UNIQUE KEY table and the key columns among the loaded ones;
 * sequence_col must name the table's sequence column (`function_column.sequence_col`), which then
 * decides which row of a key stays visible. Loads that delete keys (merge_type DELETE / MERGE, a loaded
 * __DORIS_DELETE_SIGN__) need a merge-on-write UNIQUE KEY table.
 */
function checkTableModelOptions(schema: TableSchema, options: LoadOptions, columns: readonly ColumnMappingItem[] | null, deleteSignLoaded: boolean): void {
  if (options.mergeType !== 'APPEND' || deleteSignLoaded) {
    const what = options.mergeType !== 'APPEND' ? `merge_type ${options.mergeType}` : DELETE_SIGN_COLUMN;
    // Doris's words (LoadStmt): the delete merge types need the UNIQUE KEY model.
    if (schema.keysType !== 'UNIQUE') throw invalid(options.mergeType !== 'APPEND' ? 'load by MERGE or DELETE is only supported in unique tables.' : `${DELETE_SIGN_COLUMN} is only loaded into unique tables.`);
    if (!isMergeOnWrite(schema)) throw invalid(`${what} is only supported on merge-on-write unique tables yet (enable_unique_key_merge_on_write = true)`);
    if (sequenceColumnName(schema) !== null) throw invalid(`${what} on a table with a sequence column is not supported yet`);
    if (options.partialColumns) throw invalid(`partial_columns can not be used with ${what}`);
    if (options.twoPhaseCommit) throw invalid(`two_phase_commit is not supported with ${what} yet`);
    if (options.mergeType !== 'APPEND' && deleteSignLoaded) throw invalid(`merge_type ${options.mergeType} decides the delete sign itself: do not load ${DELETE_SIGN_COLUMN} too`);
  }
  if (options.partialColumns) {
    if (!isMergeOnWrite(schema)) throw invalid('Only unique key merge on write support partial update');
    if (columns !== null) {
      const named = new Set(columns.map((item) => item.name.toLowerCase()));
      const missing = schema.keyColumns.filter((key) => !named.has(key.toLowerCase()));
      if (missing.length > 0) throw invalid(`Partial update should include all key columns, missing: ${missing.join(', ')}`);
    }
  }
  if (options.sequenceCol !== null) {
    const tableSequence = sequenceColumnName(schema);
    if (schema.keysType !== 'UNIQUE' || tableSequence === null) throw invalid('There is no sequence column in the table (set function_column.sequence_col on a UNIQUE KEY table)');
    if (tableSequence.toLowerCase() !== options.sequenceCol.toLowerCase()) throw invalid(`sequence_col ${options.sequenceCol} is not the sequence column ${tableSequence} of table ${schema.name}`);
  }
}

/**
 * The source columns of a load: the `columns` header, else the table's columns followed by the
 * `hidden_columns`. `__DORIS_SEQUENCE_COL__` names the table's sequence column (Galene keeps the sequence
 * in that column); when that column is loaded from its own field too, the hidden one is read and not
 * stored, with a warning.
 */
function sourceItems(schema: TableSchema, headers: StreamLoadHeaders, warnings: string[]): readonly ColumnMappingItem[] {
  // Generated columns are computed, never loaded: not in the default column list.
  const items = headers.columns ?? [...schema.columns.filter((column) => column.generatedExpr === undefined).map((column): ColumnMappingItem => ({ name: column.name, expr: null, exprText: '' })), ...headers.hiddenColumns.map((name): ColumnMappingItem => ({ name, expr: null, exprText: '' }))];
  const seqIdx = items.findIndex((item) => item.name.toUpperCase() === SEQUENCE_HIDDEN_COLUMN);
  if (seqIdx < 0) return items;
  const sequence = schema.keysType === 'UNIQUE' ? sequenceColumnName(schema) : null;
  if (sequence === null) throw invalid(`${SEQUENCE_HIDDEN_COLUMN} is loaded but there is no sequence column in the table (set function_column.sequence_col on a UNIQUE KEY table)`);
  if (items.some((item) => item.name.toLowerCase() === sequence.toLowerCase())) {
    warnings.push(`${SEQUENCE_HIDDEN_COLUMN}: not stored: the sequence column ${sequence} is loaded from its own field`);
    return items;
  }
  return items.map((item, itemIdx) => (itemIdx === seqIdx ? { ...item, name: sequence } : item));
}


/** A boolean header expression (`where`, `delete`) bound over `scope`, or the Doris-style refusal naming it. */
function bindCondition(binder: ExprBinder, expr: Expr, text: string, what: string, scope: Scope): LoadFilter {
  try {
    return { expr: withoutPlaceholders(toBoolean(binder.bind(expr, { scope, clause: 'where clause' }))), text };
  } catch (err) {
    throw invalid(`Invalid ${what} '${text}': ${messageOf(err)}`);
  }
}

/**
 * The `columns` mapping, the `where` filter and the delete sign, bound against the table: which source
 * column fills which table column, the derived columns' expressions over the source columns, the filter
 * and the delete sign over the table columns then the source-only ones. Throws LOAD_INVALID_ARGUMENT with
 * Doris's messages.
 */
function bindColumns(schema: TableSchema, headers: StreamLoadHeaders, items: readonly ColumnMappingItem[]): Pick<LoadPlan, 'sourceColumns' | 'derivedColumns' | 'filter' | 'deleteSign'> {
  const { options } = headers;
  const derivedItems = items.filter((item) => item.expr !== null);
  const loadedGenerated = items.find((item) => findColumn(schema, item.name)?.generatedExpr !== undefined);
  if (loadedGenerated) throw invalid(new GaleneError('GENERATED_COLUMN_VALUE', [loadedGenerated.name, schema.name]).message);
  const derivedTargets = new Set(derivedItems.map((item) => item.name.toLowerCase()));
  const sourceItemList = items.filter((item) => item.expr === null);
  if (sourceItemList.length === 0 && options.format !== 'json') throw invalid('columns must name at least one source column');
  const signLoaded = sourceItemList.some((item) => item.name.toUpperCase() === DELETE_SIGN_COLUMN);
  // Source columns that fill no table column are kept only when an expression may read them.
  const batchStage = derivedItems.length > 0 || headers.where !== null || headers.deleteCondition !== null || signLoaded;
  const sourceColumns = sourceItemList.map((item): SourceColumn => {
    const column = findColumn(schema, item.name);
    if (column && !derivedTargets.has(item.name.toLowerCase())) return { name: item.name, mode: 'direct', colIdx: schema.columns.indexOf(column), type: column.type };
    return { name: item.name, mode: batchStage ? 'scratch' : 'skip', colIdx: -1, type: Types.STRING };
  });
  const binder = new ExprBinder(loadBindingContext(schema.databaseName), null, undefined);
  const sourceScope = new Scope(sourceColumns.map((source, index) => scopeColumn(source.name, index, source.type, true)));
  const derivedColumns: DerivedColumn[] = [];
  for (const item of derivedItems) {
    const column = findColumn(schema, item.name);
    if (!column) throw invalid(`Unknown column '${item.name}' in table '${schema.name}' (columns: ${item.name} = ${item.exprText})`);
    let expr: BoundExpr;
    try {
      expr = withoutPlaceholders(binder.bind(item.expr!, { scope: sourceScope, clause: 'field list' }));
    } catch (err) {
      throw invalid(`Invalid column mapping '${item.name} = ${item.exprText}': ${messageOf(err)}`);
    }
    derivedColumns.push({ colIdx: schema.columns.indexOf(column), expr });
  }
  derivedColumns.push(...generatedAsDerived(schema, sourceColumns, derivedColumns));
  for (const [colIdx, column] of schema.columns.entries()) {
    const given = sourceColumns.some((source) => source.colIdx === colIdx) || derivedColumns.some((derived) => derived.colIdx === colIdx);
    if (!given && !loadAcceptsNull(column) && !hasLoadDefault(column) && !options.partialColumns) throw invalid(`Column has no default value. column: ${column.name}`);
  }
  // `where` and the delete sign see the table columns after mapping and conversion, then the source-only columns.
  const scratch = sourceColumns.filter((source) => source.mode === 'scratch');
  const rowScope = new Scope([
    ...schema.columns.map((column, index) => scopeColumn(column.name, index, column.type, column.nullable)),
    ...scratch.map((source, scratchIdx) => scopeColumn(source.name, schema.columns.length + scratchIdx, source.type, true)),
  ]);
  const filter = headers.where === null ? null : bindCondition(binder, headers.where, headers.whereText, 'where', rowScope);
  let deleteSign: LoadFilter | null = null;
  if (options.mergeType === 'DELETE') deleteSign = bindCondition(binder, parseExpression('TRUE'), 'merge_type: DELETE', 'delete', rowScope);
  else if (headers.deleteCondition !== null) deleteSign = bindCondition(binder, headers.deleteCondition, headers.deleteText, 'delete', rowScope);
  else if (signLoaded) deleteSign = bindCondition(binder, parseExpression(`\`${DELETE_SIGN_COLUMN}\` = 1`), `${DELETE_SIGN_COLUMN} = 1`, 'delete', rowScope);
  return { sourceColumns, derivedColumns, filter, deleteSign };
}

/**
 * A load computes generated columns like `columns: c = expr` mappings: each one's expression (over the
 * table's columns) is rewritten over the load's source columns — a directly loaded column is its source
 * slot, a mapped one its mapping, an earlier generated one its rewritten expression, any other its DEFAULT.
 */
function generatedAsDerived(schema: TableSchema, sourceColumns: readonly SourceColumn[], derived: readonly DerivedColumn[]): DerivedColumn[] {
  const out: DerivedColumn[] = [];
  const exprOf = new Map<number, BoundExpr>();
  sourceColumns.forEach((source, slot) => source.mode === 'direct' && exprOf.set(source.colIdx, { kind: 'column', index: slot, type: source.type, name: source.name }));
  for (const mapping of derived) exprOf.set(mapping.colIdx, mapping.expr);
  for (const { colIdx, expr } of generatedColumns(schema)) {
    const rewritten = substituteColumns(expr, (index) => exprOf.get(index) ?? { kind: 'literal', type: schema.columns[index].type, value: loadDefaultValue(schema.columns[index]) });
    exprOf.set(colIdx, rewritten);
    out.push({ colIdx, expr: rewritten });
  }
  return out;
}

/**
 * Plan one Stream Load request into `dbName`.`tableName`: the plan, or the answer refusing it.
 * `started` (performance.now() when the request arrived) gives the refusal's LoadTimeMs.
 */
export function planStreamLoad(catalog: LoadPlanningCatalog, dbName: string, tableName: string, headers: IncomingHttpHeaders, started: number): { readonly kind: 'plan'; readonly plan: LoadPlan } | PrepareOutcome {
  let parsed: StreamLoadHeaders;
  try {
    parsed = parseStreamLoadHeaders(headers);
  } catch (err) {
    const labelHeader = typeof headers['label'] === 'string' ? headers['label'].trim() : '';
    return refusedLoad(labelHeader, null, messageOf(err), null);
  }
  const { options } = parsed;
  const label = options.label ?? randomUUID();
  try {
    if (!catalog.hasDatabase(dbName)) throw new GaleneError('LOAD_NOT_FOUND', [`unknown databases, dbName=${dbName}`]);
    const table = catalog.findTable(dbName, tableName);
    if (!table) throw new GaleneError('LOAD_NOT_FOUND', [`unknown table, tableName=${tableName}`]);
    const warnings = [...options.warnings];
    const items = sourceItems(table.schema, parsed, warnings);
    checkTableModelOptions(table.schema, options, parsed.columns, items.some((item) => item.expr === null && item.name.toUpperCase() === DELETE_SIGN_COLUMN));
    return { kind: 'plan', plan: { table, label, options: { ...options, warnings }, ...bindColumns(table.schema, parsed, items) } };
  } catch (err) {
    return refusedLoad(label, options, messageOf(err), started);
  }
}

/**
 * A Stream Load request as it arrives at the BE's HTTP endpoint: plan it, then start it (Group Commit
 * or a transaction of its own) so that it waits for its body. `errorUrlBase` is `http://host:port` of
 * this BE's web server, `user` the authenticated loader; `logWarning` writes the warnings of headers
 * accepted without effect to the server log.
 */
export function prepareStreamLoad(
  service: StreamLoadService,
  catalog: LoadPlanningCatalog,
  dbName: string,
  tableName: string,
  headers: IncomingHttpHeaders,
  errorUrlBase: string,
  user: string,
  logWarning: (line: string) => void = () => undefined,
): PrepareOutcome {
  const started = performance.now();
  const planned = planStreamLoad(catalog, dbName, tableName, headers, started);
  if (planned.kind !== 'plan') return planned;
  const { warnings } = planned.plan.options;
  if (warnings.length > 0) logWarning(`stream load ${dbName}.${tableName} label ${planned.plan.label}: headers accepted without effect: ${warnings.join('; ')}`);
  return startStreamLoad(service, planned.plan, headers, errorUrlBase, user, started);
}
