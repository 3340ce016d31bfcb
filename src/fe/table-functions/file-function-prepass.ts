/**
 * Before a statement binds: describe each file table function it calls (s3(), local(), file()), whose
 * schema needs the first file read, which the synchronous binder cannot wait for. The statement's AST is
 * walked for table-function references (in any subquery, CTE, INSERT ... SELECT, DESC FUNCTION); each is
 * described once, keyed by fileFunctionKey, for the session's getTableFunction to answer from.
 */
import type { Config } from '../../common/config';
import type { TableSchema } from '../../meta/schema';
import type { Expr, Statement, TableFunctionRef } from '../../sql/ast';
import { parseStatement } from '../../sql/parser';
import { describeFileTableFunction, FILE_TABLE_FUNCTIONS, fileFunctionKey } from './file-table-functions';

/** The property form `"key" = 'value'` of a constant argument; null for anything else. */
function literalProperty(arg: Expr): [string, string] | null {
  if (arg.kind !== 'binary' || arg.op !== '=' || arg.left.kind !== 'literal' || typeof arg.left.value !== 'string') return null;
  if (arg.right.kind !== 'literal' || arg.right.value === null) return null;
  return [arg.left.value.toLowerCase(), String(arg.right.value)];
}

function collectRefs(node: unknown, out: TableFunctionRef[], depth = 0): void {
  if (node === null || typeof node !== 'object' || depth > 200) return;
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, out, depth + 1);
    return;
  }
  const record = node as Record<string, unknown>;
  if (record.kind === 'tableFunction' && typeof record.name === 'string' && FILE_TABLE_FUNCTIONS.has(record.name.toLowerCase())) out.push(node as TableFunctionRef);
  for (const value of Object.values(record)) if (value !== null && typeof value === 'object') collectRefs(value, out, depth + 1);
}

/** Whether `sql` may call a file table function (a cheap test before walking the statement). */
export function mayCallFileFunction(sql: string): boolean {
  return /\b(s3|local|file)\s*\(/i.test(sql);
}

/** The file table functions of `statement` (whose text is `sql`), described (empty when it calls none). */
export async function describeStatementFileFunctions(statement: Statement, sql: string, config: Config): Promise<Map<string, TableSchema>> {
  if (!mayCallFileFunction(sql)) return new Map();
  const refs: TableFunctionRef[] = [];
  collectRefs(statement, refs);
  if (statement.kind === 'describe' && statement.functionSql !== undefined) collectRefs(parseStatement(`SELECT * FROM ${statement.functionSql}`), refs);
  const out = new Map<string, TableSchema>();
  for (const ref of refs) {
    const properties: Record<string, string> = {};
    const args: Expr[] = [];
    for (const arg of ref.args) {
      const property = literalProperty(arg);
      if (property === null) args.push(arg);
      else properties[property[0]] = property[1];
    }
    const fn = ref.name.toLowerCase();
    const key = fileFunctionKey(fn, properties);
    if (!out.has(key)) out.set(key, await describeFileTableFunction(fn, args, properties, config));
  }
  return out;
}
