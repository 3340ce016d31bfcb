/**
 * Reads over a table of ~1,000 small segments (one rowset per INSERT, auto compaction off), alone and
 * while 20 clients insert into the same table: every count and sum is exact for the snapshot it read (at
 * least what was acknowledged before it started, at most what was acknowledged when it ended), and the
 * table reads the same after a restart (the catalog's in-memory rowset list, kept up to date on publish,
 * matches the meta store). Not timed: the machine is shared.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

const SEGMENTS = 1000;
const WRITERS = 20;
const INSERTS_PER_WRITER = 25;

test('count(*) and sum over 1,000 segments are exact, alone, under 20 writers, and after a restart', async () => {
  const server = await startGalene();
  let dataDir = server.dataDir;
  try {
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE cms');
    await conn.query('CREATE TABLE cms.t (k INT, v VARCHAR(20)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("disable_auto_compaction" = "true")');
    // Ten connections make the 1,000 single-row rowsets.
    const fillers = await Promise.all(Array.from({ length: 10 }, () => connect(server.ports.query_port)));
    await Promise.all(fillers.map(async (filler, fillerIdx) => {
      for (let k = fillerIdx; k < SEGMENTS; k += fillers.length) await filler.query(`INSERT INTO cms.t VALUES (${k}, 'v${k}')`);
    }));
    await Promise.all(fillers.map((filler) => filler.end()));
    const expectedSum = (SEGMENTS * (SEGMENTS - 1)) / 2;
    assert.deepEqual(await queryRows(conn, 'SELECT count(*), sum(k), count(v) FROM cms.t'), [[String(SEGMENTS), String(expectedSum), String(SEGMENTS)]]);
    const tablets = await queryRows(conn, 'SHOW TABLETS FROM cms.t');
    assert.equal(Number(tablets[0][2]), SEGMENTS, 'one rowset per INSERT');

    // 20 writers insert keys >= 100000 while one reader counts; every answer lies between the rows
    // acknowledged before the count started and those acknowledged when it returned.
    let acknowledged = 0;
    let acknowledgedSum = 0;
    const writers = await Promise.all(Array.from({ length: WRITERS }, () => connect(server.ports.query_port)));
    const writing = Promise.all(writers.map(async (writer, writerIdx) => {
      for (let insertIdx = 0; insertIdx < INSERTS_PER_WRITER; insertIdx++) {
        const k = 100_000 + writerIdx * 1000 + insertIdx;
        await writer.query(`INSERT INTO cms.t VALUES (${k}, 'w')`);
        acknowledged++;
        acknowledgedSum += k;
      }
    }));
    let done = false;
    void writing.then(() => (done = true), () => (done = true));
    let counts = 0;
    while (!done) {
      const before = acknowledged;
      const [[count, countV, maxK]] = await queryRows(conn, 'SELECT count(*), count(v), max(k) FROM cms.t');
      const after = acknowledged;
      assert.ok(Number(count) >= SEGMENTS + before && Number(count) <= SEGMENTS + after, `count ${count} within [${SEGMENTS + before}, ${SEGMENTS + after}]`);
      assert.equal(countV, count);
      assert.ok(Number(maxK) >= SEGMENTS - 1);
      counts++;
    }
    await writing;
    await Promise.all(writers.map((writer) => writer.end()));
    assert.ok(counts > 0);
    const total = SEGMENTS + WRITERS * INSERTS_PER_WRITER;
    assert.equal(acknowledged, WRITERS * INSERTS_PER_WRITER);
    const final = [[String(total), String(expectedSum + acknowledgedSum)]];
    assert.deepEqual(await queryRows(conn, 'SELECT count(*), sum(k) FROM cms.t'), final);
    assert.deepEqual(await queryRows(conn, "SELECT count(*) FROM cms.t WHERE v = 'w'"), [[String(WRITERS * INSERTS_PER_WRITER)]]);
    await conn.end();
    await server.stop();
    dataDir = server.dataDir;

    const again = await startGalene({ dataDir });
    try {
      const conn2 = await connect(again.ports.query_port);
      assert.deepEqual(await queryRows(conn2, 'SELECT count(*), sum(k) FROM cms.t'), final);
      await conn2.end();
    } finally {
      await again.stop();
    }
  } finally {
    if (server.child.exitCode === null) await server.stop();
  }
});
