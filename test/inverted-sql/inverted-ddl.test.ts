/**
 * INVERTED index DDL on a real server (mysql2): Doris's messages for every refused definition at CREATE
 * TABLE, CREATE INDEX and ALTER TABLE ADD INDEX (a refused one changes nothing), the column types and
 * table models Doris accepts, the defaults Doris stores (lower_case, support_phrase), and the PROPERTIES
 * round trip through SHOW CREATE TABLE and SHOW INDEX. DROP INDEX makes MATCH compare whole values again.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Connection } from 'mysql2/promise';
import { startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, queryRecords, queryRows } from '../helpers/mysql-client';

let server: GaleneProcess;
let conn: Connection;

before(async () => {
  server = await startGalene();
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE tddl');
  await conn.query('USE tddl');
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

const TAIL = 'DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("replication_num" = "1")';

async function expectError(sql: string, message: string): Promise<void> {
  await assert.rejects(conn.query(sql), (err: Error) => {
    assert.ok(err.message.includes(message), `${sql}\n  got: ${err.message}\n  want: ${message}`);
    return true;
  });
}

const tableWith = (index: string, columns = 'id INT, s STRING, n INT, d DATE, arr ARRAY<STRING>, grid ARRAY<ARRAY<INT>>', model = 'DUPLICATE KEY(id)'): string =>
  `CREATE TABLE bad (${columns}, ${index}) ${model} ${TAIL}`;

test('CREATE TABLE refuses bad INVERTED index definitions with Doris messages', async () => {
  const cases: [string, string][] = [
    ['INDEX i (s) USING INVERTED PROPERTIES("parser" = "klingon")', "invalid INVERTED index:Invalid inverted index 'parser' value: klingon, parser must be none, english, unicode or chinese"],
    ['INDEX i (s) USING INVERTED PROPERTIES("parsr" = "english")', 'invalid INVERTED index:Invalid inverted index property key: parsr'],
    ['INDEX i (s) USING INVERTED PROPERTIES("parser" = "english", "parser_mode" = "fine_grained")', 'invalid INVERTED index:parser_mode is only available for chinese parser'],
    ['INDEX i (s) USING INVERTED PROPERTIES("parser" = "chinese", "parser_mode" = "medium")', "invalid INVERTED index:Invalid inverted index 'parser_mode' value: medium, parser_mode must be fine_grained or coarse_grained"],
    ['INDEX i (s) USING INVERTED PROPERTIES("parser" = "english", "support_phrase" = "yes")', "invalid INVERTED index:Invalid inverted index 'support_phrase' value: yes, support_phrase must be true or false"],
    ['INDEX i (s) USING INVERTED PROPERTIES("parser" = "english", "lower_case" = "TRUE")', "invalid INVERTED index:Invalid inverted index 'lower_case' value: TRUE, lower_case must be true or false"],
    ['INDEX i (s) USING INVERTED PROPERTIES("parser" = "unicode", "stopwords" = "english")', "invalid INVERTED index:Invalid inverted index 'stopWords' value: english, stopWords must be none"],
    ['INDEX i (s) USING INVERTED PROPERTIES("ignore_above" = "0")', "invalid INVERTED index:Invalid inverted index 'ignore_above' value: 0, ignore_above must be positive"],
    ['INDEX i (s) USING INVERTED PROPERTIES("ignore_above" = "big")', "invalid INVERTED index:Invalid inverted index 'ignore_above' value, ignore_above must be integer"],
    ['INDEX i (s) USING INVERTED PROPERTIES("parser" = "english", "char_filter_type" = "char_replace")', "invalid INVERTED index:Missing 'char_filter_pattern' for 'char_replace' filter type"],
    ['INDEX i (n) USING INVERTED PROPERTIES("parser" = "english")', 'invalid INVERTED index:INVERTED index with parser: english is not supported for column: n of type INT'],
    ['INDEX i (d) USING INVERTED PROPERTIES("parser" = "unicode")', 'invalid INVERTED index:INVERTED index with parser: unicode is not supported for column: d of type DATE'],
    ['INDEX i (s, n) USING INVERTED', 'INVERTED index can only apply to a single column.'],
    [`INDEX ${'x'.repeat(65)} (s) USING INVERTED`, 'index name too long, the index name length at most is 64.'],
    ['INDEX i (grid) USING INVERTED', 'ARRAY<ARRAY<INT>> is not supported in INVERTED index. invalid index: i'],
    ['INDEX i (nope) USING INVERTED', "Unknown column 'nope' in 'index definition'"],
  ];
  for (const [index, message] of cases) await expectError(tableWith(index), message);
  await expectError(tableWith('INDEX i (s) USING INVERTED, INDEX i (n) USING INVERTED'), 'index `i` already exist.');
  await expectError(tableWith('INDEX i (s) USING INVERTED, INDEX j (s) USING INVERTED PROPERTIES("parser" = "english")'), 'index for columns (s ) already exist.');
  // table models: AGGREGATE KEY only on key columns; merge-on-read UNIQUE KEY: no parser on value columns
  await expectError(tableWith('INDEX i (s) USING INVERTED', 'id INT, s VARCHAR(20) REPLACE', 'AGGREGATE KEY(id)'), 'index should only be used in columns of DUP_KEYS/UNIQUE_KEYS table or key columns of AGG_KEYS table. invalid index: i');
  await expectError(
    `CREATE TABLE bad (id INT, s STRING, INDEX i (s) USING INVERTED PROPERTIES("parser" = "english")) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("replication_num" = "1", "enable_unique_key_merge_on_write" = "false")`,
    'INVERTED index with parser can NOT be used in value columns of UNIQUE_KEYS table with merge_on_write disable. invalid index: i',
  );
  assert.deepEqual(await queryRows(conn, "SHOW TABLES LIKE 'bad'"), []);
});

test('INVERTED indexes Doris accepts: every scalar type, ARRAY of one, key columns of AGGREGATE, MoR UNIQUE without parser', async () => {
  await conn.query(`CREATE TABLE okall (id INT, s STRING, v VARCHAR(10), c CHAR(4), n BIGINT, f DOUBLE, dec DECIMAL(10,2), d DATE, dt DATETIME, b BOOLEAN, arr ARRAY<STRING>, nums ARRAY<INT>,
      INDEX i_s (s) USING INVERTED PROPERTIES("parser" = "unicode", "stopwords" = "none"), INDEX i_v (v) USING INVERTED PROPERTIES("parser" = "none"),
      INDEX i_c (c) USING INVERTED, INDEX i_n (n) USING INVERTED, INDEX i_f (f) USING INVERTED, INDEX i_dec (dec) USING INVERTED, INDEX i_d (d) USING INVERTED,
      INDEX i_dt (dt) USING INVERTED, INDEX i_b (b) USING INVERTED, INDEX i_arr (arr) USING INVERTED PROPERTIES("parser" = "english"), INDEX i_nums (nums) USING INVERTED)
    DUPLICATE KEY(id) ${TAIL}`);
  await conn.query(`CREATE TABLE okagg (id INT, k VARCHAR(20), total BIGINT SUM, INDEX i_k (k) USING INVERTED PROPERTIES("parser" = "english")) AGGREGATE KEY(id, k) ${TAIL}`);
  await conn.query(`CREATE TABLE okmor (id INT, s STRING, INDEX i_s (s) USING INVERTED) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("replication_num" = "1", "enable_unique_key_merge_on_write" = "false")`);
  await conn.query(`CREATE TABLE okmow (id INT, s STRING, INDEX i_s (s) USING INVERTED PROPERTIES("parser" = "chinese", "parser_mode" = "fine_grained")) UNIQUE KEY(id) ${TAIL}`);
  const indexes = await queryRecords(conn, 'SHOW INDEX FROM okall');
  assert.equal(indexes.length, 11);
  assert.ok(indexes.every((row) => row.Index_type === 'INVERTED'));
});

test('CREATE INDEX and ALTER TABLE ADD INDEX check the same way; a refused one changes nothing', async () => {
  await conn.query(`CREATE TABLE addidx (id INT, s STRING, n INT) DUPLICATE KEY(id) ${TAIL}`);
  await conn.query("INSERT INTO addidx VALUES (1, 'Doris OLAP', 1), (2, 'olap', 2)");
  await expectError('CREATE INDEX i ON addidx (n) USING INVERTED PROPERTIES("parser" = "english")', 'INVERTED index with parser: english is not supported for column: n of type INT');
  await expectError('ALTER TABLE addidx ADD INDEX i (s) USING INVERTED PROPERTIES("parser" = "english", "lower_case" = "no")', "Invalid inverted index 'lower_case' value: no, lower_case must be true or false");
  assert.deepEqual(await queryRows(conn, 'SHOW INDEX FROM addidx'), []);
  // whole-value match before the index exists, tokenized after CREATE INDEX, whole values again after DROP INDEX
  const olap = async (): Promise<string[]> => (await queryRows(conn, "SELECT id FROM addidx WHERE s MATCH_ANY 'olap' ORDER BY id")).map((row) => row[0]!);
  assert.deepEqual(await olap(), ['2']);
  await conn.query('CREATE INDEX i ON addidx (s) USING INVERTED PROPERTIES("parser" = "english") COMMENT "words"');
  assert.deepEqual(await olap(), ['1', '2']);
  await conn.query('DROP INDEX i ON addidx');
  assert.deepEqual(await olap(), ['2']);
  await conn.query('ALTER TABLE addidx ADD INDEX i2 (s) USING INVERTED PROPERTIES("parser" = "english", "lower_case" = "false")');
  assert.deepEqual(await olap(), ['2']);
});

test('PROPERTIES round-trip through SHOW CREATE TABLE and SHOW INDEX with the defaults Doris stores', async () => {
  await conn.query(`CREATE TABLE rt (id INT, title STRING, body STRING, code VARCHAR(20),
      INDEX idx_title (title) USING INVERTED PROPERTIES("parser" = "english") COMMENT 'title words',
      INDEX idx_body (body) USING INVERTED PROPERTIES("parser" = "unicode", "support_phrase" = "false", "lower_case" = "false", "stopwords" = "none"),
      INDEX idx_code (code) USING INVERTED COMMENT 'exact')
    DUPLICATE KEY(id) ${TAIL}`);
  const [[, ddl]] = await queryRows(conn, 'SHOW CREATE TABLE rt');
  assert.ok(ddl!.includes('INDEX `idx_title` (`title`) USING INVERTED PROPERTIES ("parser" = "english", "lower_case" = "true", "support_phrase" = "true") COMMENT "title words"'), ddl!);
  assert.ok(ddl!.includes('INDEX `idx_body` (`body`) USING INVERTED PROPERTIES ("parser" = "unicode", "support_phrase" = "false", "lower_case" = "false", "stopwords" = "none")'), ddl!);
  assert.ok(ddl!.includes('INDEX `idx_code` (`code`) USING INVERTED COMMENT "exact"'), ddl!);
  const show = await queryRecords(conn, 'SHOW INDEX FROM rt');
  assert.deepEqual(show.map((row) => [row.Key_name, row.Column_name, row.Index_type, row.Comment, row.Properties]), [
    ['idx_title', 'title', 'INVERTED', 'title words', '("parser" = "english", "lower_case" = "true", "support_phrase" = "true")'],
    ['idx_body', 'body', 'INVERTED', '', '("parser" = "unicode", "support_phrase" = "false", "lower_case" = "false", "stopwords" = "none")'],
    ['idx_code', 'code', 'INVERTED', 'exact', ''],
  ]);
  // the printed DDL creates the same table
  await conn.query('CREATE DATABASE tddl2');
  await conn.query(`USE tddl2`);
  await conn.query(ddl!);
  const [[, again]] = await queryRows(conn, 'SHOW CREATE TABLE rt');
  assert.equal(again, ddl);
  assert.deepEqual(await queryRecords(conn, 'SHOW INDEX FROM rt'), show);
  await conn.query('USE tddl');
});
