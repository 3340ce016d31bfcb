/**
 * The privilege check of every statement, run by the dispatch (runStatement in index.ts) before the
 * handler, against the grants the account holds at that moment (so a REVOKE or DROP USER applies to the
 * next statement of open sessions). Table reads are checked where the binder resolves each table
 * (Session.statementContext), which covers joins, subqueries, INSERT ... SELECT and EXPLAIN. The Record
 * type makes the build fail until a new statement kind says what it needs.
 *
 * Doris's rules and messages: table operations need SELECT / LOAD / CREATE / DROP / ALTER on the table
 * (1142 `<CMD> command denied to user 'u'@'h' for table '...'`), database operations the privilege on the
 * database (1044), user management GRANT_PRIV and server administration ADMIN_PRIV (1227).
 */
import { GaleneError } from '../../common/errors';
import { INFORMATION_SCHEMA } from '../../meta/catalog';
import type { Statement } from '../../sql/ast';
import type { Privilege, PrivilegeSet } from '../privileges';
import type { Account } from '../users';
import type { StatementSession } from './statement-session';

/** The account's privileges now. */
export function privilegesOf(session: StatementSession): PrivilegeSet {
  return session.fe.users.privilegesOf(session.account);
}

/** 1227 unless the account holds the global privilege (ADMIN_PRIV holds every one but NODE_PRIV). */
export function requireGlobal(session: StatementSession, privilege: 'ADMIN_PRIV' | 'GRANT_PRIV' | 'NODE_PRIV'): void {
  if (!privilegesOf(session).hasGlobal(privilege)) throw new GaleneError('SPECIFIC_ACCESS_DENIED', [privilege.slice(0, -5)]);
}

const isInformationSchema = (database: string): boolean => database.toLowerCase() === INFORMATION_SCHEMA;

/** Doris's table text in 1142: `internal: db: t` for reads (Nereids), `db: t` for the other commands. */
function tableDenied(session: StatementSession, command: string, database: string, table: string): GaleneError {
  const name = command === 'SELECT' ? `internal: ${database}: ${table}` : `${database}: ${table}`;
  return new GaleneError('TABLE_ACCESS_DENIED', [command, session.user, session.host, name]);
}

/** 1142 unless the account holds `privilege` on the table (information_schema is readable by everyone). */
export function requireTable(session: StatementSession, privilege: Privilege, command: string, database: string, table: string): void {
  if (isInformationSchema(database)) {
    if (privilege === 'SELECT_PRIV') return;
    throw tableDenied(session, command, database, table);
  }
  if (!privilegesOf(session).hasTable(privilege, database, table)) throw tableDenied(session, command, database, table);
}

/** 1044 unless the account holds `privilege` on the database. */
export function requireDatabase(session: StatementSession, privilege: Privilege, database: string): void {
  if (!privilegesOf(session).hasDatabase(privilege, database)) throw new GaleneError('DB_ACCESS_DENIED', [session.user, database]);
}

/** 1044 unless the database is visible to the account (USE, SHOW ... FROM db). */
export function requireVisibleDatabase(session: StatementSession, database: string): void {
  if (!privilegesOf(session).seesDatabase(database, isInformationSchema(database))) throw new GaleneError('DB_ACCESS_DENIED', [session.user, database]);
}

/** 1142 unless the table is visible to the account (DESCRIBE, SHOW CREATE TABLE, SHOW COLUMNS). */
function requireVisibleTable(session: StatementSession, command: string, database: string, table: string): void {
  if (!privilegesOf(session).seesTable(database, table, isInformationSchema(database))) throw tableDenied(session, command, database, table);
}

/** Whether `target` is the account the session logged in as (Doris: equal to current_user(), host pattern included). */
function isOwnAccount(session: StatementSession, target: Account): boolean {
  return target.user === session.account.user && target.host === session.account.host;
}

type Check<S extends Statement> = (session: StatementSession, statement: S) => void;
type CheckTable = { [K in Statement['kind']]: Check<Extract<Statement, { kind: K }>> };

const none = (): void => undefined;
const grantPriv: Check<Statement> = (session) => requireGlobal(session, 'GRANT_PRIV');

/** SHOW forms that need more than being logged in (Doris ShowProcCommand / ShowConfigCommand: ADMIN). */
const SHOW_GLOBAL: Readonly<Record<string, 'ADMIN_PRIV' | 'GRANT_PRIV'>> = { backends: 'ADMIN_PRIV', frontends: 'ADMIN_PRIV', 'all grants': 'GRANT_PRIV', roles: 'GRANT_PRIV', proc: 'ADMIN_PRIV', 'frontend config': 'ADMIN_PRIV', 'backend config': 'ADMIN_PRIV' };

/** SHOW forms whose `target` is a table the account must see. */
const SHOW_TABLE_TARGET: ReadonlySet<string> = new Set(['create table', 'create view', 'columns', 'index', 'tablets', 'partitions', 'data']);

export const STATEMENT_PRIVILEGES: CheckTable = {
  query: none,
  explain: (session, statement) => checkStatement(session, statement.statement),
  insert: (session, statement) => requireTable(session, 'LOAD_PRIV', 'LOAD', session.requireDatabase(statement.database), statement.table),
  delete: (session, statement) => requireTable(session, 'LOAD_PRIV', 'LOAD', session.requireDatabase(statement.database), statement.table),
  update: (session, statement) => requireTable(session, 'LOAD_PRIV', 'LOAD', session.requireDatabase(statement.database), statement.table),
  createDatabase: (session, statement) => requireDatabase(session, 'CREATE_PRIV', statement.name),
  dropDatabase: (session, statement) => requireDatabase(session, 'DROP_PRIV', statement.name),
  // USE is checked where every way in (USE, COM_INIT_DB, the handshake's database) ends: Session.useDatabase.
  use: none,
  createTable: (session, statement) => {
    const database = session.requireDatabase(statement.database);
    requireTable(session, 'CREATE_PRIV', 'CREATE', database, statement.name);
    if (statement.like) requireTable(session, 'SELECT_PRIV', 'SELECT', session.requireDatabase(statement.like.database), statement.like.name);
  },
  dropTable: (session, statement) => requireTable(session, 'DROP_PRIV', 'DROP', session.requireDatabase(statement.database), statement.name),
  alterTable: (session, statement) => requireTable(session, 'ALTER_PRIV', 'ALTER', session.requireDatabase(statement.database), statement.name),
  // Doris TruncateTableStmt: LOAD_PRIV.
  truncateTable: (session, statement) => requireTable(session, 'LOAD_PRIV', 'LOAD', session.requireDatabase(statement.database), statement.name),
  show: (session, statement) => {
    const global = SHOW_GLOBAL[statement.what];
    if (global) requireGlobal(session, global);
    if (statement.what === 'grants' && statement.forUser && (statement.forUser.user !== session.account.user || statement.forUser.host !== session.account.host)) requireGlobal(session, 'GRANT_PRIV');
    if (SHOW_TABLE_TARGET.has(statement.what) && statement.target) {
      requireVisibleTable(session, 'SHOW', session.requireDatabase(statement.target.database ?? statement.database), statement.target.name);
    } else if (statement.database !== null) {
      requireVisibleDatabase(session, statement.database);
    }
  },
  // DESC FUNCTION: the function checks its own privileges as it binds.
  describe: (session, statement) => statement.functionSql !== undefined ? undefined : requireVisibleTable(session, 'DESCRIBE', session.requireDatabase(statement.database), statement.table),
  // Doris VariableMgr: a GLOBAL change needs the ADMIN privilege.
  set: (session, statement) => {
    if (statement.assignments.some((assignment) => assignment.scope === 'global')) requireGlobal(session, 'ADMIN_PRIV');
  },
  // LOCK TABLES takes no lock (tool-compat.ts); it only names tables, which the account must see.
  lockTables: (session, statement) => {
    for (const table of statement.tables) requireVisibleTable(session, 'LOCK TABLES', session.requireDatabase(table.database), table.name);
  },
  // Doris AnalyzeTblStmt / ShowColumnStatsStmt / ShowTableStatsStmt: SELECT on the table; DropStatsStmt: ALTER.
  stats: (session, statement) => {
    const database = session.requireDatabase(statement.database);
    if (statement.action === 'dropStats') requireTable(session, 'ALTER_PRIV', 'ALTER', database, statement.table);
    else requireTable(session, 'SELECT_PRIV', 'SELECT', database, statement.table);
  },
  // Doris AdminSetConfigCommand: ADMIN; CancelLoadCommand: LOAD on the database; HELP: anyone.
  adminSetConfig: (session) => requireGlobal(session, 'ADMIN_PRIV'),
  cancelLoad: (session, statement) => requireDatabase(session, 'LOAD_PRIV', session.requireDatabase(statement.database)),
  buildIndex: (session, statement) => requireTable(session, 'ALTER_PRIV', 'ALTER', session.requireDatabase(statement.database), statement.table),
  cancelBuildIndex: (session, statement) => requireTable(session, 'ALTER_PRIV', 'ALTER', session.requireDatabase(statement.database), statement.table),
  help: none,
  createUser: grantPriv,
  dropUser: grantPriv,
  // Doris AlterUserInfo.validate: root only by root, otherwise GRANT_PRIV. Galene also lets an account change its
  // own password this way (MySQL's rule for ALTER USER; no more than SET PASSWORD allows); options need GRANT_PRIV.
  alterUser: (session, statement) => {
    const onlyPassword = statement.password !== null && Object.values(statement.passwordOptions).every((value) => value === undefined);
    if (onlyPassword && isOwnAccount(session, statement.user)) return;
    if (statement.user.user === 'root' && session.user !== 'root') throw new GaleneError('ROOT_MODIFY_ONLY_BY_ROOT');
    requireGlobal(session, 'GRANT_PRIV');
  },
  createRole: grantPriv,
  dropRole: grantPriv,
  // Doris SetPassVar.analyze: one's own account (the one current_user() names) needs nothing; root's password
  // only by root; another account's only with GRANT_PRIV.
  setPassword: (session, statement) => {
    const target = statement.user;
    if (target === null || isOwnAccount(session, target)) return;
    if (target.user === 'root') throw new GaleneError('ROOT_PASSWORD_ONLY_BY_ROOT');
    requireGlobal(session, 'GRANT_PRIV');
  },
  // GRANT and REVOKE depend on the level granted: checked by their handler (statements/account.ts).
  grant: none,
  transaction: none,
  prepare: none,
  // The statement EXECUTE runs goes through runParsedStatement, which checks it.
  execute: none,
  deallocate: none,
  // A session may kill its own statements; others' need ADMIN_PRIV (checked by the handler, which knows the target).
  kill: none,
  sync: none,
  // Doris: storage vault DDL needs ADMIN_PRIV.
  storageVault: (session) => requireGlobal(session, 'ADMIN_PRIV'),
  // Doris: ALTER SYSTEM (backends, compute groups) needs NODE_PRIV.
  alterSystem: (session) => requireGlobal(session, 'NODE_PRIV'),
  // One's own properties need nothing; another user's GRANT_PRIV (checked by the handler, which knows the target).
  setProperty: none,
  // Doris CreateViewCommand / AlterViewCommand / DropViewCommand: CREATE / ALTER / DROP on the view (and
  // SELECT on what CREATE / ALTER read, checked as their query is bound).
  view: (session, statement) => {
    const [privilege, command] = VIEW_PRIVILEGES[statement.action];
    requireTable(session, privilege, command, session.requireDatabase(statement.database), statement.name);
  },
};

const VIEW_PRIVILEGES: Readonly<Record<'create' | 'alter' | 'drop', readonly [Privilege, string]>> = { create: ['CREATE_PRIV', 'CREATE'], alter: ['ALTER_PRIV', 'ALTER'], drop: ['DROP_PRIV', 'DROP'] };

/** Throw the denial of `statement` for the session's account, if any. */
export function checkStatement(session: StatementSession, statement: Statement): void {
  (STATEMENT_PRIVILEGES[statement.kind] as Check<Statement>)(session, statement);
}
