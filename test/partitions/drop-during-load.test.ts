/**
 * A partition dropped while a load into it runs: the load fails as a whole at publish (its rows would sit
 * in tablets no query reads), nothing of it is visible, and the other partitions keep their rows. DDL
 * under an open async Group Commit batch commits the batch first.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { httpGet, httpPut, sleep } from '../stream-load/helpers';

test('DROP PARTITION during a Stream Load into it fails the load at publish; nothing of it is visible', async () => {
  const server = await startGalene();
  const conn = await connect(server.ports.query_port);
  try {
    await conn.query('CREATE DATABASE dp');
    await conn.query(`CREATE TABLE dp.ev (dt DATE NOT NULL, id INT NOT NULL) DUPLICATE KEY(dt, id)
      PARTITION BY RANGE(dt) (PARTITION p1 VALUES LESS THAN ("2024-02-01"), PARTITION p2 VALUES LESS THAN ("2024-03-01"))
      DISTRIBUTED BY HASH(id) BUCKETS 2`);
    await conn.query("INSERT INTO dp.ev VALUES ('2024-02-10', 1)");
    // Every row of the body is sent, then the partition is dropped before the body ends.
    let sent!: () => void;
    const allSent = new Promise<void>((resolve) => (sent = resolve));
    let dropped!: () => void;
    const dropDone = new Promise<void>((resolve) => (dropped = resolve));
    const load = httpPut(server.ports.webserver_port, '/api/dp/ev/_stream_load', { column_separator: ',', 'Transfer-Encoding': 'chunked' }, async (req) => {
      req.write(Array.from({ length: 500 }, (_v, idx) => `2024-01-${String((idx % 28) + 1).padStart(2, '0')},${idx + 100}`).join('\n') + '\n');
      req.write('2024-02-20,99\n');
      await sleep(300);
      sent();
      await dropDone;
    });
    await allSent;
    await conn.query('ALTER TABLE dp.ev DROP PARTITION p1');
    dropped();
    const result = await load;
    assert.notEqual(result.json.Status, 'Success', result.body);
    assert.match(String(result.json.Message), /no longer exists/, result.body);
    // The row of p2 from the failed load is not visible either; the earlier row is.
    assert.deepEqual(await queryRows(conn, 'SELECT dt, id FROM dp.ev ORDER BY id'), [['2024-02-10', '1']]);
  } finally {
    conn.destroy();
    await server.stop();
  }
});

test('partition and light column changes under an open async Group Commit batch commit the batch first, leaving no WAL', async () => {
  const server = await startGalene();
  const conn = await connect(server.ports.query_port);
  const walCount = async (): Promise<string | undefined> => /^doris_be_wal_total_count (\d+)$/m.exec((await httpGet(`http://127.0.0.1:${server.ports.webserver_port}/metrics`)).body)?.[1];
  // With a ten-minute interval only the DDL's drain can make the batch's rows visible during the test.
  const asyncInsert = async (values: string): Promise<void> => {
    await conn.query('SET group_commit = async_mode');
    await conn.query(`INSERT INTO dp.gc VALUES ${values}`);
    await conn.query('SET group_commit = off_mode');
    assert.equal(await walCount(), '1', 'the acknowledged rows wait in a WAL');
  };
  try {
    await conn.query('CREATE DATABASE dp');
    await conn.query(`CREATE TABLE dp.gc (dt DATE NOT NULL, id INT NOT NULL, note VARCHAR(10)) DUPLICATE KEY(dt, id)
      PARTITION BY RANGE(dt) (PARTITION p1 VALUES LESS THAN ("2024-02-01"), PARTITION p2 VALUES LESS THAN ("2024-03-01"))
      DISTRIBUTED BY HASH(id) BUCKETS 2 PROPERTIES ("group_commit_interval_ms" = "600000")`);
    await asyncInsert("('2024-01-10', 1, 'a'), ('2024-02-10', 2, 'b')");
    await conn.query('ALTER TABLE dp.gc DROP PARTITION p1');
    assert.deepEqual(await queryRows(conn, 'SELECT id FROM dp.gc ORDER BY id'), [['2']], "p1's row went with p1; p2's committed");
    await asyncInsert("('2024-02-11', 3, 'c')");
    await conn.query('ALTER TABLE dp.gc ADD PARTITION p3 VALUES LESS THAN ("2024-04-01")');
    assert.deepEqual(await queryRows(conn, 'SELECT id FROM dp.gc ORDER BY id'), [['2'], ['3']]);
    await asyncInsert("('2024-03-05', 4, 'd')");
    await conn.query('ALTER TABLE dp.gc MODIFY COLUMN note VARCHAR(20)');
    assert.deepEqual(await queryRows(conn, 'SELECT id, note FROM dp.gc ORDER BY id'), [['2', 'b'], ['3', 'c'], ['4', 'd']]);
    assert.equal(await walCount(), '0');
  } finally {
    conn.destroy();
    await server.stop();
  }
});
