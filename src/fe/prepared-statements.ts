/**
 * Prepared statements of one session, for both the binary protocol (COM_STMT_PREPARE / EXECUTE / CLOSE)
 * and SQL (`PREPARE s FROM ...`, `EXECUTE s USING @a, ...`, `DEALLOCATE PREPARE s`).
 *
 * PREPARE parses once and keeps the AST. For a query it also plans once through the shared plan cache
 * (src/sql/plan-cache.ts); each EXECUTE then looks up (or keeps) the plan for its parameter types, checks
 * it is still current (table schema versions, variables the planner read), binds the values and runs it —
 * no parsing, no optimizer. A plan made stale by ALTER TABLE or DROP + CREATE is re-planned transparently.
 *
 * Every other statement kind (INSERT INTO ... VALUES (?, ...), SET, SHOW, DDL...) keeps its parsed AST;
 * EXECUTE substitutes the values as literals into it and hands it to the statement's normal handler, so
 * an INSERT runs the existing load path on the AST parsed at PREPARE time.
 *
 * The number of open statements is capped server-wide by `max_prepared_stmt_count` (MySQL's default
 * 16382), with MySQL's error 1461 past it. Handles are per session; an unknown one is MySQL's error 1243.
 */
import type { RawValue } from '../common/column';
import { formatDecimal } from '../common/convert';
import { daysFromCivil, formatDate, formatDatetime, MICROS_PER_DAY } from '../common/datetime';
import { GaleneError } from '../common/errors';
import type { QueryProfile } from '../common/profile';
import type { ResultColumn, StatementResult } from '../common/result';
import { isIntegerType, typesEqual, Types, type DataType } from '../common/types';
import type { PlanningContext, StatementContext } from '../exec/context';
import { literalValue } from '../exec/expr';
import type { BinaryParam } from '../protocol/binary-params';
import { bindInsertParams } from './prepared-insert';
import type { Expr, LiteralExpr, Statement } from '../sql/ast';
import { parseStatements } from '../sql/parser';
import { selectLimitFor } from './sql-select-limit';
import { bindPlan, buildCachedPlan, isPlanCurrent, normalizeSql, PlanCache, planCacheKey, type CachedPlan, type ParamValue } from '../sql/plan-cache';
import { planColumns, streamPlan } from '../sql/query';
import type { ServerServices } from './server-services';
import { runShortCircuit, shortCircuitShape, type ShortCircuitShape } from './short-circuit-query';

export type { ParamValue } from '../sql/plan-cache';

/** What a session's prepared statements use of the session (Session implements it). */
export interface PreparedStatementHost {
  readonly fe: ServerServices;
  /** The current database, or null. */
  readonly database: string | null;
  /** A system variable's value for this session (session value, else global, else default). */
  getVariable(name: string): string | number | boolean;
  /** Run an already parsed statement through its handler (EXECUTE of a non-query prepared statement). */
  runParsedStatement(statement: Statement, sqlText: string, profile: QueryProfile): Promise<StatementResult>;
  /** The planning and task context of one statement (src/exec/context.ts), built from one set of facts. */
  statementContext(profile: QueryProfile, parameters?: readonly ParamValue[], writeTarget?: { readonly database: string; readonly table: string }): StatementContext;
}

/** Server-wide state: the plan cache and the count of open statements (for max_prepared_stmt_count). */
export interface PreparedServerState {
  readonly planCache: PlanCache;
  openStatements: number;
}

const SERVER_STATES = new WeakMap<ServerServices, PreparedServerState>();

/** The plan cache and statement count of an FE, created on first use. */
export function preparedServerState(fe: ServerServices): PreparedServerState {
  let state = SERVER_STATES.get(fe);
  if (state === undefined) {
    state = { planCache: new PlanCache(), openStatements: 0 };
    SERVER_STATES.set(fe, state);
  }
  return state;
}

/** One prepared statement: its text, parsed form and the plan it used last. */
export class PreparedStatement {
  /** Columns as known at PREPARE (a query's result columns for untyped parameters). */
  columns: readonly ResultColumn[] = [];
  /** The cache entry the last execution used, with the parameter types and database it was for. */
  lastPlan: CachedPlan | null = null;
  lastTypes: readonly DataType[] = [];
  lastDatabase: string | null = null;
  /** The short-circuit point-query shape (short-circuit-query.ts); null: the statement has none. */
  readonly shortCircuit: ShortCircuitShape | null;

  constructor(
    readonly id: number,
    /** SQL-level name (lower case), or null for a protocol handle. */
    readonly name: string | null,
    readonly sql: string,
    readonly normalizedSql: string,
    readonly statement: Statement,
    readonly paramCount: number,
  ) {
    this.shortCircuit = shortCircuitShape(statement);
  }
}

/** Statement kinds a prepared statement may not hold (MySQL: ER_UNSUPPORTED_PS). */
const NOT_PREPARABLE: ReadonlySet<Statement['kind']> = new Set(['prepare', 'execute', 'deallocate']);

/** How many `?` a parsed statement holds (indices count from 0 in text order). */
export function countParams(node: unknown): number {
  let count = 0;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const record = value as { kind?: unknown; index?: unknown };
    if (record.kind === 'param' && typeof record.index === 'number') {
      count = Math.max(count, record.index + 1);
      return;
    }
    for (const key of Object.keys(value)) visit((value as Record<string, unknown>)[key]);
  };
  visit(node);
  return count;
}

/** The statement with every `?` replaced by the literal of its value (copying only the changed paths). */
export function substituteParamLiterals<T>(node: T, params: readonly ParamValue[]): T {
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      let out: unknown[] | null = null;
      for (let itemIdx = 0; itemIdx < value.length; itemIdx++) {
        const next = visit(value[itemIdx]);
        if (next !== value[itemIdx]) {
          out ??= value.slice();
          out[itemIdx] = next;
        }
      }
      return out ?? value;
    }
    if (value === null || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    if (record.kind === 'param' && typeof record.index === 'number') {
      const param = params[record.index];
      if (param === undefined) throw new GaleneError('WRONG_ARGUMENTS', ['EXECUTE']);
      return paramLiteral(param, record.pos as number, record.end as number);
    }
    let out: Record<string, unknown> | null = null;
    for (const key of Object.keys(record)) {
      const next = visit(record[key]);
      if (next !== record[key]) {
        out ??= { ...record };
        out[key] = next;
      }
    }
    return out ?? value;
  };
  return visit(node) as T;
}

/** A value as the SQL literal that means the same (what EXECUTE puts where the `?` was). */
export function paramLiteral(param: ParamValue, pos: number, end: number): LiteralExpr | Expr {
  const { type, value } = param;
  const lit = (literalType: LiteralExpr['literalType'], text: string | null): LiteralExpr => ({ kind: 'literal', literalType, value: text, pos, end });
  if (value === null || type.name === 'NULL') return lit('null', null);
  switch (type.name) {
    case 'BOOLEAN':
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
    case 'BIGINT':
    case 'LARGEINT':
      return lit('integer', typeof value === 'number' ? String(Math.trunc(value)) : String(value));
    case 'FLOAT':
    case 'DOUBLE': {
      const num = Number(value);
      if (!Number.isFinite(num)) return lit('string', String(num));
      return lit('float', String(num));
    }
    case 'DECIMAL':
      return lit('decimal', formatDecimal(value as number | bigint, type.scale ?? 0));
    case 'DATE':
      return lit('date', formatDate(value as number));
    case 'DATETIME':
      return lit('datetime', formatDatetime(value as number, type.scale ?? 0));
    default:
      return lit('string', String(value));
  }
}

/** A DECIMAL of any precision in one of two canonical types (so plans are shared across precisions). */
function canonicalDecimal(type: DataType, value: RawValue): ParamValue {
  const scale = type.scale ?? 0;
  if ((type.precision ?? 9) <= 15) return { type: Types.decimal(15, scale), value: value === null ? null : Number(value) };
  return { type: Types.decimal(38, scale), value: value === null ? null : BigInt(value as number | bigint | string) };
}

/**
 * A value in the canonical type of its family (integers as BIGINT, floating point as DOUBLE, strings as
 * STRING, DECIMAL(15|38, s)), so that values of one kind share one cached plan.
 */
export function canonicalParam(type: DataType, value: RawValue): ParamValue {
  if (value === null) return { type: Types.NULL, value: null };
  if (isIntegerType(type) && type.name !== 'LARGEINT') return { type: Types.BIGINT, value: typeof value === 'bigint' ? value : BigInt(Math.trunc(Number(value))) };
  switch (type.name) {
    case 'FLOAT':
      return { type: Types.DOUBLE, value: Number(value) };
    case 'CHAR':
    case 'VARCHAR':
      return { type: Types.STRING, value };
    case 'DECIMAL':
      return canonicalDecimal(type, value);
    default:
      return { type, value };
  }
}

const DECIMAL_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/;
const TWO_POW_63 = 2n ** 63n;

/** A binary-protocol parameter as an SQL value. */
export function paramFromBinary(param: BinaryParam): ParamValue {
  switch (param.kind) {
    case 'null':
      return { type: Types.NULL, value: null };
    case 'int': {
      const value = typeof param.value === 'bigint' ? param.value : BigInt(param.value);
      return value >= TWO_POW_63 ? { type: Types.LARGEINT, value } : { type: Types.BIGINT, value };
    }
    case 'float':
      return { type: Types.DOUBLE, value: param.value };
    case 'decimal': {
      if (!DECIMAL_TEXT.test(param.text)) return { type: Types.STRING, value: param.text };
      const { type, value } = literalValue({ literalType: 'decimal', value: param.text.trim().replace(/^\+/, '') });
      return type.name === 'DECIMAL' ? canonicalDecimal(type, value) : { type, value };
    }
    case 'string':
      return { type: Types.STRING, value: param.text };
    case 'date':
      return { type: Types.DATE, value: daysFromCivil(param.year, param.month, param.day) };
    case 'datetime': {
      const days = daysFromCivil(param.year, param.month, param.day);
      const micros = days * MICROS_PER_DAY + ((param.hour * 60 + param.minute) * 60 + param.second) * 1_000_000 + param.micros;
      return { type: Types.datetime(param.micros === 0 ? 0 : 6), value: micros };
    }
    case 'time': {
      const hours = param.days * 24 + param.hour;
      const pad = (num: number): string => String(num).padStart(2, '0');
      const fraction = param.micros === 0 ? '' : '.' + String(param.micros).padStart(6, '0');
      return { type: Types.STRING, value: `${param.negative ? '-' : ''}${pad(hours)}:${pad(param.minute)}:${pad(param.second)}${fraction}` };
    }
  }
}

function typesMatch(left: readonly DataType[], right: readonly ParamValue[]): boolean {
  if (left.length !== right.length) return false;
  for (let paramIdx = 0; paramIdx < left.length; paramIdx++) if (!typesEqual(left[paramIdx], right[paramIdx].type)) return false;
  return true;
}

/** The prepared statements of one session. */
export class SessionStatements {
  private readonly byId = new Map<number, PreparedStatement>();
  private readonly byName = new Map<string, PreparedStatement>();
  private nextId = 1;

  constructor(private readonly session: PreparedStatementHost) {}

  get size(): number {
    return this.byId.size;
  }

  /** Parse (and for a query, plan) `sql`; `name` for SQL-level PREPARE (replacing a statement of that name). */
  prepare(sql: string, name: string | null, profile: QueryProfile): PreparedStatement {
    const server = preparedServerState(this.session.fe);
    const lowerName = name?.toLowerCase() ?? null;
    const replaced = lowerName !== null ? this.byName.get(lowerName) : undefined;
    const cap = Number(this.session.getVariable('max_prepared_stmt_count'));
    if (replaced === undefined && server.openStatements >= cap) throw new GaleneError('MAX_PREPARED_STMT_COUNT', [cap]);
    const statements = profile.time('ParseTimeMs', () => parseStatements(sql));
    if (statements.length !== 1) throw new GaleneError('SYNTAX_ERROR', [statements.length === 0 ? 'Query was empty' : 'a prepared statement holds exactly one statement']);
    const statement = statements[0];
    if (NOT_PREPARABLE.has(statement.kind)) throw new GaleneError('PS_UNSUPPORTED');
    const prepared = new PreparedStatement(this.nextId, lowerName, sql, normalizeSql(sql), statement, countParams(statement));
    if (statement.kind === 'query') {
      // Plan now with untyped (string) parameters: errors show at PREPARE, and the columns are known.
      const params: ParamValue[] = Array.from({ length: prepared.paramCount }, () => ({ type: Types.STRING, value: null }));
      const entry = this.planFor(prepared, params, profile, this.session.statementContext(profile, params));
      prepared.columns = planColumns(entry.plan);
    }
    this.nextId++;
    if (replaced !== undefined) this.remove(replaced);
    this.byId.set(prepared.id, prepared);
    if (lowerName !== null) this.byName.set(lowerName, prepared);
    server.openStatements++;
    return prepared;
  }

  /** A protocol handle; throws UNKNOWN_STMT_HANDLER naming `command`. */
  byHandle(statementId: number, command: string): PreparedStatement {
    const prepared = this.byId.get(statementId);
    if (prepared === undefined || prepared.name !== null) throw new GaleneError('UNKNOWN_STMT_HANDLER', [statementId, command]);
    return prepared;
  }

  /** An SQL-level statement by name; throws UNKNOWN_STMT_HANDLER naming `command`. */
  named(name: string, command: string): PreparedStatement {
    const prepared = this.byName.get(name.toLowerCase());
    if (prepared === undefined) throw new GaleneError('UNKNOWN_STMT_HANDLER', [name, command]);
    return prepared;
  }

  /** COM_STMT_CLOSE / DEALLOCATE PREPARE. */
  remove(prepared: PreparedStatement): void {
    if (this.byId.get(prepared.id) !== prepared) return;
    this.byId.delete(prepared.id);
    if (prepared.name !== null) this.byName.delete(prepared.name);
    preparedServerState(this.session.fe).openStatements--;
  }

  /** Release every statement (session end, COM_RESET_CONNECTION). */
  clear(): void {
    for (const prepared of [...this.byId.values()]) this.remove(prepared);
  }

  /** Run a prepared statement with these values. */
  async execute(prepared: PreparedStatement, params: readonly ParamValue[], profile: QueryProfile, command: string): Promise<StatementResult> {
    if (params.length !== prepared.paramCount) throw new GaleneError('WRONG_ARGUMENTS', [command]);
    const statement = prepared.statement;
    if (statement.kind !== 'query') {
      const bound = prepared.paramCount === 0 ? statement : profile.time('PlanTimeMs', () => bindInsertParams(statement, params, paramLiteral) ?? substituteParamLiterals(statement, params));
      return this.session.runParsedStatement(bound, prepared.sql, profile);
    }
    const ctx = this.session.statementContext(profile, params);
    if (prepared.shortCircuit !== null && this.session.getVariable('enable_short_circuit_query') === true) {
      const rowLimit = selectLimitFor(statement.query, this.session.getVariable('sql_select_limit'));
      const result = await runShortCircuit(prepared.shortCircuit, ctx, params, prepared.columns, rowLimit, profile);
      if (result !== null) return result;
    }
    const entry = this.planFor(prepared, params, profile, ctx);
    const plan = entry.needsBinding ? profile.time('PlanTimeMs', () => bindPlan(entry, params)) : entry.plan;
    return streamPlan(plan, ctx, selectLimitFor(statement.query, this.session.getVariable('sql_select_limit')));
  }

  /**
   * The plan for these parameter types: the statement's last one when it still fits, else from the shared
   * cache, else planned now (and shared). PlanTimeMs counts only real planning.
   */
  private planFor(prepared: PreparedStatement, params: readonly ParamValue[], profile: QueryProfile, ctx: PlanningContext): CachedPlan {
    const session = this.session;
    const cache = preparedServerState(session.fe).planCache;
    const last = prepared.lastPlan;
    if (last !== null && prepared.lastDatabase === session.database && typesMatch(prepared.lastTypes, params)) {
      if (isPlanCurrent(last, ctx)) {
        profile.add('PlanCacheHits', 1);
        return last;
      }
      cache.invalidate(last);
      prepared.lastPlan = null;
    }
    const key = planCacheKey(session.database, prepared.normalizedSql, params.map((param) => param.type));
    let entry = cache.lookup(key, ctx);
    if (entry !== undefined) profile.add('PlanCacheHits', 1);
    else {
      profile.add('PlanCacheMisses', 1);
      if (prepared.statement.kind !== 'query') throw new GaleneError('INTERNAL', ['planning a statement that is not a query']);
      const built = buildCachedPlan(key, prepared.statement.query, ctx, prepared.sql, params);
      entry = built.entry;
      if (!built.reusable) return entry;
      cache.store(entry);
    }
    prepared.lastPlan = entry;
    prepared.lastTypes = params.map((param) => param.type);
    prepared.lastDatabase = session.database;
    return entry;
  }
}
