// l2_distance / inner_product over whole columns on a real server run through the WebAssembly SIMD batch
// kernel (common/vector-distance.ts distanceBatch): the values mysql2 sees (FLOAT, and its exact DOUBLE
// widening) equal a server running the JS loops only (GALENE_NO_WASM_SIMD=1), equal one-row queries
// (which take the JS loop), and equal the distances computed here; ORDER BY ... LIMIT agrees with a sort.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Connection } from 'mysql2/promise';
import { mulberry32 } from '../../src/common/prng';
import { dotProduct, l2Squared } from '../../src/common/vector-distance';
import { startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

const DIM = 37;
const ROWS = 3000;
const random = mulberry32(2026);
const vectors = Float32Array.from({ length: ROWS * DIM }, () => Math.round((random() * 4 - 2) * 1000) / 1000);
const query = Float32Array.from({ length: DIM }, () => Math.round((random() * 4 - 2) * 1000) / 1000);
const queryText = `[${Array.from(query).join(', ')}]`;

const servers: GaleneProcess[] = [];
const conns: Connection[] = [];

before(async () => {
  for (const env of [{}, { GALENE_NO_WASM_SIMD: '1' }]) {
    const server = await startGalene({ env });
    servers.push(server);
    const conn = await connect(server.ports.query_port);
    conns.push(conn);
    await conn.query('CREATE DATABASE kern');
    await conn.query('USE kern');
    await conn.query('CREATE TABLE t (id INT, embedding ARRAY<FLOAT> NOT NULL) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
    for (let first = 0; first < ROWS; first += 1000) {
      const values: string[] = [];
      for (let row = first; row < first + 1000; row++) values.push(`(${row}, [${Array.from(vectors.subarray(row * DIM, (row + 1) * DIM)).join(',')}])`);
      await conn.query(`INSERT INTO t VALUES ${values.join(',')}`);
    }
  }
});

after(async () => {
  for (const conn of conns) await conn.end();
  for (const server of servers) await server.stop();
});

const SELECT_ALL = `SELECT id, l2_distance(embedding, ${queryText}), CAST(l2_distance(embedding, ${queryText}) AS DOUBLE), CAST(inner_product(${queryText}, embedding) AS DOUBLE) FROM t ORDER BY id`;

test('column distances: the SIMD batch equals the JS-only server, one-row queries and the loops here', async () => {
  const [simd, jsOnly] = await Promise.all(conns.map((conn) => queryRows(conn, SELECT_ALL)));
  assert.equal(simd.length, ROWS);
  assert.deepEqual(simd, jsOnly);
  for (let row = 0; row < ROWS; row++) {
    const l2 = Math.fround(Math.sqrt(l2Squared(vectors, row * DIM, query, 0, DIM)));
    const ip = Math.fround(dotProduct(query, 0, vectors, row * DIM, DIM));
    assert.equal(Number(simd[row][2]), l2, `row ${row} l2`);
    assert.equal(Number(simd[row][3]), ip, `row ${row} inner_product`);
  }
  for (const id of [0, 1234, ROWS - 1]) {
    const one = await queryRows(conns[0], SELECT_ALL.replace('FROM t ORDER BY id', `FROM t WHERE id = ${id}`));
    assert.deepEqual(one, [simd[id]]);
  }
});

test('ORDER BY l2_distance LIMIT and a distance predicate agree with a sort of the exact distances', async () => {
  const order = Array.from({ length: ROWS }, (_, row) => row).sort((a, b) => Math.fround(Math.sqrt(l2Squared(vectors, a * DIM, query, 0, DIM))) - Math.fround(Math.sqrt(l2Squared(vectors, b * DIM, query, 0, DIM))) || a - b);
  const top = await queryRows(conns[0], `SELECT id FROM t ORDER BY l2_distance(embedding, ${queryText}), id LIMIT 25`);
  assert.deepEqual(top.map((row) => Number(row[0])), order.slice(0, 25));
  const cut = Math.fround(Math.sqrt(l2Squared(vectors, order[99] * DIM, query, 0, DIM)));
  const [[count]] = await queryRows(conns[0], `SELECT count(*) FROM t WHERE CAST(l2_distance(embedding, ${queryText}) AS DOUBLE) <= ${cut}`);
  assert.equal(Number(count), order.filter((row) => Math.fround(Math.sqrt(l2Squared(vectors, row * DIM, query, 0, DIM))) <= cut).length);
});
