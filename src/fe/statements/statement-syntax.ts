/**
 * The statement registry HELP answers from: each statement Galene runs, by its name, with its syntax
 * lines (as docs/sql-reference.md writes them) — data, no prose. HELP 'topic' for a function answers from
 * the function registry (src/exec/expr).
 */

export interface StatementSyntax {
  /** The topic name, upper case as MySQL's help tables write them (`SHOW LOAD`). */
  readonly name: string;
  readonly category: 'Data Definition' | 'Data Manipulation' | 'Administration' | 'Account Management' | 'Transactions' | 'Utility';
  readonly syntax: readonly string[];
}

const s = (name: string, category: StatementSyntax['category'], ...syntax: string[]): StatementSyntax => ({ name, category, syntax });

export const STATEMENT_SYNTAX: readonly StatementSyntax[] = [
  s('SELECT', 'Data Manipulation', 'SELECT [DISTINCT] select_expr, ... [FROM table_references] [WHERE cond] [GROUP BY ...] [HAVING cond] [ORDER BY ...] [LIMIT [offset,] n]'),
  s('INSERT', 'Data Manipulation', 'INSERT INTO [db.]tbl [WITH LABEL label] [(col, ...)] VALUES (...), ... | SELECT ...', 'INSERT OVERWRITE TABLE [db.]tbl SELECT ...'),
  s('DELETE', 'Data Manipulation', 'DELETE FROM [db.]tbl [PARTITION p] WHERE cond'),
  s('UPDATE', 'Data Manipulation', 'UPDATE [db.]tbl SET col = expr, ... [WHERE cond]'),
  s('CREATE DATABASE', 'Data Definition', 'CREATE DATABASE [IF NOT EXISTS] db [PROPERTIES ("k" = "v", ...)]'),
  s('DROP DATABASE', 'Data Definition', 'DROP DATABASE [IF EXISTS] db [FORCE]'),
  s('CREATE TABLE', 'Data Definition', 'CREATE TABLE [IF NOT EXISTS] [db.]tbl (col type [KEY] [agg] [NULL|NOT NULL] [DEFAULT v] [COMMENT c], ..., [INDEX i (col) USING INVERTED|ANN ...])', '  [DUPLICATE|UNIQUE|AGGREGATE KEY (cols)] [COMMENT c] [PARTITION BY ...] [DISTRIBUTED BY HASH(cols)|RANDOM [BUCKETS n|AUTO]] [PROPERTIES (...)]', 'CREATE TABLE [db.]tbl LIKE [db.]other', 'CREATE TABLE [db.]tbl [PROPERTIES (...)] AS SELECT ...'),
  s('DROP TABLE', 'Data Definition', 'DROP TABLE [IF EXISTS] [db.]tbl [FORCE]'),
  s('ALTER TABLE', 'Data Definition', 'ALTER TABLE [db.]tbl ADD COLUMN col type ... | DROP COLUMN col | MODIFY COLUMN col type ... | ADD INDEX ... | DROP INDEX i | SET ("k" = "v") | RENAME new_name'),
  s('TRUNCATE TABLE', 'Data Definition', 'TRUNCATE TABLE [db.]tbl'),
  s('CREATE INDEX', 'Data Definition', 'CREATE INDEX [IF NOT EXISTS] i ON [db.]tbl (col) USING INVERTED|ANN [PROPERTIES (...)] [COMMENT c]'),
  s('BUILD INDEX', 'Data Definition', 'BUILD INDEX i ON [db.]tbl', 'CANCEL BUILD INDEX ON [db.]tbl', 'SHOW BUILD INDEX [FROM db] [WHERE TableName = "t"] [ORDER BY col [ASC|DESC], ...] [LIMIT n]'),
  s('USE', 'Utility', 'USE db | USE db@compute_group | USE @compute_group'),
  s('DESCRIBE', 'Utility', 'DESC[RIBE] [db.]tbl [ALL]'),
  s('EXPLAIN', 'Utility', 'EXPLAIN [VERBOSE|ANALYZE] statement'),
  s('HELP', 'Utility', "HELP 'topic' | HELP 'contents' | HELP 'category'"),
  s('SET', 'Utility', 'SET [GLOBAL|SESSION] var = expr, ... | SET @user_var = expr | SET NAMES charset [COLLATE c]'),
  s('SET PASSWORD', 'Account Management', "SET PASSWORD [FOR 'user'@'host'] = PASSWORD('pw') | 'hash'"),
  s('CREATE USER', 'Account Management', "CREATE USER [IF NOT EXISTS] 'user'@'host' [IDENTIFIED BY 'pw']"),
  s('DROP USER', 'Account Management', "DROP USER [IF EXISTS] 'user'@'host'"),
  s('BEGIN', 'Transactions', 'BEGIN [WITH LABEL label]', 'COMMIT', 'ROLLBACK'),
  s('PREPARE', 'Utility', "PREPARE name FROM 'text' | @var", 'EXECUTE name [USING @a, ...]', 'DEALLOCATE PREPARE name'),
  s('KILL', 'Administration', 'KILL [CONNECTION | QUERY] connection_id'),
  s('SYNC', 'Administration', 'SYNC'),
  s('ADMIN SET FRONTEND CONFIG', 'Administration', 'ADMIN SET FRONTEND CONFIG ("key" = "value") [ALL]'),
  s('ADMIN SHOW FRONTEND CONFIG', 'Administration', "[ADMIN] SHOW FRONTEND CONFIG [LIKE 'pattern']"),
  s('SHOW BACKEND CONFIG', 'Administration', "SHOW BACKEND CONFIG [LIKE 'pattern']"),
  s('CANCEL LOAD', 'Data Manipulation', "CANCEL LOAD [FROM db] WHERE LABEL = 'label' | LABEL LIKE 'pattern' | STATE = 'LOADING'"),
  s('SHOW LOAD', 'Data Manipulation', "SHOW LOAD [FROM db] [WHERE LABEL = 'l' | LABEL LIKE 'p' | STATE = 's'] [ORDER BY col [ASC|DESC], ...] [LIMIT [offset,] n]"),
  s('SHOW STREAM LOAD', 'Data Manipulation', "SHOW STREAM LOAD [FROM db] [WHERE Label = 'l' | Status = 'Success'|'Fail'] [ORDER BY ...] [LIMIT n]"),
  s('SHOW TRANSACTION', 'Data Manipulation', "SHOW TRANSACTION [FROM db] WHERE ID = n | LABEL = 'l'"),
  s('SHOW DATA', 'Administration', 'SHOW DATA [FROM [db.]tbl] [ORDER BY col [ASC|DESC], ...]'),
  s('SHOW PROC', 'Administration', "SHOW PROC '/path' (/, /backends, /frontends, /dbs, /dbs/<db_id>, /transactions/<db_id>, /jobs/<db_id>, /current_queries, /statistic, /stream_loads, /catalogs)"),
  s('SHOW CATALOGS', 'Administration', 'SHOW CATALOGS'),
  s('SHOW BACKENDS', 'Administration', 'SHOW BACKENDS'),
  s('SHOW COMPUTE GROUPS', 'Administration', 'SHOW COMPUTE GROUPS'),
  s('ALTER SYSTEM', 'Administration', "ALTER SYSTEM ADD BACKEND 'host:heartbeat_port' [, ...] [PROPERTIES (\"tag.compute_group_name\" = \"g\")] | ALTER SYSTEM DROP BACKEND 'host:port' [, ...] | ALTER SYSTEM DECOMMISSION BACKEND 'host:port' [, ...] | ALTER SYSTEM RENAME COMPUTE GROUP old new"),
  s('SHOW FRONTENDS', 'Administration', 'SHOW FRONTENDS'),
  s('SHOW PROCESSLIST', 'Administration', 'SHOW [FULL] PROCESSLIST'),
  s('SHOW VARIABLES', 'Administration', "SHOW [GLOBAL|SESSION] VARIABLES [LIKE 'pattern' | WHERE cond]"),
  s('SHOW DATABASES', 'Utility', "SHOW DATABASES [LIKE 'pattern' | WHERE cond]"),
  s('SHOW TABLES', 'Utility', "SHOW [FULL] TABLES [FROM db] [LIKE 'pattern' | WHERE cond]"),
  s('SHOW CREATE TABLE', 'Utility', 'SHOW CREATE TABLE [db.]tbl'),
  s('SHOW COLUMNS', 'Utility', "SHOW [FULL] COLUMNS FROM [db.]tbl [LIKE 'pattern']"),
  s('SHOW INDEX', 'Utility', 'SHOW INDEX FROM [db.]tbl'),
  s('SHOW TABLE STATUS', 'Utility', "SHOW TABLE STATUS [FROM db] [LIKE 'pattern']"),
  s('SHOW TABLETS', 'Administration', 'SHOW TABLETS FROM [db.]tbl'),
  s('SHOW FUNCTIONS', 'Utility', "SHOW [BUILTIN] FUNCTIONS [LIKE 'pattern']"),
  s('SHOW QUERY PROFILE', 'Administration', "SHOW QUERY PROFILE ['/query_id']"),
  s('SHOW WARNINGS', 'Utility', 'SHOW WARNINGS [LIMIT n]'),
];
