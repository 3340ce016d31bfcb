/**
 * `binlog("db.tbl" [, from_version [, to_version]])`: the row binlog of a table (meta/row-binlog.ts) as a
 * table source in FROM — the table's columns, then `__op` (INSERT / UPSERT / DELETE), `__version` (the
 * commit version of the load) and `__seq` (the row's place in its load), ordered by version then
 * sequence; versions in [from_version, to_version] (default: all). Reading it needs SELECT_PRIV on the
 * table. Doris reads its row binlog through a STREAM on the table (`CREATE STREAM s ON TABLE t`, with the
 * hidden columns __DORIS_STREAM_CHANGE_TYPE_COL__ / __DORIS_STREAM_SEQUENCE_COL__); Galene has no streams
 * and reads the change log directly by version range. See docs/row-binlog.md.
 */
import type { RawValue } from '../../common/column';
import { GaleneError } from '../../common/errors';
import type { TableSource } from '../../exec/context';
import { RowBinlogSource } from '../../be/row-binlog-source';
import type { Backend } from '../../be/backend';
import type { Catalog } from '../../meta/catalog';
import { binlogSourceRange, binlogSourceSchema, rowBinlogEnabled } from '../../meta/row-binlog';
import type { TableSchema } from '../../meta/schema';

export const BINLOG_FUNCTION = 'binlog';

const usage = (detail: string): GaleneError => new GaleneError('INVALID_TABLE_DEFINITION', [`binlog(): ${detail}; usage: binlog("db.tbl" [, from_version [, to_version]])`]);

function versionArg(value: RawValue | undefined, fallback: number, what: string): number {
  if (value === undefined || value === null) return fallback;
  const version = typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? value : /^\s*\d+\s*$/.test(String(value)) ? Number(value) : NaN;
  if (!Number.isSafeInteger(version) || version < 0) throw usage(`${what} must be a non-negative integer, got ${String(value)}`);
  return version;
}

/**
 * Resolve a binlog() call: `resolveTable(database or null, name)` finds the table (and checks the
 * account's SELECT_PRIV on it). A table whose row binlog was never on (and that has no change log) is
 * Doris-style error 1105.
 */
export function binlogFunctionSchema(catalog: Catalog, args: readonly RawValue[], resolveTable: (database: string | null, name: string) => TableSchema): TableSchema {
  if (args.length < 1 || args.length > 3 || typeof args[0] !== 'string') throw usage('the first argument is the table name, as a string');
  const dot = args[0].indexOf('.');
  const database = dot < 0 ? null : args[0].slice(0, dot);
  const name = dot < 0 ? args[0] : args[0].slice(dot + 1);
  const schema = resolveTable(database, name);
  const fromVersion = versionArg(args[1], 0, 'from_version');
  const toVersion = versionArg(args[2], Number.MAX_SAFE_INTEGER, 'to_version');
  if (!rowBinlogEnabled(schema) && catalog.meta.listBinlogRowsets(schema.id).length === 0) {
    throw new GaleneError('INVALID_TABLE_DEFINITION', [`Table ${schema.databaseName}.${schema.name} has no row binlog (set "binlog.enable" = "true")`]);
  }
  return binlogSourceSchema(schema, fromVersion, toVersion);
}

/** Whether `schema` is a binlog() result schema (opened with openBinlogSource). */
export function isBinlogSource(schema: TableSchema): boolean {
  return binlogSourceRange(schema) !== null;
}

/** The change log a binlog() schema names, read through the BE's segment readers. */
export function openBinlogSource(catalog: Catalog, backend: Backend, schema: TableSchema): TableSource {
  const range = binlogSourceRange(schema)!;
  // The table's columns as the statement was planned: binlog()'s columns without the three change-log ones.
  const table: TableSchema = { ...schema, columns: schema.columns.slice(0, -3) };
  return new RowBinlogSource(backend, table, schema, catalog.meta.listBinlogRowsets(schema.id, range.fromVersion, range.toVersion));
}
