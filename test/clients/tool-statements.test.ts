/**
 * Statement shapes tools rely on, through mysql2 (column types as the client sees them): Grafana's time
 * bucket `UNIX_TIMESTAMP(ts) DIV 300 * 300` is BIGINT (not LARGEINT, which mysql2 reads as a string),
 * SHOW TABLE STATUS has MySQL's 18 columns, SHOW [FULL] COLUMNS Doris's Key YES / NO, LOCK TABLES and
 * ALTER TABLE ... DISABLE KEYS answer OK with a Note, and information_schema compares strings
 * case-insensitively except for database and table names.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Connection, FieldPacket } from 'mysql2/promise';
import { GaleneProcess, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

let server: GaleneProcess;
let conn: Connection;

before(async () => {
  server = await startGalene();
  conn = await connect(server.ports.query_port, { multipleStatements: true });
  await conn.query(`CREATE DATABASE g; USE g;
    CREATE TABLE metrics (ts DATETIME NOT NULL, host VARCHAR(16) NOT NULL COMMENT 'host name', v DOUBLE) DUPLICATE KEY(ts, host) COMMENT 'samples' DISTRIBUTED BY HASH(host) BUCKETS 1;
    INSERT INTO metrics VALUES ('2024-01-01 00:01:00', 'a', 1), ('2024-01-01 00:04:59', 'b', 2), ('2024-01-01 00:05:00', 'a', 3);`);
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

const typeOf = (fields: FieldPacket[], name: string): number | undefined => fields.find((field) => field.name === name)?.columnType;
// MySQL protocol column types.
const LONG = 3;
const LONGLONG = 8;

test("Grafana's UNIX_TIMESTAMP(ts) DIV 300 * 300 time buckets are BIGINT numbers", async () => {
  const [rows, fields] = await conn.query({
    sql: 'SELECT UNIX_TIMESTAMP(ts) DIV 300 * 300 AS time, UNIX_TIMESTAMP(ts) AS u, UNIX_TIMESTAMP(ts) DIV 300 AS b, count(*) AS n FROM metrics GROUP BY 1, 2, 3 ORDER BY 1, 2',
    rowsAsArray: true,
  });
  assert.equal(typeOf(fields, 'time'), LONGLONG);
  assert.equal(typeOf(fields, 'u'), LONG); // Doris: unix_timestamp(datetime) is INT
  assert.equal(typeOf(fields, 'b'), LONG); // INT DIV SMALLINT keeps the wider operand, INT
  // Without a typeCast mysql2 returns BIGINT as a JS number and LARGEINT (a DECIMAL on the wire) as a string.
  const plainConn = await connect(server.ports.query_port, { database: 'g', typeCast: true });
  try {
    const [plain] = await plainConn.query('SELECT UNIX_TIMESTAMP(ts) DIV 300 * 300 AS time FROM metrics ORDER BY ts');
    assert.deepEqual(plain, [[1704067200], [1704067200], [1704067500]]);
  } finally {
    await plainConn.end();
  }
  assert.deepEqual(rows, [['1704067200', '1704067260', '5680224', '1'], ['1704067200', '1704067499', '5680224', '1'], ['1704067500', '1704067500', '5680225', '1']]);
});

test('SHOW TABLE STATUS has MySQL\'s columns; SHOW [FULL] COLUMNS Doris\'s Key and the collation', async () => {
  const [rows, fields] = await conn.query({ sql: "SHOW TABLE STATUS LIKE 'metrics'", rowsAsArray: true });
  assert.deepEqual(fields.map((field) => field.name), ['Name', 'Engine', 'Version', 'Row_format', 'Rows', 'Avg_row_length', 'Data_length', 'Max_data_length', 'Index_length', 'Data_free', 'Auto_increment', 'Create_time', 'Update_time', 'Check_time', 'Collation', 'Checksum', 'Create_options', 'Comment']);
  const row = (rows as string[][])[0];
  assert.deepEqual([row[0], row[1], row[3], row[4], row[14], row[17]], ['metrics', 'Doris', 'Dynamic', '3', 'utf8mb4_0900_bin', 'samples']);
  assert.deepEqual(await queryRows(conn, 'SHOW COLUMNS FROM metrics'), [['ts', 'datetime', 'NO', 'YES', null, ''], ['host', 'varchar(16)', 'NO', 'YES', null, ''], ['v', 'double', 'YES', 'NO', null, '']]);
  assert.deepEqual(await queryRows(conn, "SHOW FULL COLUMNS FROM metrics LIKE 'host'"), [['host', 'varchar(16)', 'utf8mb4_0900_bin', 'NO', 'YES', null, '', 'select,insert,update,references', 'host name']]);
  assert.deepEqual(await queryRows(conn, 'SHOW FULL TABLES'), [['metrics', 'BASE TABLE']]);
  assert.deepEqual(await queryRows(conn, 'SHOW TRIGGERS'), []);
});

test('LOCK TABLES, UNLOCK TABLES and ALTER TABLE ... DISABLE KEYS answer OK with a Note', async () => {
  for (const [sql, note] of [
    ['LOCK TABLES metrics READ LOCAL, metrics AS m WRITE', 'LOCK TABLES is accepted'],
    ['/*!40000 ALTER TABLE `metrics` DISABLE KEYS */', 'DISABLE KEYS / ENABLE KEYS is accepted'],
    ['UNLOCK TABLES', 'UNLOCK TABLES is accepted'],
  ]) {
    const [result] = await conn.query(sql);
    assert.equal((result as { warningStatus: number }).warningStatus, 1, sql);
    const warnings = await queryRows(conn, 'SHOW WARNINGS');
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0][0], 'Note');
    assert.ok(warnings[0][2]!.includes(note), warnings[0][2]!);
  }
  await assert.rejects(conn.query('LOCK TABLES nosuch READ'), /nosuch/);
  assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM metrics'), [['3']]);
});

test('information_schema compares strings case-insensitively, database and table names excepted', async () => {
  assert.deepEqual(await queryRows(conn, "SELECT COLUMN_NAME, IF(IS_NULLABLE = 'yes', 1, 0) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'g' ORDER BY ORDINAL_POSITION"), [['ts', '0'], ['host', '0'], ['v', '1']]);
  assert.deepEqual(await queryRows(conn, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_TYPE = 'base table' AND TABLE_SCHEMA = 'g'"), [['metrics']]);
  assert.deepEqual(await queryRows(conn, "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'g' AND COLUMN_NAME IN ('HOST', 'V') ORDER BY 1"), [['host'], ['v']]);
  assert.deepEqual(await queryRows(conn, "SELECT count(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'G'"), [['0']]);
  assert.deepEqual(await queryRows(conn, "SELECT count(*) FROM information_schema.TABLES WHERE TABLE_NAME = 'METRICS'"), [['0']]);
  // Ordinary tables keep Doris's binary comparison.
  assert.deepEqual(await queryRows(conn, "SELECT count(*) FROM metrics WHERE host = 'A'"), [['0']]);
});

test('convert_tz, timediff and time_format (Metabase asks the server time zone with them)', async () => {
  assert.deepEqual(
    await queryRows(conn, "SELECT convert_tz('2024-01-01 12:00:00', '+00:00', '+08:00'), convert_tz('2024-07-01 12:00:00', 'UTC', 'Europe/Paris'), convert_tz('2024-01-01 12:00:00', 'nowhere', '+00:00'), timediff('2024-01-01 12:00:00', '2024-01-01 10:30:00'), timediff('2024-01-01', '2024-01-02'), time_format('25:04:05', '%H:%i:%s %p')"),
    [['2024-01-01 20:00:00', '2024-07-01 14:00:00', null, '01:30:00', '-24:00:00', '25:04:05 AM']],
  );
});
