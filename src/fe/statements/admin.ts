/**
 * Session and server administration: USE, SET, transactions, prepared statements, KILL (users: account.ts).
 */
import type { RawValue } from '../../common/column';
import { formatValue } from '../../common/convert';
import { GaleneError } from '../../common/errors';
import type { QueryProfile } from '../../common/profile';
import type { StatementResult } from '../../common/result';
import { evaluateConstant } from '../../exec/expr';
import type {
  DeallocateStatement,
  ExecuteStatement,
  Expr,
  KillStatement,
  PrepareStatement,
  SetStatement,
  TransactionStatement,
  UseStatement,
} from '../../sql/ast';
import { bindScalarExpr } from '../../sql/query';
import { canonicalParam } from '../prepared-statements';
import { generateLabel } from '../../load/load-transaction';
import { ExplicitTransaction } from '../explicit-transaction';
import type { StatementSession } from './statement-session';
import { coerceVariable, findSessionVariable } from '../session-variables';
import { privilegesOf } from './statement-privileges';
import { requireComputeGroupUsage } from './cluster-admin';
import { note, okResult, okWithWarnings } from './result-rows';

export async function use(session: StatementSession, statement: UseStatement): Promise<StatementResult> {
  // USE @cg: a group with a BE (SHOW COMPUTE GROUPS); a cluster FE reads tables through its BEs (docs/cluster.md).
  const group = statement.computeGroup;
  if (group !== null && !session.fe.cluster.groups().some((known) => known.name === group)) throw new GaleneError('COMPUTE_GROUP_NOT_EXISTS', [group]);
  if (group !== null) requireComputeGroupUsage(session, group);
  if (statement.database !== null) await session.useDatabase(statement.database);
  if (group !== null) session.variables.set('compute_group', group);
  return okResult();
}

/**
 * Evaluate a SET right-hand side to the text a variable parses (a decimal literal 1.5 as '1.5', not its
 * scaled integer); a bare identifier (SET group_commit = async_mode) is its name. NULL stays null.
 */
function setValue(session: StatementSession, expr: Expr, profile: QueryProfile): RawValue {
  if (expr.kind === 'column' && expr.qualifier.length === 0) return expr.name;
  const ctx = session.statementContext(profile);
  const bound = bindScalarExpr(expr, ctx);
  const value = evaluateConstant(bound, ctx);
  return value === null || typeof value === 'string' || typeof value === 'boolean' ? value : formatValue(bound.type, value);
}

/** The character sets a client may ask for: Galene sends and reads UTF-8 only (binary: bytes as they are). */
const CLIENT_CHARACTER_SETS: ReadonlySet<string> = new Set(['utf8', 'utf8mb3', 'utf8mb4', 'binary']);

/**
 * `SET NAMES x` sets character_set_client, _connection and _results to x (MySQL); `SET CHARACTER SET x`
 * sets _client and _results, and _connection back to character_set_database; DEFAULT (null) resets them.
 * As Doris (SetNamesVar), a character set other than UTF-8 is refused with 1115.
 */
function characterSetChange(session: StatementSession, scope: 'names' | 'charset', name: string | null): () => void {
  if (name !== null && !CLIENT_CHARACTER_SETS.has(name.toLowerCase())) throw new GaleneError('UNKNOWN_CHARACTER_SET', [name]);
  const names = ['character_set_client', 'character_set_results', ...(scope === 'names' ? ['character_set_connection', 'names'] : [])];
  return () => {
    for (const variable of names) {
      if (name === null) session.variables.delete(variable);
      else session.variables.set(variable, name.toLowerCase());
    }
    if (scope === 'charset') session.variables.delete('character_set_connection');
  };
}

export async function set(session: StatementSession, statement: SetStatement, _sql: string, profile: QueryProfile): Promise<StatementResult> {
  // Validate every assignment before applying any, so a bad one changes nothing.
  const apply: (() => void)[] = [];
  const notes: string[] = [];
  for (const assignment of statement.assignments) {
    if (assignment.scope === 'names' || assignment.scope === 'charset') {
      apply.push(characterSetChange(session, assignment.scope, assignment.value === null ? null : String(setValue(session, assignment.value, profile))));
      continue;
    }
    if (assignment.scope === 'user') {
      const ctx = session.statementContext(profile);
      const bound = bindScalarExpr(assignment.value!, ctx);
      const value = evaluateConstant(bound, ctx);
      apply.push(() => session.userVariables.set(assignment.name.toLowerCase(), { type: bound.type, value }));
      continue;
    }
    const def = findSessionVariable(assignment.name);
    if (!def) throw new GaleneError('UNKNOWN_SYSTEM_VARIABLE', [assignment.name]);
    if (def.readOnly) throw new GaleneError('WRONG_VALUE_FOR_VAR', [def.name, 'read-only variable']);
    if (def.globalOnly && assignment.scope !== 'global') throw new GaleneError(def.globalOnly === true ? 'GLOBAL_VARIABLE' : 'SESSION_VARIABLE_READ_ONLY', [def.name]);
    if (assignment.value === null || assignment.value.kind === 'default') {
      apply.push(() => (assignment.scope === 'global' ? session.fe.globalVariables.delete(def.name) : session.variables.delete(def.name)));
      continue;
    }
    const value = coerceVariable(def, setValue(session, assignment.value, profile));
    apply.push(() => (assignment.scope === 'global' ? session.fe.globalVariables.set(def.name, value) : session.variables.set(def.name, value)));
    // Nothing Galene accepts is silently ignored: a variable it does not act on says so.
    if (!def.honoured && value !== def.defaultValue) notes.push(`Variable '${def.name}' is accepted for Doris compatibility; its value changes nothing in Galene`);
  }
  for (const change of apply) change();
  return okWithWarnings(session, notes.map(note));
}

export async function transaction(session: StatementSession, statement: TransactionStatement): Promise<StatementResult> {
  const open = session.transaction;
  if (statement.action === 'BEGIN') {
    if (open) throw new GaleneError('TRANSACTION_ERROR', ['A transaction is already running in this session; COMMIT or ROLLBACK first']);
    const label = statement.label ?? generateLabel('txn_insert');
    session.transaction = new ExplicitTransaction(session.fe.backend, label);
    return okResult(0, `{'label':'${label}', 'status':'PREPARE', 'txnId':''}`);
  }
  // Outside an explicit transaction COMMIT and ROLLBACK do nothing (as MySQL).
  if (!open) return okResult();
  session.transaction = null;
  if (statement.action === 'ROLLBACK') {
    await open.rollback('rolled back by the user');
    return okResult(0, `{'label':'${open.label}', 'status':'ABORTED', 'txnId':'${open.txnId ?? ''}'}`);
  }
  const txn = await open.commit();
  return okResult(0, `{'label':'${open.label}', 'status':'VISIBLE', 'txnId':'${txn?.id ?? ''}'}`);
}

/** `PREPARE name FROM 'text'` or `FROM @var` (the variable must hold a string, as in MySQL). */
export async function prepare(session: StatementSession, statement: PrepareStatement, _sql: string, profile: QueryProfile): Promise<StatementResult> {
  const source = statement.source;
  let text: RawValue;
  if (source.kind === 'literal' && source.literalType === 'string') text = source.value as string;
  else if (source.kind === 'variable' && !source.system) text = session.userVariables.get(source.name.toLowerCase())?.value ?? null;
  else throw new GaleneError('SYNTAX_ERROR', ['PREPARE takes a string literal or a user variable']);
  if (typeof text !== 'string') throw new GaleneError('SYNTAX_ERROR', [`PREPARE ${statement.name} FROM a variable that holds no statement text`]);
  session.statements.prepare(text, statement.name, profile);
  return okResult(0, 'Statement prepared');
}

/** `EXECUTE name [USING @a, ...]`: the values of the expressions (user variables in MySQL) fill the `?`s. */
export async function execute(session: StatementSession, statement: ExecuteStatement, _sql: string, profile: QueryProfile): Promise<StatementResult> {
  const prepared = session.statements.named(statement.name, 'EXECUTE');
  const ctx = session.statementContext(profile);
  const params = statement.using.map((expr) => {
    const bound = bindScalarExpr(expr, ctx);
    return canonicalParam(bound.type, evaluateConstant(bound, ctx));
  });
  return session.statements.execute(prepared, params, profile, 'EXECUTE');
}

/** `DEALLOCATE PREPARE name` / `DROP PREPARE name`. */
export async function deallocate(session: StatementSession, statement: DeallocateStatement): Promise<StatementResult> {
  session.statements.remove(session.statements.named(statement.name, 'DEALLOCATE PREPARE'));
  return okResult();
}

/**
 * KILL [CONNECTION | QUERY] id: a user may kill their own sessions' statements; ADMIN_PRIV any
 * (Doris: ER_KILL_DENIED_ERROR otherwise). The statement stops at its
 * next checkpoint with "cancel query by user"; KILL CONNECTION also closes the connection.
 */
/**
 * Doris `SYNC` waits until a follower FE has replayed the master's metadata log. Galene's FE reads the
 * meta store it writes, so every session already sees the latest metadata: OK at once.
 */
export async function sync(): Promise<StatementResult> {
  return okResult();
}

export async function kill(session: StatementSession, statement: KillStatement): Promise<StatementResult> {
  const target = session.fe.sessions.get(statement.id);
  if (target === undefined) throw new GaleneError('UNKNOWN_THREAD', [statement.id]);
  if (target.user !== session.user && !privilegesOf(session).hasGlobal('ADMIN_PRIV')) throw new GaleneError('KILL_DENIED', [statement.id]);
  target.kill(session.host, statement.target === 'CONNECTION');
  return okResult();
}
