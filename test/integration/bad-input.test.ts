/**
 * Bad input from one client gets a MySQL/Doris error, changes nothing, and never disturbs other sessions.
 */
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { after, before, test } from 'node:test';
import { GaleneProcess, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

let server: GaleneProcess;
before(async () => {
  server = await startGalene();
});
after(async () => {
  await server.stop();
});

test('bad statements change nothing and the server keeps serving', async () => {
  const conn = await connect(server.ports.query_port);
  const observer = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE bad');
  await conn.query('CREATE TABLE bad.t (k INT NOT NULL, v VARCHAR(4)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
  await conn.query("INSERT INTO bad.t VALUES (1, 'one'), (2, 'two')");
  const snapshot = async (): Promise<unknown> => ({
    rows: await queryRows(observer, 'SELECT k, v FROM bad.t ORDER BY k'),
    tables: await queryRows(observer, 'SHOW TABLES FROM bad'),
    create: await queryRows(observer, 'SHOW CREATE TABLE bad.t'),
  });
  const before = await snapshot();
  const badStatements: [string, number][] = [
    ['SELEC 1', 1064],
    ["INSERT INTO bad.t VALUES (3, 'three!')", 1406],
    ['INSERT INTO bad.t VALUES (3, NULL), (NULL, NULL)', 1048],
    ["INSERT INTO bad.t VALUES (99999999999, 'x')", 1264],
    ["INSERT INTO bad.t VALUES ('x', 'x')", 1366],
    ['INSERT INTO bad.t (k) VALUES (1, 2)', 1136],
    ['CREATE TABLE bad.t (a INT) DUPLICATE KEY(a)', 1050],
    ['ALTER TABLE bad.t SET ("bogus" = "1")', 1105],
    ['SELECT nope FROM bad.t', 1054],
    ['SELECT * FROM bad.nope', 1146],
    ['USE nope_db', 1049],
    ["SELECT '" + 'x'.repeat(10) + ' FROM', 1064],
    ['SELECT ((((((((((((((((((((1', 1064],
    ['\u0000\u0001\u0002 garbage', 1064],
    ['SET no_such_var = 1', 1193],
  ];
  for (const [sql, errno] of badStatements) {
    await assert.rejects(conn.query(sql), (err: { errno: number; sqlState: string; message: string }) => {
      assert.equal(err.errno, errno, `${sql}: ${err.message}`);
      assert.ok(err.message.length > 0);
      return true;
    });
  }
  assert.deepEqual(await snapshot(), before);
  const [[one]] = await queryRows(conn, 'SELECT 1');
  assert.equal(one, '1');
  await conn.end();
  await observer.end();
});

test('protocol garbage from one socket does not affect others', async () => {
  const observer = await connect(server.ports.query_port);
  for (const payload of [Buffer.from([0xff, 0xff, 0xff, 0x00, 0x01]), Buffer.from('GET / HTTP/1.1\r\n\r\n'), Buffer.alloc(64 * 1024, 0x41)]) {
    await new Promise<void>((resolve) => {
      const socket = net.connect(server.ports.query_port, '127.0.0.1', () => socket.write(payload));
      socket.on('error', () => resolve());
      socket.on('close', () => resolve());
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 500);
    });
  }
  const [[value]] = await queryRows(observer, 'SELECT 40 + 2');
  assert.equal(value, '42');
  await observer.end();
});
