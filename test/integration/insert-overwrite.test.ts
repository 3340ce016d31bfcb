/**
 * INSERT OVERWRITE is an atomic replace: a reader running alongside sees the old rows or the new ones,
 * never a mix of the two; a failing overwrite leaves the old rows; the replaced content survives a
 * SIGKILL right after the statement returns.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GaleneProcess, makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

const ROWS = 3000;
let server: GaleneProcess;
const dataDir = makeDataDir();
before(async () => {
  server = await startGalene({ dataDir });
});
after(async () => {
  await server?.stop();
});

test('concurrent readers see the old or the new table, never a mix', async () => {
  const writer = await connect(server.ports.query_port);
  const reader = await connect(server.ports.query_port);
  await writer.query('CREATE DATABASE ow');
  await writer.query('CREATE TABLE ow.t (k INT NOT NULL, gen INT NOT NULL) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 4');
  const values = Array.from({ length: ROWS }, (_v, rowIdx) => `(${rowIdx}, 0)`).join(',');
  await writer.query(`INSERT INTO ow.t VALUES ${values}`);
  const GENERATIONS = 8;
  let done = false;
  const seen = new Set<number>();
  const reads = (async () => {
    while (!done) {
      const [[count, lo, hi]] = await queryRows(reader, 'SELECT count(*), min(gen), max(gen) FROM ow.t');
      assert.equal(Number(count), ROWS, 'a reader saw a partial table');
      assert.equal(lo, hi, 'a reader saw rows of two generations');
      seen.add(Number(lo));
    }
  })();
  try {
    for (let gen = 1; gen <= GENERATIONS; gen++) {
      // The new content is computed from the old (the statement reads the table it replaces).
      await writer.query(`INSERT OVERWRITE TABLE ow.t SELECT k, gen + 1 FROM ow.t`);
    }
  } finally {
    done = true;
    await reads;
  }
  assert.deepEqual(await queryRows(writer, 'SELECT count(*), min(gen), max(gen) FROM ow.t'), [[String(ROWS), String(GENERATIONS), String(GENERATIONS)]]);
  assert.ok(seen.size >= 1);
  await writer.end();
  await reader.end();
});

test('a failing overwrite leaves the old rows; the new content survives SIGKILL', async () => {
  const conn = await connect(server.ports.query_port);
  await conn.query('CREATE TABLE ow.s (k INT NOT NULL, v VARCHAR(3)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
  await conn.query("INSERT INTO ow.s VALUES (1, 'a'), (2, 'b'), (3, 'c')");
  await assert.rejects(conn.query("INSERT OVERWRITE TABLE ow.s SELECT k, concat(v, 'toolong') FROM ow.s"), (err: { errno?: number }) => err.errno === 1406);
  assert.deepEqual(await queryRows(conn, 'SELECT k, v FROM ow.s ORDER BY k'), [['1', 'a'], ['2', 'b'], ['3', 'c']]);
  // A merge-on-write table: keys repeated within the overwrite keep their last row.
  await conn.query("INSERT OVERWRITE TABLE ow.s VALUES (5, 'x'), (6, 'y'), (5, 'z')");
  await conn.end();
  await server.kill('SIGKILL');
  server = await startGalene({ dataDir });
  const after = await connect(server.ports.query_port);
  assert.deepEqual(await queryRows(after, 'SELECT k, v FROM ow.s ORDER BY k'), [['5', 'z'], ['6', 'y']]);
  assert.deepEqual(await queryRows(after, 'SELECT count(*) FROM ow.t'), [[String(ROWS)]]);
  await after.end();
});
