/**
 * score() through a real server and mysql2: the statements Doris rejects get Doris's message (errno 1105)
 * and change nothing.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Connection } from 'mysql2/promise';
import { makeDataDir, startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

let server: GaleneProcess;
let conn: Connection;

before(async () => {
  server = await startGalene({ dataDir: makeDataDir('galene-bm25-') });
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE bm25');
  await conn.query('USE bm25');
  await conn.query(`CREATE TABLE docs (id INT NOT NULL, status INT, body STRING,
    INDEX idx_body (body) USING INVERTED PROPERTIES("parser" = "english", "support_phrase" = "true"))
    DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`);
  await conn.query("INSERT INTO docs VALUES (1, 200, 'olap is fast'), (2, 404, 'vector search'), (3, 200, 'olap and vector')");
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

async function errorOf(sql: string): Promise<{ errno: number; message: string }> {
  try {
    await conn.query(sql);
  } catch (err) {
    const { errno, sqlMessage } = err as { errno: number; sqlMessage: string };
    return { errno, message: sqlMessage };
  }
  throw new Error(`no error: ${sql}`);
}

test("score() outside WHERE MATCH ... ORDER BY score LIMIT n: Doris's messages", async () => {
  const usage = 'errCode = 2, detailMessage = score() function requires WHERE clause with MATCH function, ORDER BY and LIMIT for optimization';
  assert.deepEqual(await errorOf('SELECT score() AS score FROM docs LIMIT 10'), { errno: 1105, message: usage });
  assert.deepEqual(await errorOf('SELECT score() FROM docs'), { errno: 1105, message: usage });
  assert.deepEqual(await errorOf('SELECT score() AS score FROM docs WHERE status = 200 LIMIT 10'), { errno: 1105, message: usage });
  assert.deepEqual(await errorOf('SELECT * FROM (SELECT score() AS s FROM docs WHERE status = 200) t'), { errno: 1105, message: usage });
  assert.deepEqual(await errorOf("SELECT score() AS score FROM docs WHERE body = 'olap' ORDER BY score() LIMIT 10"), {
    errno: 1105,
    message: 'errCode = 2, detailMessage = WHERE clause must contain at least one MATCH function for score() push down optimization',
  });
  assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM docs'), [['3']], 'nothing changed');
});
