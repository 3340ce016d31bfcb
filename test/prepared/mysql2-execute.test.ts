/**
 * Server-side prepared statements driven by mysql2's `execute()` (COM_STMT_PREPARE + COM_STMT_EXECUTE
 * with binary parameters and binary result rows) against a real Galene process: parameters of every
 * type, INSERT through a prepared statement, LIMIT ?, plan reuse and pruning seen in the query profile,
 * many concurrent connections, and re-planning after ALTER TABLE and DROP + CREATE.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as mysql from 'mysql2/promise';
import { TypedParameter as T } from 'mysql2';
import { GaleneProcess, startGalene } from '../helpers/galene-process';

let server: GaleneProcess;
let conn: mysql.Connection;

const open = (): Promise<mysql.Connection> =>
  mysql.createConnection({ host: '127.0.0.1', port: server.ports.query_port, user: 'root', password: '', database: 'ps', dateStrings: true, supportBigNumbers: true, bigNumberStrings: true });

async function rows(sql: string, params: unknown[], connection = conn): Promise<unknown[][]> {
  const [result] = await connection.execute({ sql, rowsAsArray: true }, params as never);
  return result as unknown[][];
}

/** Counters of the most recent profile whose statement text is `sql`. */
async function lastProfile(sql: string): Promise<Map<string, string>> {
  const [list] = await conn.query({ sql: 'SHOW QUERY PROFILE', rowsAsArray: true });
  const entry = (list as string[][]).find((row) => row[8] === sql);
  assert.ok(entry, `no profile for ${sql}`);
  const [details] = await conn.query({ sql: `SHOW QUERY PROFILE "/${entry[0]}"`, rowsAsArray: true });
  return new Map((details as string[][]).map(([name, value]) => [name, value]));
}

before(async () => {
  server = await startGalene();
  const admin = await mysql.createConnection({ host: '127.0.0.1', port: server.ports.query_port, user: 'root', password: '' });
  await admin.query('CREATE DATABASE ps');
  await admin.end();
  conn = await open();
  await conn.query(`CREATE TABLE t (k INT, b BIGINT, f DOUBLE, x DECIMAL(10,2), s VARCHAR(20), d DATE, dt DATETIME, flag BOOLEAN)
    UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2`);
  const values: string[] = [];
  for (let k = 1; k <= 300; k++) {
    values.push(`(${k}, ${k * 1_000_000_000_000}, ${k / 4}, ${k}.${String(k % 100).padStart(2, '0')}, 's${k}', '2024-01-${String((k % 28) + 1).padStart(2, '0')}', '2024-02-01 10:00:${String(k % 60).padStart(2, '0')}', ${k % 2})`);
  }
  await conn.query(`INSERT INTO t VALUES ${values.join(',')}`);
  await conn.query(`INSERT INTO t (k) VALUES (1000)`); // a row of NULLs
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

test('parameters of every type select the right rows', async () => {
  const lookup = 'SELECT k FROM t WHERE ';
  assert.deepEqual(await rows(lookup + 'k = ?', [7]), [[7]], 'number (DOUBLE)');
  assert.deepEqual(await rows(lookup + 'k = ?', [T.LONG(8)]), [[8]], 'LONG');
  assert.deepEqual(await rows(lookup + 'k = ?', [T.TINY(9)]), [[9]], 'TINY');
  assert.deepEqual(await rows(lookup + 'k = ?', [T.SHORT.unsigned(10)]), [[10]], 'unsigned SHORT');
  assert.deepEqual(await rows(lookup + 'b = ?', [T.LONGLONG(11_000_000_000_000n)]), [[11]], 'LONGLONG');
  assert.deepEqual(await rows(lookup + 'b = ?', [12_000_000_000_000n]), [[12]], 'bigint');
  assert.deepEqual(await rows(lookup + 'f = ?', [3.25]), [[13]], 'DOUBLE');
  assert.deepEqual(await rows(lookup + 'f = ?', [T.FLOAT(3.5)]), [[14]], 'FLOAT');
  assert.deepEqual(await rows(lookup + 'x = ?', [T.NEWDECIMAL('15.15')]), [[15]], 'NEWDECIMAL');
  assert.deepEqual(await rows(lookup + 'x = ?', [T.DECIMAL('16.16')]), [[16]], 'DECIMAL');
  assert.deepEqual(await rows(lookup + 's = ?', ['s17']), [[17]], 'VAR_STRING');
  assert.deepEqual(await rows(lookup + 's = ?', [Buffer.from('s18')]), [[18]], 'BLOB');
  assert.deepEqual(await rows(lookup + 'd = ? AND k < 30 ORDER BY k', [T.DATE('2024-01-20')]), [[19]], 'DATE');
  assert.deepEqual(await rows(lookup + 'dt = ? AND k < 60', [T.DATETIME('2024-02-01 10:00:20')]), [[20]], 'DATETIME');
  assert.deepEqual(await rows(lookup + 'dt = ? AND k < 60', [T.TIMESTAMP('2024-02-01 10:00:21')]), [[21]], 'TIMESTAMP');
  assert.deepEqual(await rows(lookup + 'flag = ? AND k <= 4 ORDER BY k', [true]), [[1], [3]], 'boolean');
  assert.deepEqual(await rows(lookup + 'k = ? OR s IS NULL ORDER BY k', [null]), [[1000]], 'NULL');
  assert.deepEqual(await rows(lookup + 'k IN (?, ?, ?) ORDER BY k', [T.LONGLONG(3n), 5, '6']), [[3], [5], [6]], 'IN list');
  assert.deepEqual(await rows('SELECT ?', [T.TIME('12:34:56')]), [['12:34:56']], 'TIME');
});

test('binary result rows carry every column type, NULLs included', async () => {
  const result = await rows('SELECT k, b, f, x, s, d, dt, flag FROM t WHERE k = ? OR k = ? ORDER BY k', [5, 1000]);
  assert.deepEqual(result, [
    [5, '5000000000000', 1.25, '5.05', 's5', '2024-01-06', '2024-02-01 10:00:05', 1],
    [1000, null, null, null, null, null, null, null],
  ]);
  const [typed] = await conn.execute({ sql: 'SELECT ? + 1, ?, CAST(? AS DECIMAL(10,3)), ?', rowsAsArray: true }, [T.LONGLONG(41n), 'text', '2.5', T.DATETIME('2020-05-06 07:08:09.123456')]);
  assert.deepEqual(typed, [['42', 'text', '2.500', '2020-05-06 07:08:09.123000']]); // mysql2 keeps milliseconds
});

/** Rows a key predicate pruned: by the short-key index, or (full keys of merge-on-write tables) the primary-key index. */
const keyPruned = (profile: Map<string, string>): number => Number(profile.get('RowsPrunedByShortKey') ?? 0) + Number(profile.get('RowsPrunedByPrimaryKeyIndex') ?? 0);

/** `use()` with the short-circuit path off: these tests are about the plan cache, which it bypasses. */
async function planned(use: () => Promise<void>): Promise<void> {
  await conn.query('SET enable_short_circuit_query = false');
  try {
    await use();
  } finally {
    await conn.query('SET enable_short_circuit_query = true');
  }
}

test('a point lookup reuses the cached plan and still prunes with the key', () => planned(async () => {
  await conn.query('CREATE TABLE big (k INT, s VARCHAR(10)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
  await conn.query(`INSERT INTO big VALUES ${Array.from({ length: 6000 }, (_v, rowIdx) => `(${rowIdx + 1}, 's${rowIdx + 1}')`).join(',')}`);
  const plain = 'SELECT s FROM big WHERE k = 4321';
  await conn.query(plain);
  const plainPruned = keyPruned(await lastProfile(plain));
  assert.ok(plainPruned > 0, 'the plain query prunes with the key');
  const sql = 'SELECT s FROM big WHERE k = ?';
  assert.deepEqual(await rows(sql, [4320]), [['s4320']]);
  assert.deepEqual(await rows(sql, [4321]), [['s4321']]);
  const profile = await lastProfile(sql);
  assert.equal(profile.get('PlanCacheHits'), '1', 'the second execution is a plan-cache hit');
  assert.equal(profile.get('ParseTimeMs'), undefined, 'EXECUTE does not parse');
  assert.equal(keyPruned(profile), plainPruned, 'the bound key prunes as the literal does');
  // An aggregate over a key range (the planner fuses the filter into the aggregate) prunes the same way.
  const aggPlain = 'SELECT count(*), sum(k) FROM big WHERE k BETWEEN 4000 AND 4100';
  await conn.query(aggPlain);
  const aggPlainPruned = Number((await lastProfile(aggPlain)).get('RowsPrunedByShortKey'));
  assert.ok(aggPlainPruned > 0);
  const aggSql = 'SELECT count(*), sum(k) FROM big WHERE k BETWEEN ? AND ?';
  assert.deepEqual((await rows(aggSql, [4000, 4100])).map((row) => row.map(String)), [['101', '409050']]);
  assert.deepEqual((await rows(aggSql, [1, 10])).map((row) => row.map(String)), [['10', '55']]);
  assert.equal(Number((await lastProfile(aggSql)).get('RowsPrunedByShortKey')) > 0, true, 'the bound range prunes');
}));

test('LIMIT ? and OFFSET ? reuse one plan with the values of each execution', async () => {
  const sql = 'SELECT k FROM t ORDER BY k LIMIT ? OFFSET ?';
  assert.deepEqual(await rows(sql, [3, 0]), [[1], [2], [3]]);
  assert.deepEqual(await rows(sql, [2, 10]), [[11], [12]]);
  assert.deepEqual((await lastProfile(sql)).get('PlanCacheHits'), '1');
  const scanSql = 'SELECT s FROM t WHERE k > 250 LIMIT ?';
  assert.equal((await rows(scanSql, [4])).length, 4);
  assert.equal((await rows(scanSql, [1])).length, 1);
  assert.equal((await rows(scanSql, [0])).length, 0);
  await assert.rejects(rows(sql, [-1, 0]), /invalid LIMIT value/);
});

test('INSERT INTO ... VALUES (?, ...) through a prepared statement', async () => {
  await conn.query('CREATE TABLE ins (id INT, name VARCHAR(20), amount DECIMAL(12,2), day DATE, at DATETIME) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
  const sql = 'INSERT INTO ins VALUES (?, ?, ?, ?, ?)';
  for (let id = 1; id <= 5; id++) {
    const [ok] = await conn.execute(sql, [id, `n${id}`, T.NEWDECIMAL(`${id}.25`), T.DATE(`2024-03-0${id}`), id === 5 ? null : T.DATETIME(`2024-03-0${id} 01:02:03`)]);
    assert.equal((ok as mysql.ResultSetHeader).affectedRows, 1);
  }
  assert.deepEqual((await conn.query({ sql: 'SELECT * FROM ins ORDER BY id', rowsAsArray: true }))[0], [
    [1, 'n1', '1.25', '2024-03-01', '2024-03-01 01:02:03'],
    [2, 'n2', '2.25', '2024-03-02', '2024-03-02 01:02:03'],
    [3, 'n3', '3.25', '2024-03-03', '2024-03-03 01:02:03'],
    [4, 'n4', '4.25', '2024-03-04', '2024-03-04 01:02:03'],
    [5, 'n5', '5.25', '2024-03-05', null],
  ]);
  await assert.rejects(conn.execute(sql, ['x', 'n', T.NEWDECIMAL('1'), T.DATE('2024-01-01'), null]), /Incorrect integer value/);
});

test('statements of other kinds can be prepared too', async () => {
  const [ok] = await conn.execute('SET @pv = ?', [T.LONGLONG(77n)]);
  assert.equal((ok as mysql.ResultSetHeader).affectedRows, 0);
  assert.deepEqual((await rows('SELECT @pv', [])).map((row) => row.map(String)), [['77']]);
  const [shown] = await conn.execute({ sql: 'SHOW TABLES', rowsAsArray: true });
  assert.ok((shown as string[][]).some((row) => row[0] === 't'));
  await assert.rejects(conn.execute('SELECT nope FROM t WHERE k = ?', [1]), (err: mysql.QueryError) => err.errno === 1054);
});

test('many concurrent connections execute the same statement', async () => {
  const connections = await Promise.all(Array.from({ length: 12 }, () => open()));
  try {
    await Promise.all(
      connections.map(async (connection, connIdx) => {
        for (let round = 0; round < 15; round++) {
          const key = ((connIdx * 15 + round) % 300) + 1;
          assert.deepEqual(await rows('SELECT k, s FROM t WHERE k = ?', [key], connection), [[key, `s${key}`]]);
          assert.deepEqual(await rows('SELECT count(*) FROM t WHERE k <= ? AND flag = ?', [key, 1], connection), [[String(Math.ceil(key / 2))]]);
        }
      }),
    );
  } finally {
    await Promise.all(connections.map((connection) => connection.end()));
  }
});

test('a prepared statement that reads the session gets each connection\'s own value', async () => {
  const other = await open();
  try {
    const [[ownId]] = (await conn.query({ sql: 'SELECT connection_id()', rowsAsArray: true }))[0] as unknown[][];
    const [[otherId]] = (await other.query({ sql: 'SELECT connection_id()', rowsAsArray: true }))[0] as unknown[][];
    assert.notEqual(String(ownId), String(otherId));
    // The same text from two connections: a plan folded for one must not answer the other.
    assert.deepEqual((await rows('SELECT connection_id(), ? + 0', [1])).map((row) => String(row[0])), [String(ownId)]);
    assert.deepEqual((await rows('SELECT connection_id(), ? + 0', [1], other)).map((row) => String(row[0])), [String(otherId)]);
  } finally {
    await other.end();
  }
});

test('ALTER TABLE invalidates the plan; the next EXECUTE re-plans and is right', () => planned(async () => {
  await conn.query('CREATE TABLE inv (k INT, v VARCHAR(10)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
  await conn.query("INSERT INTO inv VALUES (1, 'one'), (2, 'two')");
  const sql = 'SELECT * FROM inv WHERE k = ?';
  assert.deepEqual(await rows(sql, [1]), [[1, 'one']]);
  assert.deepEqual(await rows(sql, [2]), [[2, 'two']]);
  assert.equal((await lastProfile(sql)).get('PlanCacheHits'), '1');
  await conn.query(`ALTER TABLE inv SET ("replication_num" = "1")`);
  assert.deepEqual(await rows(sql, [2]), [[2, 'two']]);
  const afterAlter = await lastProfile(sql);
  assert.equal(afterAlter.get('PlanCacheMisses'), '1', 'the schema change forced a new plan');
  assert.equal(afterAlter.get('PlanCacheHits'), undefined);
}));

test('DROP + CREATE under the same name re-plans against the new table', async () => {
  const statement = await conn.prepare('SELECT * FROM inv WHERE k = ?');
  try {
    assert.deepEqual((await statement.execute([1]))[0], [{ k: 1, v: 'one' }]);
    await conn.query('DROP TABLE inv');
    await assert.rejects(statement.execute([1]), (err: mysql.QueryError) => err.errno === 1146);
    await conn.query('CREATE TABLE inv (note VARCHAR(10), k BIGINT, extra INT) DUPLICATE KEY(note) DISTRIBUTED BY HASH(note) BUCKETS 1');
    await conn.query("INSERT INTO inv VALUES ('new', 1, 10), ('newer', 1, 20), ('other', 2, 30)");
    const [result] = await statement.execute([1]);
    assert.deepEqual(
      (result as Record<string, unknown>[]).sort((left, right) => String(left.note).localeCompare(String(right.note))),
      [
        { note: 'new', k: '1', extra: 10 },
        { note: 'newer', k: '1', extra: 20 },
      ],
    );
  } finally {
    await statement.close();
  }
});
