/**
 * The SQL abstract syntax tree: what the parser produces and the binder consumes.
 *
 * Nodes are plain immutable objects with a string `kind` discriminant; every node carries `pos`/`end`
 * offsets into the statement text so errors can point at it. Identifiers keep the case the user wrote;
 * the binder resolves names case-insensitively as Doris does. Imports only common/ and the literal kinds of
 * exec's typing rules (exec types literals; sql may import exec).
 */
import type { DataType } from '../common/types';
import type { BinaryOp } from '../exec/expr/function-registry';
import type { LiteralKind } from '../exec/expr/type-rules';

export interface Span {
  readonly pos: number;
  readonly end: number;
}

// ---------------------------------------------------------------- expressions

export type Expr =
  | LiteralExpr
  | ColumnRefExpr
  | StarExpr
  | ParamExpr
  | VariableExpr
  | UnaryExpr
  | BinaryExpr
  | FunctionCallExpr
  | CastExpr
  | CaseExpr
  | InListExpr
  | BetweenExpr
  | LikeExpr
  | IsNullExpr
  | IntervalExpr
  | SubqueryExpr
  | ExistsExpr
  | InSubqueryExpr
  | LambdaExpr
  | DefaultExpr;

/**
 * A literal as written. `value` is: null for NULL, boolean for TRUE/FALSE, string for string literals,
 * and the source text of a number (so the binder can pick INT/BIGINT/DECIMAL/DOUBLE exactly).
 */
export interface LiteralExpr extends Span {
  readonly kind: 'literal';
  readonly literalType: LiteralKind;
  readonly value: null | boolean | string;
}

export interface ColumnRefExpr extends Span {
  readonly kind: 'column';
  /** Qualifier parts before the column name: [] | [table] | [db, table]. */
  readonly qualifier: readonly string[];
  readonly name: string;
}

/** `*` or `t.*` in a select list, or the argument of COUNT(*). */
export interface StarExpr extends Span {
  readonly kind: 'star';
  readonly qualifier: readonly string[];
}

/** `?` placeholder; `index` counts from 0 in text order. */
export interface ParamExpr extends Span {
  readonly kind: 'param';
  readonly index: number;
}

/** `@name` (user variable) or `@@[session.|global.]name` (system variable). */
export interface VariableExpr extends Span {
  readonly kind: 'variable';
  readonly system: boolean;
  readonly scope: 'session' | 'global' | null;
  readonly name: string;
}

export interface UnaryExpr extends Span {
  readonly kind: 'unary';
  readonly op: '-' | '+' | 'NOT' | '~';
  readonly operand: Expr;
}

export type { BinaryOp };

export interface BinaryExpr extends Span {
  readonly kind: 'binary';
  readonly op: BinaryOp;
  readonly left: Expr;
  readonly right: Expr;
}

export interface FunctionCallExpr extends Span {
  readonly kind: 'call';
  /** As written; the binder looks it up case-insensitively. */
  readonly name: string;
  readonly args: readonly Expr[];
  readonly distinct: boolean;
  /** ORDER BY inside the call (GROUP_CONCAT). */
  readonly orderBy?: readonly OrderByItem[];
  /** GROUP_CONCAT(... SEPARATOR 'x'). */
  readonly separator?: string;
  /** `OVER (...)`: a window function call (bind-window.ts). */
  readonly over?: WindowSpecAst;
}

/** `OVER ([PARTITION BY ...] [ORDER BY ...] [frame])` as written. */
export interface WindowSpecAst extends Span {
  readonly partitionBy: readonly Expr[];
  readonly orderBy: readonly OrderByItem[];
  readonly frame: WindowFrameAst | null;
}

/** `ROWS|RANGE BETWEEN start AND end`, or the single-bound form (`end` null: CURRENT ROW). */
export interface WindowFrameAst {
  readonly pos: number;
  readonly units: 'ROWS' | 'RANGE';
  readonly start: FrameBoundAst;
  readonly end: FrameBoundAst | null;
}

export interface FrameBoundAst extends Span {
  readonly kind: 'UNBOUNDED_PRECEDING' | 'PRECEDING' | 'CURRENT_ROW' | 'FOLLOWING' | 'UNBOUNDED_FOLLOWING';
  /** The `n` of `n PRECEDING` / `n FOLLOWING`. */
  readonly offset: Expr | null;
}

export interface CastExpr extends Span {
  readonly kind: 'cast';
  readonly operand: Expr;
  readonly targetType: DataType;
}

export interface CaseExpr extends Span {
  readonly kind: 'case';
  /** CASE operand WHEN ... (simple form); null for the searched form. */
  readonly operand: Expr | null;
  readonly whens: readonly { readonly when: Expr; readonly then: Expr }[];
  readonly elseExpr: Expr | null;
}

export interface InListExpr extends Span {
  readonly kind: 'in';
  readonly operand: Expr;
  readonly list: readonly Expr[];
  readonly negated: boolean;
}

export interface BetweenExpr extends Span {
  readonly kind: 'between';
  readonly operand: Expr;
  readonly low: Expr;
  readonly high: Expr;
  readonly negated: boolean;
}

export interface LikeExpr extends Span {
  readonly kind: 'like';
  readonly operand: Expr;
  readonly pattern: Expr;
  readonly negated: boolean;
  /** LIKE or REGEXP/RLIKE. */
  readonly regexp: boolean;
}

export interface IsNullExpr extends Span {
  readonly kind: 'isnull';
  readonly operand: Expr;
  readonly negated: boolean;
}

/** `INTERVAL expr unit`, only as an argument of date arithmetic (date_add, `d + INTERVAL 1 DAY`). */
export interface IntervalExpr extends Span {
  readonly kind: 'interval';
  readonly value: Expr;
  readonly unit: 'YEAR' | 'QUARTER' | 'MONTH' | 'WEEK' | 'DAY' | 'HOUR' | 'MINUTE' | 'SECOND' | 'MICROSECOND';
}

export interface SubqueryExpr extends Span {
  readonly kind: 'subquery';
  readonly query: QueryExpr;
}

export interface ExistsExpr extends Span {
  readonly kind: 'exists';
  readonly query: QueryExpr;
  readonly negated: boolean;
}

export interface InSubqueryExpr extends Span {
  readonly kind: 'insubquery';
  readonly operand: Expr;
  readonly query: QueryExpr;
  readonly negated: boolean;
}

/** `x -> body` or `(x, y) -> body`: only as an argument of an array higher-order function (array_map ...). */
export interface LambdaExpr extends Span {
  readonly kind: 'lambda';
  readonly params: readonly string[];
  readonly body: Expr;
}

// ---------------------------------------------------------------- queries

export interface SelectItem extends Span {
  readonly expr: Expr;
  readonly alias: string | null;
}

export interface OrderByItem extends Span {
  readonly expr: Expr;
  readonly direction: 'ASC' | 'DESC';
  /** null = default (Doris/MySQL: NULLs first for ASC, last for DESC). */
  readonly nulls: 'FIRST' | 'LAST' | null;
}

export type TableRef = BaseTableRef | SubqueryTableRef | JoinTableRef | TableFunctionRef | LateralViewRef;

export interface BaseTableRef extends Span {
  readonly kind: 'table';
  readonly database: string | null;
  readonly name: string;
  readonly alias: string | null;
  /** `t PARTITION (p, ...)`: only those partitions' rows. */
  readonly partitions?: readonly string[];
}

export interface SubqueryTableRef extends Span {
  readonly kind: 'subqueryTable';
  readonly query: QueryExpr;
  readonly alias: string;
}

export interface JoinTableRef extends Span {
  readonly kind: 'join';
  readonly joinType: JoinKeyword;
  readonly left: TableRef;
  readonly right: TableRef;
  /** ON condition; null for CROSS JOIN / comma joins. */
  readonly on: Expr | null;
  readonly using: readonly string[] | null;
  /** NATURAL JOIN: USING the columns both sides have (the binder finds them). */
  readonly natural?: boolean;
}

/** A join as written; the semi / anti forms are Doris's (`LEFT SEMI JOIN`). */
export type JoinKeyword = 'INNER' | 'LEFT' | 'RIGHT' | 'FULL' | 'CROSS' | 'LEFT SEMI' | 'RIGHT SEMI' | 'LEFT ANTI' | 'RIGHT ANTI';

/** A table-valued function in FROM: `binlog("db.tbl", 2, 5) [AS] alias` (constant arguments). */
export interface TableFunctionRef extends Span {
  readonly kind: 'tableFunction';
  readonly name: string;
  readonly args: readonly Expr[];
  readonly alias: string | null;
}

/**
 * `input LATERAL VIEW fn(args) alias AS c1[, c2 ...]` (Doris / Hive): each row of `input` joined with the
 * rows the table function generates from it; several LATERAL VIEWs nest, the first innermost.
 */
export interface LateralViewRef extends Span {
  readonly kind: 'lateralView';
  readonly input: TableRef;
  readonly fn: FunctionCallExpr;
  readonly alias: string;
  readonly columns: readonly string[];
}

export interface SelectQuery extends Span {
  readonly kind: 'select';
  readonly distinct: boolean;
  readonly items: readonly SelectItem[];
  /** null for SELECT without FROM. */
  readonly from: TableRef | null;
  readonly where: Expr | null;
  readonly groupBy: readonly Expr[];
  /**
   * GROUP BY GROUPING SETS / ROLLUP / CUBE / ... WITH ROLLUP: each grouping set as indices into
   * `groupBy` (which then lists every expression the sets name). Absent for a plain GROUP BY.
   */
  readonly groupingSets?: readonly (readonly number[])[];
  readonly having: Expr | null;
  readonly orderBy: readonly OrderByItem[];
  readonly limit: LimitClause | null;
}

/** LIMIT n [OFFSET m] / LIMIT m, n. Values are literals or `?` parameters. */
export interface LimitClause {
  readonly count: Expr;
  readonly offset: Expr | null;
}

export interface SetOperationQuery extends Span {
  readonly kind: 'setop';
  readonly op: 'UNION' | 'INTERSECT' | 'EXCEPT';
  readonly all: boolean;
  readonly left: QueryExpr;
  readonly right: QueryExpr;
  readonly orderBy: readonly OrderByItem[];
  readonly limit: LimitClause | null;
}

/** `VALUES (...), (...)` used as a query. */
export interface ValuesQuery extends Span {
  readonly kind: 'values';
  readonly rows: readonly (readonly Expr[])[];
  /**
   * The same rows in compact form, set by the parser when every cell of an INSERT's VALUES list is a
   * plain literal (the bulk-load shape): INSERT converts them straight from the text without building an
   * Expr per cell. `rows` is then materialized only when something reads it.
   */
  readonly literals?: LiteralRows;
}

/** What one cell of `LiteralRows` holds. */
export const enum LiteralCellKind {
  Null = 0,
  Default = 1,
  True = 2,
  False = 3,
  /** A number (with its `-` sign when negative); its text is the cell's span. */
  Integer = 4,
  Decimal = 5,
  Float = 6,
  /** A quoted string without escapes: its value is the span without the quotes. */
  String = 7,
  /** A quoted string with escapes or doubled quotes: its value is in `unescaped`. */
  EscapedString = 8,
}

/** A VALUES list of plain literals, `width` cells per row, row-major; spans are offsets into `sql`. */
export interface LiteralRows {
  readonly sql: string;
  readonly rowCount: number;
  readonly width: number;
  readonly kinds: Uint8Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** Cell index -> value, for EscapedString cells. */
  readonly unescaped: ReadonlyMap<number, string>;
}

/** One `name [(columns)] AS (query)` of a WITH clause. */
export interface CommonTableExpr extends Span {
  readonly name: string;
  /** Column labels renaming the first columns of the query's output; null when not written. */
  readonly columns: readonly string[] | null;
  readonly query: QueryExpr;
}

/** `WITH [RECURSIVE] c AS (...), ... body`; ORDER BY / LIMIT after the body belong to the body. */
export interface WithQuery extends Span {
  readonly kind: 'with';
  readonly recursive: boolean;
  readonly ctes: readonly CommonTableExpr[];
  readonly body: QueryExpr;
}

export type QueryExpr = SelectQuery | SetOperationQuery | ValuesQuery | WithQuery;

// ---------------------------------------------------------------- statements

export type Statement =
  | QueryStatement
  | ExplainStatement
  | InsertStatement
  | DeleteStatement
  | UpdateStatement
  | CreateDatabaseStatement
  | DropDatabaseStatement
  | UseStatement
  | CreateTableStatement
  | DropTableStatement
  | AlterTableStatement
  | TruncateTableStatement
  | ShowStatement
  | DescribeStatement
  | SetStatement
  | CreateUserStatement
  | DropUserStatement
  | SetPasswordStatement
  | TransactionStatement
  | PrepareStatement
  | ExecuteStatement
  | DeallocateStatement
  | KillStatement
  | SyncStatement
  | GrantStatement
  | CreateRoleStatement
  | DropRoleStatement
  | AlterUserStatement

  | LockTablesStatement
  | StatsStatement

  | AdminSetConfigStatement
  | CancelLoadStatement
  | HelpStatement
  | BuildIndexStatement
  | CancelBuildIndexStatement
  | StorageVaultStatement
  | AlterSystemStatement
  | SetPropertyStatement
  | ViewStatement;

/** A column label of CREATE VIEW v (a COMMENT '...', b). */
export interface ViewColumnDef {
  readonly name: string;
  readonly comment: string;
}

/** CREATE [OR REPLACE] VIEW, ALTER VIEW, DROP VIEW (parse-view.ts). */
export interface ViewStatement extends Span {
  readonly kind: 'view';
  readonly action: 'create' | 'alter' | 'drop';
  readonly database: string | null;
  readonly name: string;
  readonly orReplace: boolean;
  readonly ifNotExists: boolean;
  readonly ifExists: boolean;
  readonly columns: readonly ViewColumnDef[] | null;
  readonly comment: string | null;
  /** The view's query (null for DROP) and its text as written (the stored definition). */
  readonly query: QueryExpr | null;
  readonly definition: string | null;
}

export interface QueryStatement extends Span {
  readonly kind: 'query';
  readonly query: QueryExpr;
}

export interface ExplainStatement extends Span {
  readonly kind: 'explain';
  readonly level: 'NORMAL' | 'VERBOSE' | 'ANALYZE';
  readonly statement: Statement;
}

export interface InsertStatement extends Span {
  readonly kind: 'insert';
  readonly database: string | null;
  readonly table: string;
  /** Target column names; null = all columns in table order. */
  readonly columns: readonly string[] | null;
  /** VALUES rows or a query. An element of a VALUES row may be the DEFAULT keyword (DefaultExpr). */
  readonly source: QueryExpr;
  readonly label: string | null;
  readonly overwrite: boolean;
  /** PARTITION (p, ...): the partitions the rows must go to (OVERWRITE: the ones replaced); '*': OVERWRITE those the rows go to. */
  readonly partitions?: readonly string[] | '*';
}

/** The DEFAULT keyword inside INSERT ... VALUES. */
export interface DefaultExpr extends Span {
  readonly kind: 'default';
}

export interface DeleteStatement extends Span {
  readonly kind: 'delete';
  readonly database: string | null;
  readonly table: string;
  readonly where: Expr | null;
}

export interface UpdateStatement extends Span {
  readonly kind: 'update';
  readonly database: string | null;
  readonly table: string;
  readonly assignments: readonly { readonly column: string; readonly value: Expr }[];
  readonly where: Expr | null;
}

export interface CreateDatabaseStatement extends Span {
  readonly kind: 'createDatabase';
  readonly name: string;
  readonly ifNotExists: boolean;
  readonly properties: Readonly<Record<string, string>>;
}

export interface DropDatabaseStatement extends Span {
  readonly kind: 'dropDatabase';
  readonly name: string;
  readonly ifExists: boolean;
  readonly force: boolean;
}

export interface UseStatement extends Span {
  readonly kind: 'use';
  readonly database: string | null;
  /** `USE db@cg` / `USE @cg`. */
  readonly computeGroup: string | null;
}

export interface ColumnDef extends Span {
  readonly name: string;
  readonly type: DataType;
  readonly nullable: boolean;
  /** DEFAULT value as a literal expression (or CURRENT_TIMESTAMP call); undefined = no DEFAULT clause. */
  readonly defaultValue?: Expr;
  readonly comment: string | null;
  /** AGGREGATE KEY value columns: SUM, MIN, MAX, REPLACE, REPLACE_IF_NOT_NULL, ... */
  readonly aggregation: string | null;
  /** AUTO_INCREMENT[(start)]: the first value generated (1 without a start); null = not auto-increment. */
  readonly autoIncrement: number | null;
  /** `ON UPDATE CURRENT_TIMESTAMP`: a partial update or UPDATE that does not set the column sets it to now. */
  readonly onUpdateCurrentTimestamp?: boolean;
  /** `[GENERATED ALWAYS] AS (expr)`: a generated column, its expression and that expression's text. */
  readonly generated?: { readonly expr: Expr; readonly text: string };
}

/** An index declared inside CREATE TABLE: `INDEX idx (col) USING INVERTED|ANN PROPERTIES(...)`. */
export interface IndexDef extends Span {
  readonly name: string;
  readonly columns: readonly string[];
  readonly indexType: string;
  readonly properties: Readonly<Record<string, string>>;
  readonly comment: string | null;
}

export interface CreateTableStatement extends Span {
  readonly kind: 'createTable';
  readonly database: string | null;
  readonly name: string;
  readonly ifNotExists: boolean;
  readonly columns: readonly ColumnDef[];
  readonly indexes: readonly IndexDef[];
  readonly keysType: 'DUPLICATE' | 'UNIQUE' | 'AGGREGATE' | null;
  readonly keys: readonly string[];
  readonly comment: string | null;
  /** PARTITION BY clause as source text (SHOW CREATE TABLE of CTAS and tools read it). */
  readonly partitionBy: string | null;
  /** PARTITION BY clause parsed (absent or null: unpartitioned). */
  readonly partition?: PartitionDesc | null;
  readonly distribution: { readonly type: 'HASH' | 'RANDOM'; readonly columns: readonly string[]; readonly buckets: number | 'AUTO' } | null;
  readonly properties: Readonly<Record<string, string>>;
  readonly engine: string | null;
  /** CREATE TABLE ... AS SELECT. */
  readonly asQuery: QueryExpr | null;
  /** CREATE TABLE t LIKE other. */
  readonly like: { readonly database: string | null; readonly name: string } | null;
}

/** One value of a partition definition as written: a literal's text, NULL, MAXVALUE or MINVALUE. */
export type PartitionValueDef = { readonly kind: 'value'; readonly text: string } | { readonly kind: 'null' } | { readonly kind: 'max' } | { readonly kind: 'min' };

/**
 * One entry of a PARTITION BY list: `PARTITION p VALUES LESS THAN (...)|MAXVALUE`, the fixed range
 * `VALUES [(...), (...))`, the batch `FROM (...) TO (...) INTERVAL n [unit]`, or LIST's `VALUES IN (...)`.
 */
export type PartitionItemDef =
  | { readonly kind: 'lessThan'; readonly name: string; readonly upper: readonly PartitionValueDef[] }
  | { readonly kind: 'fixedRange'; readonly name: string; readonly lower: readonly PartitionValueDef[]; readonly upper: readonly PartitionValueDef[] }
  | { readonly kind: 'in'; readonly name: string; readonly values: readonly (readonly PartitionValueDef[])[] }
  | { readonly kind: 'batch'; readonly from: readonly PartitionValueDef[]; readonly to: readonly PartitionValueDef[]; readonly interval: number; readonly unit: string | null };

/** `[AUTO] PARTITION BY RANGE|LIST (cols | date_trunc(col, 'unit')) (items)`. */
export interface PartitionDesc {
  readonly type: 'RANGE' | 'LIST';
  readonly auto: boolean;
  readonly columns: readonly string[];
  /** AUTO PARTITION BY RANGE (date_trunc(col, 'unit')): the unit, lower case; null otherwise. */
  readonly autoUnit: string | null;
  readonly items: readonly PartitionItemDef[];
}

export interface DropTableStatement extends Span {
  readonly kind: 'dropTable';
  readonly database: string | null;
  readonly name: string;
  readonly ifExists: boolean;
  readonly force: boolean;
}

export type AlterTableAction =
  | { readonly kind: 'setProperties'; readonly properties: Readonly<Record<string, string>> }
  | { readonly kind: 'addColumn'; readonly column: ColumnDef; readonly after: string | null }
  | { readonly kind: 'dropColumn'; readonly name: string }
  | { readonly kind: 'modifyColumn'; readonly column: ColumnDef }
  | { readonly kind: 'renameTable'; readonly newName: string }
  | { readonly kind: 'addIndex'; readonly index: IndexDef }
  | { readonly kind: 'dropIndex'; readonly name: string }
  /** `ADD PARTITION [IF NOT EXISTS] p VALUES ... [DISTRIBUTED BY ... BUCKETS n]`. */
  | { readonly kind: 'addPartition'; readonly item: PartitionItemDef; readonly ifNotExists: boolean; readonly buckets: number | null }
  /** `DROP PARTITION [IF EXISTS] p [FORCE]`. */
  | { readonly kind: 'dropPartition'; readonly name: string; readonly ifExists: boolean }
  /** `DISABLE KEYS` / `ENABLE KEYS` (mysqldump): MySQL defers non-unique index upkeep; accepted with a Note. */
  | { readonly kind: 'keys'; readonly enable: boolean };

export interface AlterTableStatement extends Span {
  readonly kind: 'alterTable';
  readonly database: string | null;
  readonly name: string;
  readonly actions: readonly AlterTableAction[];
}

export interface TruncateTableStatement extends Span {
  readonly kind: 'truncateTable';
  readonly database: string | null;
  readonly name: string;
  /** TRUNCATE TABLE t PARTITION (p1, p2): only these partitions (absent: the whole table). */
  readonly partitions?: readonly string[];
}

/**
 * SHOW statements. `what` names the object kind in lower case with spaces as written after SHOW
 * ('databases', 'tables', 'create table', 'variables', 'query profile', 'columns', 'load',
 * 'transaction', 'processlist', 'warnings', 'errors', 'status', 'table status', 'index', 'functions',
 * 'tablets', 'backends', 'frontends', 'create database', 'grants', 'engines', 'charset', 'collation',
 * 'proc', 'data', 'partitions', 'property', 'compute groups'...). Options hold the rest.
 */
export interface ShowStatement extends Span {
  readonly kind: 'show';
  readonly what: string;
  readonly full: boolean;
  readonly global: boolean;
  /** SHOW CREATE TABLE x / SHOW COLUMNS FROM x / SHOW QUERY PROFILE "/id": the object named. */
  readonly target: { readonly database: string | null; readonly name: string } | null;
  /** FROM/IN db (SHOW TABLES FROM db). */
  readonly database: string | null;
  readonly like: string | null;
  readonly where: Expr | null;
  /** A string argument (SHOW QUERY PROFILE '/queryId', SHOW PROC '/path'). */
  readonly path: string | null;
  readonly limit: LimitClause | null;
  /** SHOW GRANTS FOR 'u'@'h'. */
  readonly forUser?: UserIdentity | null;
  /** SHOW LOAD / SHOW DATA / SHOW STREAM LOAD ... ORDER BY col [ASC|DESC], ... */
  readonly orderBy?: readonly OrderByItem[];
  /** SHOW TABLETS FROM t PARTITION (p, ...): the partitions named. */
  readonly partitions?: readonly string[];
}

export interface DescribeStatement extends Span {
  readonly kind: 'describe';
  readonly database: string | null;
  readonly table: string;
  readonly all: boolean;
  /** DESC FUNCTION s3(...): the call's text (table-valued function), described as its result columns. */
  readonly functionSql?: string;
}

export interface SetAssignment {
  /** 'session' | 'global' for system variables, 'user' for @var, 'names' for SET NAMES, 'password' not here. */
  readonly scope: 'session' | 'global' | 'user' | 'names' | 'charset';
  readonly name: string;
  /** null for SET NAMES DEFAULT. */
  readonly value: Expr | null;
}

export interface SetStatement extends Span {
  readonly kind: 'set';
  readonly assignments: readonly SetAssignment[];
}

export interface UserIdentity {
  readonly user: string;
  readonly host: string;
}

export interface CreateUserStatement extends Span {
  readonly kind: 'createUser';
  readonly user: UserIdentity;
  readonly password: string | null;
  readonly ifNotExists: boolean;
  /** DEFAULT ROLE 'r': the role the new user holds. */
  readonly defaultRole: string | null;
  readonly passwordOptions: PasswordOptions;
}

export interface DropUserStatement extends Span {
  readonly kind: 'dropUser';
  readonly user: UserIdentity;
  readonly ifExists: boolean;
}

export interface SetPasswordStatement extends Span {
  readonly kind: 'setPassword';
  /** null = the current user. */
  readonly user: UserIdentity | null;
  readonly password: string;
  /** `= '*HEX'` (the stored form) rather than `= PASSWORD('clear')`. */
  readonly hashed: boolean;
}

export interface TransactionStatement extends Span {
  readonly kind: 'transaction';
  readonly action: 'BEGIN' | 'COMMIT' | 'ROLLBACK';
  readonly label: string | null;
}

export interface PrepareStatement extends Span {
  readonly kind: 'prepare';
  readonly name: string;
  /** The statement text (string literal or @variable holding it). */
  readonly source: Expr;
}

export interface ExecuteStatement extends Span {
  readonly kind: 'execute';
  readonly name: string;
  readonly using: readonly Expr[];
}

export interface DeallocateStatement extends Span {
  readonly kind: 'deallocate';
  readonly name: string;
}

/** Doris `SYNC`: wait until this FE's metadata has caught up with the master (one FE here: at once). */
export interface SyncStatement extends Span {
  readonly kind: 'sync';
}

export interface KillStatement extends Span {
  readonly kind: 'kill';
  readonly target: 'CONNECTION' | 'QUERY';
  readonly id: number;
}

/**
 * Doris's password options of CREATE USER / ALTER USER; a field left out is unchanged. Seconds: 0 is
 * never / disabled, -1 DEFAULT (the global default_password_lifetime) for expiry and UNBOUNDED for the lock.
 */
export interface PasswordOptions {
  readonly expireSeconds?: number;
  readonly failedLoginAttempts?: number;
  readonly lockSeconds?: number;
  readonly accountUnlock?: boolean;
}

/** A GRANT / REVOKE target: `ctl.db.tbl` with `*` wildcards (`db.tbl` means catalog internal), or a named resource. */
export type PrivilegeTarget =
  | { readonly kind: 'table'; readonly catalog: string; readonly database: string; readonly table: string }
  | { readonly kind: 'resource'; readonly resourceType: 'COMPUTE GROUP' | 'RESOURCE' | 'WORKLOAD GROUP' | 'STORAGE VAULT'; readonly name: string };

/** The grantee of GRANT / REVOKE: an account or ROLE 'r'. */
export type Grantee = { readonly kind: 'user'; readonly user: UserIdentity } | { readonly kind: 'role'; readonly role: string };

/**
 * `GRANT privs ON target TO grantee`, `GRANT 'role', ... TO user` and the REVOKE ... FROM forms.
 * Privileges are Doris's names (SELECT_PRIV, ...), the MySQL spellings already mapped.
 */
export interface GrantStatement extends Span {
  readonly kind: 'grant';
  readonly revoke: boolean;
  readonly privileges: readonly string[];
  readonly target: PrivilegeTarget | null;
  /** The roles of `GRANT 'r' TO u` (then privileges is empty and target null). */
  readonly roles: readonly string[];
  readonly grantee: Grantee;
}

export interface CreateRoleStatement extends Span {
  readonly kind: 'createRole';
  readonly role: string;
  readonly ifNotExists: boolean;
  readonly comment: string;
}

export interface DropRoleStatement extends Span {
  readonly kind: 'dropRole';
  readonly role: string;
  readonly ifExists: boolean;
}

/** `ALTER USER u [IDENTIFIED BY 'p'] [password options]`. */
export interface AlterUserStatement extends Span {
  readonly kind: 'alterUser';
  readonly user: UserIdentity;
  readonly ifExists: boolean;
  readonly password: string | null;
  readonly passwordOptions: PasswordOptions;
}

/**
 * `LOCK TABLES ...` / `UNLOCK TABLES` (sent by mysqldump and mariadb-dump). Accepted as in Doris, which
 * parses them for MySQL compatibility and takes no lock; Galene adds a Note saying so.
 */
export interface LockTablesStatement extends Span {
  readonly kind: 'lockTables';
  readonly action: 'LOCK' | 'UNLOCK';
  /** The tables to lock (empty for UNLOCK). */
  readonly tables: readonly { readonly database: string | null; readonly name: string; readonly mode: 'READ' | 'WRITE' }[];
}

/** `ADMIN SET FRONTEND|BACKEND CONFIG ("key" = "value") [ALL]` (parse-admin.ts). */
export interface AdminSetConfigStatement extends Span {
  readonly kind: 'adminSetConfig';
  readonly node: 'FRONTEND' | 'BACKEND';
  readonly configs: Readonly<Record<string, string>>;
}

/** `CANCEL LOAD [FROM db] WHERE LABEL = 'l' | LABEL LIKE 'p' | STATE = 's' [AND|OR ...]`. */
export interface CancelLoadStatement extends Span {
  readonly kind: 'cancelLoad';
  readonly database: string | null;
  readonly where: Expr;
}

/** `HELP 'topic'` (MySQL's server-side help). */
export interface HelpStatement extends Span {
  readonly kind: 'help';
  readonly topic: string;
}

/** `BUILD INDEX idx ON [db.]t`: build an index's files for the segments that lack them (asynchronous). */
export interface BuildIndexStatement extends Span {
  readonly kind: 'buildIndex';
  readonly index: string;
  readonly database: string | null;
  readonly table: string;
}

/** `CANCEL BUILD INDEX ON [db.]t`: stop the table's waiting and running index build jobs. */
export interface CancelBuildIndexStatement extends Span {
  readonly kind: 'cancelBuildIndex';
  readonly database: string | null;
  readonly table: string;
}

/**
 * Storage vault DDL (Doris): CREATE STORAGE VAULT [IF NOT EXISTS] v PROPERTIES (...), ALTER STORAGE VAULT v
 * PROPERTIES (...), SET v AS DEFAULT STORAGE VAULT, UNSET DEFAULT STORAGE VAULT.
 */
export type StorageVaultAction =
  | { readonly op: 'create'; readonly name: string; readonly ifNotExists: boolean; readonly properties: Readonly<Record<string, string>> }
  | { readonly op: 'alter'; readonly name: string; readonly properties: Readonly<Record<string, string>> }
  | { readonly op: 'setDefault'; readonly name: string }
  | { readonly op: 'unsetDefault' };

/**
 * Cluster membership (parse-alter-system.ts): `ALTER SYSTEM ADD|DROP|DECOMMISSION BACKEND 'host:port'
 * [, ...] [PROPERTIES (...)]`, `ALTER SYSTEM RENAME COMPUTE GROUP old new`.
 */
export type AlterSystemAction =
  | { readonly op: 'addBackend' | 'dropBackend' | 'decommissionBackend'; readonly endpoints: readonly string[]; readonly properties: Readonly<Record<string, string>> }
  | { readonly op: 'renameComputeGroup'; readonly oldName: string; readonly newName: string };

/** `SET PROPERTY [FOR 'user'] 'key' = 'value' [, ...]` (Doris user properties). */
export interface SetPropertyStatement extends Span {
  readonly kind: 'setProperty';
  readonly user: string | null;
  readonly properties: readonly (readonly [string, string])[];
}

export interface AlterSystemStatement extends Span {
  readonly kind: 'alterSystem';
  readonly action: AlterSystemAction;
}

export interface StorageVaultStatement extends Span {
  readonly kind: 'storageVault';
  readonly action: StorageVaultAction;
}

/**
 * Statistics statements (parse-stats.ts): `ANALYZE TABLE t [(cols)] [WITH SYNC]`, `SHOW COLUMN STATS t
 * [(cols)]`, `SHOW TABLE STATS t`, `DROP STATS t [(cols)]`. `columns` is null when none are named.
 */
export interface StatsStatement extends Span {
  readonly kind: 'stats';
  readonly action: 'analyze' | 'showColumnStats' | 'showTableStats' | 'dropStats';
  readonly database: string | null;
  readonly table: string;
  readonly columns: readonly string[] | null;
  readonly sync: boolean;
}
