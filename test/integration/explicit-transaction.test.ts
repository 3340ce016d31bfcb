/**
 * BEGIN; INSERT ...; INSERT ...; COMMIT as in Doris: the inserts become visible together; ROLLBACK and a
 * dropped connection leave nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

test('explicit transactions: commit together, rollback, disconnect, label, restrictions', async () => {
  const server = await startGalene();
  try {
    const conn = await connect(server.ports.query_port);
    const observer = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE tx');
    await conn.query('USE tx');
    await conn.query('CREATE TABLE a (k INT, v VARCHAR(10)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
    await conn.query('CREATE TABLE b (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
    const count = async (table: string): Promise<string> => (await queryRows(observer, `SELECT count(*) FROM tx.${table}`))[0][0]!;

    const [begin] = (await conn.query('BEGIN WITH LABEL tx_label_1')) as unknown as [{ info: string; serverStatus: number }];
    assert.match(begin.info, /'label':'tx_label_1', 'status':'PREPARE'/);
    await conn.query("INSERT INTO a VALUES (1, 'x'), (2, 'y')");
    await conn.query('INSERT INTO b VALUES (1, 10)');
    // Reads inside the transaction see committed data only (no read-your-writes, as in Doris).
    const [[seen]] = await queryRows(conn, 'SELECT count(*) FROM a');
    assert.equal(seen, '0');
    await conn.query('INSERT INTO b SELECT 101, 5');
    assert.equal(await count('a'), '0', 'nothing visible before COMMIT');
    assert.equal(await count('b'), '0');
    await assert.rejects(conn.query('CREATE TABLE c (k INT) DUPLICATE KEY(k)'), /not allowed in a transaction/);
    const [commit] = (await conn.query('COMMIT')) as unknown as [{ info: string }];
    assert.match(commit.info, /'status':'VISIBLE', 'txnId':'\d+'/);
    assert.equal(await count('a'), '2');
    assert.equal(await count('b'), '2');
    const [[version]] = await queryRows(observer, "SHOW TRANSACTION FROM tx WHERE LABEL = 'tx_label_1'");
    assert.ok(version, 'the transaction is listed under its label');

    await conn.query('BEGIN');
    await conn.query("INSERT INTO a VALUES (3, 'z')");
    await conn.query('ROLLBACK');
    assert.equal(await count('a'), '2', 'rolled back');

    await conn.query('BEGIN WITH LABEL tx_label_1');
    await assert.rejects(conn.query("INSERT INTO a VALUES (4, 'w')"), /already been used/);
    await conn.query('ROLLBACK');

    const dropped = await connect(server.ports.query_port, { database: 'tx' });
    await dropped.query('BEGIN');
    await dropped.query("INSERT INTO a VALUES (5, 'gone')");
    dropped.destroy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await count('a'), '2', 'a dropped connection rolls back');
    await conn.end();
    await observer.end();
  } finally {
    await server.stop();
  }
});
