/**
 * Statement grammar: a table of SQL texts and the AST fragment each must produce, one or more per
 * statement kind of ast.ts, plus the multi-statement entry point and data types.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GaleneError } from '../../src/common/errors';
import { typeToSql } from '../../src/common/types';
import { parseDataType, parseStatement, parseStatements } from '../../src/sql/parser';
import { splitStatements } from '../../src/sql/split-statements';
import { assertFragment, bin, call, col, int, str } from './ast-match';

const table = (name: string, database: string | null = null, alias: string | null = null) => ({ kind: 'table', name, database, alias });

const cases: [string, unknown][] = [
  // ---------------------------------------------------------------- queries
  ['SELECT 1', { kind: 'query', query: { kind: 'select', items: [{ expr: int('1'), alias: null }], from: null, where: null } }],
  ['SELECT DISTINCT a AS x, b y, c \'z\', t.*, * FROM db.t1 AS t', { query: {
    distinct: true,
    items: [{ expr: col('a'), alias: 'x' }, { expr: col('b'), alias: 'y' }, { expr: col('c'), alias: 'z' },
      { expr: { kind: 'star', qualifier: ['t'] }, alias: null }, { expr: { kind: 'star', qualifier: [] }, alias: null }],
    from: table('t1', 'db', 't'),
  } }],
  ['SELECT a FROM t1, t2 x JOIN t3 ON x.id = t3.id', { query: { from: {
    kind: 'join', joinType: 'CROSS', on: null, left: table('t1'),
    right: { kind: 'join', joinType: 'INNER', left: table('t2', null, 'x'), right: table('t3'), on: bin('=', col('id', 'x'), col('id', 't3')) },
  } } }],
  ['SELECT * FROM a LEFT OUTER JOIN b USING (id, k) RIGHT JOIN c ON true FULL JOIN d ON 1 CROSS JOIN e INNER JOIN f ON 2 JOIN g', { query: { from: {
    joinType: 'CROSS', right: table('g'),
    left: { joinType: 'INNER', right: table('f'), left: { joinType: 'CROSS', on: null, right: table('e'),
      left: { joinType: 'FULL', left: { joinType: 'RIGHT', left: { joinType: 'LEFT', using: ['id', 'k'], on: null } } } } },
  } } }],
  ['SELECT * FROM a LEFT SEMI JOIN b ON true RIGHT ANTI JOIN c USING (k) NATURAL LEFT JOIN d', { query: { from: {
    joinType: 'LEFT', natural: true, using: null, on: null, right: table('d'),
    left: { joinType: 'RIGHT ANTI', using: ['k'], right: table('c'), left: { joinType: 'LEFT SEMI', left: table('a'), right: table('b') } },
  } } }],
  ['SELECT * FROM (SELECT a FROM t) AS s, (SELECT 1) u, (SELECT 2)', { query: { from: {
    joinType: 'CROSS',
    left: { joinType: 'CROSS', left: { kind: 'subqueryTable', alias: 's' }, right: { kind: 'subqueryTable', alias: 'u' } },
    right: { kind: 'subqueryTable', alias: '__subquery_1' },
  } } }],
  ['SELECT * FROM (t1 JOIN t2 ON t1.a = t2.a)', { query: { from: { kind: 'join', joinType: 'INNER' } } }],
  ['SELECT a, count(*) FROM t WHERE b > 1 GROUP BY a HAVING count(*) > 2 ORDER BY 2 DESC, a NULLS FIRST LIMIT 5, 10', { query: {
    where: bin('>', col('b'), int('1')), groupBy: [col('a')], having: { kind: 'binary', op: '>' },
    orderBy: [{ expr: int('2'), direction: 'DESC', nulls: null }, { expr: col('a'), direction: 'ASC', nulls: 'FIRST' }],
    limit: { count: int('10'), offset: int('5') },
  } }],
  ['SELECT a FROM t LIMIT 3 OFFSET 4', { query: { limit: { count: int('3'), offset: int('4') } } }],
  ['SELECT 1 FROM DUAL', { query: { from: null } }],
  ['SELECT a FROM t1 UNION ALL SELECT b FROM t2 UNION SELECT c FROM t3 ORDER BY 1 LIMIT 2', { query: {
    kind: 'setop', op: 'UNION', all: false, orderBy: [{ expr: int('1') }], limit: { count: int('2') },
    left: { kind: 'setop', op: 'UNION', all: true, orderBy: [], limit: null }, right: { kind: 'select', orderBy: [], limit: null },
  } }],
  ['SELECT 1 UNION SELECT 2 INTERSECT SELECT 3', { query: { op: 'UNION', right: { kind: 'setop', op: 'INTERSECT' } } }],
  ['SELECT 1 EXCEPT SELECT 2 MINUS SELECT 3', { query: { op: 'EXCEPT', left: { op: 'EXCEPT' } } }],
  ['(SELECT a FROM t ORDER BY a LIMIT 1) UNION DISTINCT (SELECT b FROM u)', { query: {
    kind: 'setop', all: false, left: { kind: 'select', limit: { count: int('1') } }, limit: null,
  } }],
  ['(SELECT a FROM t) ORDER BY a', { query: { kind: 'select', orderBy: [{ expr: col('a') }] } }],
  ['VALUES (1, \'a\'), (2, \'b\')', { query: { kind: 'values', rows: [[int('1'), str('a')], [int('2'), str('b')]] } }],
  ['SELECT `from`, `select` FROM `group`', { query: { items: [{ expr: col('from') }, { expr: col('select') }], from: table('group') } }],
  ['SELECT status, comment, date, type, name, value FROM t', { query: { items: [{ expr: col('status') }, { expr: col('comment') },
    { expr: col('date') }, { expr: col('type') }, { expr: col('name') }, { expr: col('value') }] } }],
  // ---------------------------------------------------------------- explain / describe
  ['EXPLAIN SELECT 1', { kind: 'explain', level: 'NORMAL', statement: { kind: 'query' } }],
  ['EXPLAIN VERBOSE SELECT 1', { kind: 'explain', level: 'VERBOSE' }],
  ['EXPLAIN ANALYZE INSERT INTO t VALUES (1)', { kind: 'explain', level: 'ANALYZE', statement: { kind: 'insert' } }],
  ['DESC SELECT 1', { kind: 'explain', level: 'NORMAL' }],
  ['DESC db.t', { kind: 'describe', database: 'db', table: 't', all: false }],
  ['DESCRIBE t ALL', { kind: 'describe', database: null, table: 't', all: true }],
  // ---------------------------------------------------------------- DML
  ['INSERT INTO db.t (a, b) VALUES (1, DEFAULT), (?, ?)', { kind: 'insert', database: 'db', table: 't', columns: ['a', 'b'], overwrite: false, label: null,
    source: { kind: 'values', rows: [[int('1'), { kind: 'default' }], [{ kind: 'param', index: 0 }, { kind: 'param', index: 1 }]] } }],
  ['INSERT INTO t PARTITION (p1, p2) WITH LABEL my_label (a) VALUES (1)', { kind: 'insert', label: 'my_label', columns: ['a'] }],
  ['INSERT INTO t WITH LABEL \'l-1\' VALUES (1 + 100)', { label: 'l-1', columns: null, source: { rows: [[bin('+', int('1'), int('100'))]] } }],
  ['INSERT INTO t SELECT * FROM u', { source: { kind: 'select', from: table('u') } }],
  ['INSERT INTO t (SELECT * FROM u)', { columns: null, source: { kind: 'select' } }],
  ['INSERT INTO t VALUES ()', { source: { rows: [[]] } }],
  ['INSERT OVERWRITE TABLE t SELECT 1', { kind: 'insert', overwrite: true }],
  ['DELETE FROM t WHERE id = 1', { kind: 'delete', database: null, table: 't', where: bin('=', col('id'), int('1')) }],
  ['DELETE FROM db.t', { kind: 'delete', database: 'db', where: null }],
  ['UPDATE t SET a = a + 1, t.b = \'x\' WHERE c IS NULL', { kind: 'update', table: 't',
    assignments: [{ column: 'a', value: bin('+', col('a'), int('1')) }, { column: 'b', value: str('x') }], where: { kind: 'isnull' } }],
  // ---------------------------------------------------------------- databases, USE
  ['CREATE DATABASE IF NOT EXISTS d PROPERTIES ("replication_num" = \'1\')', { kind: 'createDatabase', name: 'd', ifNotExists: true, properties: { replication_num: '1' } }],
  ['CREATE SCHEMA d', { kind: 'createDatabase', ifNotExists: false, properties: {} }],
  ['DROP DATABASE IF EXISTS d FORCE', { kind: 'dropDatabase', name: 'd', ifExists: true, force: true }],
  ['DROP SCHEMA d', { kind: 'dropDatabase', ifExists: false, force: false }],
  ['USE d', { kind: 'use', database: 'd', computeGroup: null }],
  ['USE d@cg1', { kind: 'use', database: 'd', computeGroup: 'cg1' }],
  ['USE @cg1', { kind: 'use', database: null, computeGroup: 'cg1' }],
  // ---------------------------------------------------------------- tables
  [`CREATE TABLE IF NOT EXISTS db.t (
      id BIGINT NOT NULL AUTO_INCREMENT COMMENT 'pk',
      k INT(11) UNSIGNED,
      v DECIMAL(10, 2) SUM DEFAULT "0" NOT NULL,
      s VARCHAR(20) REPLACE_IF_NOT_NULL NULL,
      ts DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3),
      d DATE DEFAULT '2024-01-01',
      n INT DEFAULT -1,
      c CHAR,
      txt TEXT,
      INDEX idx_s (s) USING INVERTED PROPERTIES ("parser" = "english") COMMENT 'inv',
      INDEX idx_e (e) USING ANN PROPERTIES ("index_type" = "hnsw", "metric_type" = "l2_distance", "dim" = "128")
    ) ENGINE = OLAP
    AGGREGATE KEY(id, k)
    COMMENT 'my table'
    PARTITION BY RANGE(d) (PARTITION p1 VALUES LESS THAN ("2024-01-01"), PARTITION p2 VALUES LESS THAN (MAXVALUE))
    DISTRIBUTED BY HASH(id) BUCKETS 8
    PROPERTIES ("replication_num" = "1")`, {
    kind: 'createTable', database: 'db', name: 't', ifNotExists: true, engine: 'OLAP', keysType: 'AGGREGATE', keys: ['id', 'k'],
    comment: 'my table', distribution: { type: 'HASH', columns: ['id'], buckets: 8 }, properties: { replication_num: '1' },
    partitionBy: 'PARTITION BY RANGE(d) (PARTITION p1 VALUES LESS THAN ("2024-01-01"), PARTITION p2 VALUES LESS THAN (MAXVALUE))',
    asQuery: null, like: null,
    columns: [
      { name: 'id', type: { name: 'BIGINT' }, nullable: false, autoIncrement: 1, comment: 'pk', aggregation: null, defaultValue: undefined },
      { name: 'k', type: { name: 'BIGINT' }, nullable: true },
      { name: 'v', type: { name: 'DECIMAL', precision: 10, scale: 2 }, aggregation: 'SUM', defaultValue: str('0'), nullable: false },
      { name: 's', type: { name: 'VARCHAR', length: 20 }, aggregation: 'REPLACE_IF_NOT_NULL', nullable: true },
      { name: 'ts', type: { name: 'DATETIME', scale: 3 }, defaultValue: call('CURRENT_TIMESTAMP', int('3')) },
      { name: 'd', type: { name: 'DATE' }, defaultValue: str('2024-01-01') },
      { name: 'n', defaultValue: int('-1') },
      { name: 'c', type: { name: 'CHAR', length: 1 } },
      { name: 'txt', type: { name: 'STRING' } },
    ],
    indexes: [
      { name: 'idx_s', columns: ['s'], indexType: 'INVERTED', properties: { parser: 'english' }, comment: 'inv' },
      { name: 'idx_e', columns: ['e'], indexType: 'ANN', properties: { index_type: 'hnsw', metric_type: 'l2_distance', dim: '128' }, comment: null },
    ],
  }],
  ['CREATE TABLE t (a INT) UNIQUE KEY(a) AUTO PARTITION BY RANGE (date_trunc(`a`, \'day\')) () DISTRIBUTED BY RANDOM', {
    keysType: 'UNIQUE', partitionBy: "AUTO PARTITION BY RANGE (date_trunc(`a`, 'day')) ()", distribution: { type: 'RANDOM', columns: [], buckets: 'AUTO' },
  }],
  ['CREATE TABLE t (a INT) DUPLICATE KEY(a) DISTRIBUTED BY HASH(a) BUCKETS AUTO', { keysType: 'DUPLICATE', distribution: { buckets: 'AUTO' } }],
  ['CREATE TABLE t2 LIKE db.t1', { kind: 'createTable', name: 't2', like: { database: 'db', name: 't1' }, columns: [] }],
  ['CREATE TABLE t2 PROPERTIES ("a" = "b") AS SELECT * FROM t1', { asQuery: { kind: 'select' }, properties: { a: 'b' } }],
  ['CREATE TABLE t2 AS SELECT 1', { asQuery: { kind: 'select' } }],
  ['DROP TABLE IF EXISTS db.t FORCE', { kind: 'dropTable', database: 'db', name: 't', ifExists: true, force: true }],
  ['TRUNCATE TABLE t', { kind: 'truncateTable', database: null, name: 't' }],
  ['ALTER TABLE dt SET ("group_commit_mode" = "sync_mode")', { kind: 'alterTable', name: 'dt', actions: [{ kind: 'setProperties', properties: { group_commit_mode: 'sync_mode' } }] }],
  ['ALTER TABLE db.t ADD COLUMN c INT DEFAULT "0" AFTER b, DROP COLUMN d, MODIFY COLUMN e VARCHAR(30) NOT NULL, RENAME t2', {
    database: 'db', actions: [
      { kind: 'addColumn', column: { name: 'c', type: { name: 'INT' } }, after: 'b' },
      { kind: 'dropColumn', name: 'd' },
      { kind: 'modifyColumn', column: { name: 'e', type: { name: 'VARCHAR', length: 30 }, nullable: false } },
      { kind: 'renameTable', newName: 't2' },
    ],
  }],
  ['ALTER TABLE t ADD INDEX i1 (a) USING BITMAP, DROP INDEX i2', { actions: [
    { kind: 'addIndex', index: { name: 'i1', columns: ['a'], indexType: 'BITMAP' } }, { kind: 'dropIndex', name: 'i2' }] }],
  ['CREATE INDEX i ON t (a) USING NGRAM_BF PROPERTIES ("gram_size" = "3")', { kind: 'alterTable', actions: [{ kind: 'addIndex', index: { indexType: 'NGRAM_BF', properties: { gram_size: '3' } } }] }],
  ['DROP INDEX i ON db.t', { kind: 'alterTable', database: 'db', actions: [{ kind: 'dropIndex', name: 'i' }] }],
  // ---------------------------------------------------------------- SHOW
  ['SHOW DATABASES LIKE \'d%\'', { kind: 'show', what: 'databases', like: 'd%' }],
  ['SHOW FULL TABLES FROM db WHERE Table_type = \'BASE TABLE\'', { what: 'tables', full: true, database: 'db', where: { kind: 'binary' } }],
  ['SHOW TABLES', { what: 'tables', full: false, database: null, like: null, where: null }],
  ['SHOW CREATE TABLE db.dt', { what: 'create table', target: { database: 'db', name: 'dt' } }],
  ['SHOW CREATE DATABASE d', { what: 'create database', target: { name: 'd' }, database: 'd' }],
  ['SHOW FULL COLUMNS FROM t FROM db', { what: 'columns', full: true, target: { database: 'db', name: 't' }, database: 'db' }],
  ['SHOW FIELDS IN db.t LIKE \'a%\'', { what: 'columns', target: { database: 'db', name: 't' }, like: 'a%' }],
  ['SHOW GLOBAL VARIABLES LIKE \'group_commit%\'', { what: 'variables', global: true, like: 'group_commit%' }],
  ['SHOW SESSION VARIABLES WHERE Variable_name = \'x\'', { what: 'variables', global: false, where: { kind: 'binary' } }],
  ['SHOW QUERY PROFILE "/abc-123"', { what: 'query profile', path: '/abc-123' }],
  ['SHOW QUERY PROFILE', { what: 'query profile', path: null }],
  ['SHOW LOAD FROM db WHERE label = \'x\' LIMIT 10', { what: 'load', database: 'db', where: { kind: 'binary' }, limit: { count: int('10') } }],
  ['SHOW TRANSACTION FROM db WHERE id = 4005', { what: 'transaction', database: 'db', where: bin('=', col('id'), int('4005')) }],
  ['SHOW FULL PROCESSLIST', { what: 'processlist', full: true }],
  ['SHOW WARNINGS', { what: 'warnings' }],
  ['SHOW ERRORS LIMIT 5', { what: 'errors', limit: { count: int('5') } }],
  ['SHOW STATUS', { what: 'status' }],
  ['SHOW TABLE STATUS FROM db LIKE \'t%\'', { what: 'table status', database: 'db', like: 't%' }],
  ['SHOW INDEX FROM t', { what: 'index', target: { name: 't' } }],
  ['SHOW KEYS FROM t FROM db', { what: 'index', target: { database: 'db', name: 't' } }],
  ['SHOW FUNCTIONS', { what: 'functions' }],
  ['SHOW FULL BUILTIN FUNCTIONS LIKE \'year%\'', { what: 'functions', full: true, like: 'year%' }],
  ['SHOW TABLETS FROM db.t', { what: 'tablets', target: { database: 'db', name: 't' } }],
  ['SHOW BACKENDS', { what: 'backends' }],
  ['SHOW FRONTENDS', { what: 'frontends' }],
  ['SHOW GRANTS', { what: 'grants' }],
  ['SHOW ENGINES', { what: 'engines' }],
  ['SHOW CHARSET', { what: 'charset' }],
  ['SHOW CHARACTER SET LIKE \'utf8%\'', { what: 'charset', like: 'utf8%' }],
  ['SHOW COLLATION', { what: 'collation' }],
  ['SHOW PROC \'/backends\'', { what: 'proc', path: '/backends' }],
  ['SHOW DATA', { what: 'data', target: null }],
  ['SHOW DATA FROM db.t', { what: 'data', target: { database: 'db', name: 't' } }],
  ['SHOW PARTITIONS FROM t', { what: 'partitions', target: { name: 't' } }],
  ['SHOW PROPERTY', { what: 'property' }],
  ['SHOW COMPUTE GROUPS', { what: 'compute groups' }],
  // ---------------------------------------------------------------- SET
  ['SET group_commit = async_mode', { kind: 'set', assignments: [{ scope: 'session', name: 'group_commit', value: str('async_mode') }] }],
  ['set enable_prepared_stmt_audit_log=true', { assignments: [{ name: 'enable_prepared_stmt_audit_log', value: { literalType: 'boolean', value: true } }] }],
  ['SET GLOBAL a = 1, SESSION b := \'x\', @@global.c = ON, @@d = 2, @@session.e = DEFAULT, @u = 1 + 2', { assignments: [
    { scope: 'global', name: 'a', value: int('1') },
    { scope: 'session', name: 'b', value: str('x') },
    { scope: 'global', name: 'c', value: str('ON') },
    { scope: 'session', name: 'd', value: int('2') },
    { scope: 'session', name: 'e', value: { kind: 'default' } },
    { scope: 'user', name: 'u', value: bin('+', int('1'), int('2')) },
  ] }],
  ['SET NAMES utf8mb4 COLLATE utf8mb4_general_ci', { assignments: [
    { scope: 'names', name: 'names', value: str('utf8mb4') }, { scope: 'session', name: 'collation_connection', value: str('utf8mb4_general_ci') }] }],
  ['SET NAMES DEFAULT', { assignments: [{ scope: 'names', value: null }] }],
  ['SET CHARACTER SET utf8', { assignments: [{ scope: 'charset', value: str('utf8') }] }],
  ['SET sql_mode = CONCAT(@@sql_mode, \',X\')', { assignments: [{ name: 'sql_mode', value: call('CONCAT', { kind: 'variable' }, str(',X')) }] }],
  ['SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED', { assignments: [{ scope: 'session', name: 'transaction_isolation', value: str('READ-COMMITTED') }] }],
  ['SET PASSWORD = PASSWORD(\'p\')', { kind: 'setPassword', user: null, password: 'p' }],
  ['SET PASSWORD FOR \'jack\'@\'%\' = \'p2\'', { kind: 'setPassword', user: { user: 'jack', host: '%' }, password: 'p2' }],
  // ---------------------------------------------------------------- users
  ['CREATE USER IF NOT EXISTS \'jack\'@\'192.168.%\' IDENTIFIED BY \'secret\'', { kind: 'createUser', ifNotExists: true, user: { user: 'jack', host: '192.168.%' }, password: 'secret' }],
  ['CREATE USER jill', { kind: 'createUser', user: { user: 'jill', host: '%' }, password: null, ifNotExists: false }],
  ['DROP USER IF EXISTS \'jack\'@localhost', { kind: 'dropUser', ifExists: true, user: { user: 'jack', host: 'localhost' } }],
  ['DROP USER \'jill\'', { kind: 'dropUser', ifExists: false, user: { user: 'jill', host: '%' } }],
  ['CREATE USER \'u\'@\'%\' IDENTIFIED BY \'p\' DEFAULT ROLE \'r\' PASSWORD_EXPIRE INTERVAL 2 DAY FAILED_LOGIN_ATTEMPTS 3 PASSWORD_LOCK_TIME UNBOUNDED',
    { kind: 'createUser', defaultRole: 'r', passwordOptions: { expireSeconds: 172800, failedLoginAttempts: 3, lockSeconds: -1 } }],
  ['ALTER USER \'u\'@\'%\' ACCOUNT_UNLOCK', { kind: 'alterUser', user: { user: 'u', host: '%' }, password: null, passwordOptions: { accountUnlock: true } }],
  ['ALTER USER u IDENTIFIED BY \'n\' PASSWORD_EXPIRE NEVER', { kind: 'alterUser', password: 'n', passwordOptions: { expireSeconds: 0 } }],
  ['SET PASSWORD FOR u = \'*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19\'', { kind: 'setPassword', hashed: true }],
  ['GRANT SELECT_PRIV, LOAD_PRIV ON internal.db1.t1 TO \'u\'@\'%\'',
    { kind: 'grant', revoke: false, privileges: ['SELECT_PRIV', 'LOAD_PRIV'], target: { kind: 'table', catalog: 'internal', database: 'db1', table: 't1' }, grantee: { kind: 'user', user: { user: 'u', host: '%' } } }],
  ['GRANT SELECT, INSERT ON db1.* TO ROLE \'r\'', { kind: 'grant', privileges: ['SELECT_PRIV', 'LOAD_PRIV'], target: { catalog: 'internal', database: 'db1', table: '*' }, grantee: { kind: 'role', role: 'r' } }],
  ['GRANT ALL PRIVILEGES ON *.*.* TO u', { kind: 'grant', privileges: ['SELECT_PRIV', 'LOAD_PRIV', 'ALTER_PRIV', 'CREATE_PRIV', 'DROP_PRIV'], target: { catalog: '*', database: '*', table: '*' } }],
  ['GRANT USAGE_PRIV ON COMPUTE GROUP \'g1\' TO u', { kind: 'grant', target: { kind: 'resource', resourceType: 'COMPUTE GROUP', name: 'g1' } }],
  ['REVOKE DROP ON db1.t1 FROM \'u\'@\'10.%\'', { kind: 'grant', revoke: true, privileges: ['DROP_PRIV'], grantee: { kind: 'user', user: { user: 'u', host: '10.%' } } }],
  ['GRANT \'r1\', \'r2\' TO u', { kind: 'grant', roles: ['r1', 'r2'], privileges: [], target: null }],
  ['REVOKE \'r1\' FROM \'u\'@\'%\'', { kind: 'grant', revoke: true, roles: ['r1'] }],
  ['CREATE ROLE IF NOT EXISTS r1 COMMENT \'c\'', { kind: 'createRole', role: 'r1', ifNotExists: true, comment: 'c' }],
  ['DROP ROLE IF EXISTS r1', { kind: 'dropRole', role: 'r1', ifExists: true }],
  ['SHOW GRANTS FOR \'u\'@\'%\'', { kind: 'show', what: 'grants', forUser: { user: 'u', host: '%' } }],
  ['SHOW ALL GRANTS', { kind: 'show', what: 'all grants' }],
  // ---------------------------------------------------------------- transactions
  ['BEGIN', { kind: 'transaction', action: 'BEGIN', label: null }],
  ['BEGIN WITH LABEL txn_1', { kind: 'transaction', action: 'BEGIN', label: 'txn_1' }],
  ['START TRANSACTION', { kind: 'transaction', action: 'BEGIN' }],
  ['COMMIT WORK', { kind: 'transaction', action: 'COMMIT' }],
  ['ROLLBACK', { kind: 'transaction', action: 'ROLLBACK' }],
  // ---------------------------------------------------------------- prepared statements, KILL
  ['PREPARE s1 FROM \'SELECT * FROM t WHERE id = ?\'', { kind: 'prepare', name: 's1', source: str('SELECT * FROM t WHERE id = ?') }],
  ['PREPARE s1 FROM @q', { kind: 'prepare', source: { kind: 'variable', name: 'q', system: false } }],
  ['EXECUTE s1 USING @a, @b', { kind: 'execute', name: 's1', using: [{ kind: 'variable', name: 'a' }, { kind: 'variable', name: 'b' }] }],
  ['EXECUTE s1', { kind: 'execute', using: [] }],
  ['DEALLOCATE PREPARE s1', { kind: 'deallocate', name: 's1' }],
  ['DROP PREPARE s1', { kind: 'deallocate', name: 's1' }],
  ['KILL 42', { kind: 'kill', target: 'CONNECTION', id: 42 }],
  ['KILL QUERY 7', { kind: 'kill', target: 'QUERY', id: 7 }],
  ['KILL CONNECTION 8', { kind: 'kill', target: 'CONNECTION', id: 8 }],
  // ---------------------------------------------------------------- administration
  ['ADMIN SET FRONTEND CONFIG ("max_connections" = "10")', { kind: 'adminSetConfig', node: 'FRONTEND', configs: { max_connections: '10' } }],
  ['ADMIN SET BACKEND CONFIG ("a" = "1") ALL', { kind: 'adminSetConfig', node: 'BACKEND', configs: { a: '1' } }],
  ['ADMIN SHOW FRONTEND CONFIG LIKE \'max%\'', { kind: 'show', what: 'frontend config', like: 'max%' }],
  ['SHOW FRONTEND CONFIG', { kind: 'show', what: 'frontend config', like: null }],
  ['SHOW BACKEND CONFIG LIKE \'x\'', { kind: 'show', what: 'backend config', like: 'x' }],
  ['SHOW LOAD FROM db WHERE State = \'LOADING\' ORDER BY JobId DESC, Label LIMIT 2, 3', { what: 'load', orderBy: [{ expr: col('JobId'), direction: 'DESC' }, { expr: col('Label'), direction: 'ASC' }], limit: { count: int('3'), offset: int('2') } }],
  ['SHOW STREAM LOAD FROM db WHERE Label = \'l\' ORDER BY StartTime', { what: 'stream load', database: 'db', orderBy: [{ expr: col('StartTime') }] }],
  ['SHOW DATA FROM db.t ORDER BY Size DESC', { what: 'data', target: { database: 'db', name: 't' }, orderBy: [{ direction: 'DESC' }] }],
  ['CANCEL LOAD FROM db WHERE LABEL = \'l1\'', { kind: 'cancelLoad', database: 'db', where: bin('=', col('LABEL'), str('l1')) }],
  ['CANCEL LOAD WHERE LABEL LIKE \'l%\' AND STATE = \'LOADING\'', { kind: 'cancelLoad', database: null, where: { kind: 'binary', op: 'AND' } }],
  ['HELP \'show load\'', { kind: 'help', topic: 'show load' }],
  ['HELP contents', { kind: 'help', topic: 'contents' }],
];

test('every statement kind parses to the expected AST', () => {
  const kinds = new Set<string>();
  for (const [sql, expected] of cases) {
    let stmt;
    try {
      stmt = parseStatement(sql);
    } catch (err) {
      assert.fail(`${sql}: ${(err as Error).message}`);
    }
    assertFragment(stmt, expected, sql.slice(0, 60));
    assert.equal(stmt.pos <= stmt.end && stmt.end <= sql.length, true, `${sql}: span`);
    kinds.add(stmt.kind);
  }
  const allKinds = ['query', 'explain', 'insert', 'delete', 'update', 'createDatabase', 'dropDatabase', 'use', 'createTable', 'dropTable',
    'alterTable', 'truncateTable', 'show', 'describe', 'set', 'createUser', 'dropUser', 'setPassword', 'transaction', 'prepare',
    'execute', 'deallocate', 'kill', 'grant', 'createRole', 'dropRole', 'alterUser',
    'adminSetConfig', 'cancelLoad', 'help'];
  assert.deepEqual(allKinds.filter((kind) => !kinds.has(kind)), []);
});

test('parseStatements splits on ; and skips empty statements; parseStatement wants exactly one', () => {
  const statements = parseStatements(';; SELECT 1; ; SELECT \';\' ; -- done\n');
  assert.equal(statements.length, 2);
  assertFragment(statements[1], { kind: 'query', query: { items: [{ expr: str(';') }] } });
  assert.deepEqual(parseStatements('  -- only a comment\n'), []);
  assertFragment(parseStatement('SELECT 1;'), { kind: 'query' });
  assert.throws(() => parseStatement('SELECT 1; SELECT 2'), (err: unknown) => err instanceof GaleneError && err.code === 'SYNTAX_ERROR' && /near 'SELECT 2'/.test(err.message));
  assert.throws(() => parseStatement(''), (err: unknown) => err instanceof GaleneError && err.code === 'SYNTAX_ERROR' && /unexpected end of input/.test(err.message));
  // parameter numbering restarts per statement
  const two = parseStatements('SELECT ?; SELECT ?');
  assertFragment(two, [{ query: { items: [{ expr: { kind: 'param', index: 0 } }] } }, { query: { items: [{ expr: { kind: 'param', index: 0 } }] } }]);
});

test('splitStatements cuts at top-level semicolons only', () => {
  const sql = "SELECT ';' ; /* ; */ INSERT INTO t VALUES ('a;b');\n-- x;\n SELECT `a;b` FROM t;";
  const pieces = splitStatements(sql);
  assert.deepEqual(pieces.map((piece) => piece.sql), ["SELECT ';'", "INSERT INTO t VALUES ('a;b')", 'SELECT `a;b` FROM t']);
  for (const piece of pieces) assert.equal(sql.slice(piece.pos, piece.end), piece.sql);
});

test('data types map to the engine types with Doris defaults and limits', () => {
  const typeCases: [string, unknown][] = [
    ['BOOLEAN', { name: 'BOOLEAN' }], ['bool', { name: 'BOOLEAN' }],
    ['TINYINT(4)', { name: 'TINYINT' }], ['SMALLINT', { name: 'SMALLINT' }], ['INT(11)', { name: 'INT' }], ['INTEGER', { name: 'INT' }],
    ['BIGINT(20)', { name: 'BIGINT' }], ['LARGEINT', { name: 'LARGEINT' }],
    ['TINYINT UNSIGNED', { name: 'SMALLINT' }], ['INT(10) UNSIGNED ZEROFILL', { name: 'BIGINT' }], ['BIGINT UNSIGNED', { name: 'LARGEINT' }],
    ['INT SIGNED', { name: 'INT' }],
    ['FLOAT', { name: 'FLOAT' }], ['DOUBLE', { name: 'DOUBLE' }], ['DOUBLE PRECISION', { name: 'DOUBLE' }],
    ['DECIMAL', { name: 'DECIMAL', precision: 9, scale: 0 }], ['DECIMAL(20)', { name: 'DECIMAL', precision: 20, scale: 0 }],
    ['DECIMALV3(38, 10)', { name: 'DECIMAL', precision: 38, scale: 10 }], ['NUMERIC(5,5)', { name: 'DECIMAL', precision: 5, scale: 5 }],
    ['DECIMALV2(27, 9)', { name: 'DECIMAL', precision: 27, scale: 9 }],
    ['DATE', { name: 'DATE' }], ['DATEV2', { name: 'DATE' }], ['DATETIME', { name: 'DATETIME' }], ['DATETIMEV2(6)', { name: 'DATETIME', scale: 6 }],
    ['TIMESTAMP', { name: 'DATETIME' }],
    ['CHAR', { name: 'CHAR', length: 1 }], ['CHAR(10)', { name: 'CHAR', length: 10 }],
    ['VARCHAR', { name: 'VARCHAR', length: 65533 }], ['VARCHAR(65533)', { name: 'VARCHAR', length: 65533 }],
    ['STRING', { name: 'STRING' }], ['TEXT', { name: 'STRING' }], ['TINYTEXT', { name: 'STRING' }], ['MEDIUMTEXT', { name: 'STRING' }], ['LONGTEXT', { name: 'STRING' }],
  ];
  for (const [sql, expected] of typeCases) assertFragment(parseDataType(sql), expected, sql);
  // MAP is a list of STRUCT<key, value> entries; nested closers `>>` split.
  assert.equal(typeToSql(parseDataType('MAP<STRING, ARRAY<INT>>')), 'MAP<STRING,ARRAY<INT>>');
  assert.equal(typeToSql(parseDataType('STRUCT<a:INT, b:MAP<INT,STRING>>')), 'STRUCT<a:INT,b:MAP<INT,STRING>>');
  const bad: [string, string, RegExp][] = [
    ['DECIMAL(39, 2)', 'INVALID_TABLE_DEFINITION', /Precision of decimal must between 1 and 38/],
    ['DECIMAL(0)', 'INVALID_TABLE_DEFINITION', /Precision/],
    ['DECIMAL(5, 6)', 'INVALID_TABLE_DEFINITION', /Scale of decimal/],
    ['VARCHAR(65534)', 'INVALID_TABLE_DEFINITION', /65533/],
    ['VARCHAR(0)', 'INVALID_TABLE_DEFINITION', /Varchar size/],
    ['CHAR(256)', 'INVALID_TABLE_DEFINITION', /Char size/],
    ['DATETIME(7)', 'INVALID_TABLE_DEFINITION', /Scale of Datetime/],
    ['VARIANT', 'UNSUPPORTED', /VARIANT/],
    ['STRUCT<a:INT, A:INT>', 'INVALID_TABLE_DEFINITION', /Duplicate field name A in struct/],
    ['MAP<INT>', 'SYNTAX_ERROR', /near/],
    ['FOO', 'SYNTAX_ERROR', /near 'FOO'/],
    ['INT INT', 'SYNTAX_ERROR', /near 'INT' at line 1, column 5/],
  ];
  for (const [sql, code, pattern] of bad) {
    assert.throws(() => parseDataType(sql), (err: unknown) => err instanceof GaleneError && err.code === code && pattern.test(err.message), sql);
  }
});

test('account grammar refuses what Galene does not honour', () => {
  const fails = (sql: string, code: string): void => {
    assert.throws(() => parseStatement(sql), (err: unknown) => err instanceof GaleneError && err.code === code, sql);
  };
  fails("ALTER USER u ACCOUNT_LOCK", 'UNSUPPORTED');
  fails("CREATE USER u PASSWORD_HISTORY 3", 'UNSUPPORTED');
  fails("GRANT SELECT_PRIV ON db1 TO u", 'SYNTAX_ERROR');
  fails("GRANT SELECT_PRIV ON *.db1.t TO u", 'SYNTAX_ERROR');
  fails("GRANT FLY_PRIV ON db1.* TO u", 'SYNTAX_ERROR');
  fails("GRANT 'r' TO ROLE 'x'", 'SYNTAX_ERROR');
  fails("ALTER USER u", 'SYNTAX_ERROR');
});
