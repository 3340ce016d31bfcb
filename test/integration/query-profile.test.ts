/**
 * Every query keeps a profile readable with SHOW QUERY PROFILE; scans prune with zone maps and read
 * only the columns a query needs; EXPLAIN shows the plan.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

test('SHOW QUERY PROFILE, pruning counters, EXPLAIN', async () => {
  const server = await startGalene();
  try {
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE prof');
    await conn.query('USE prof');
    await conn.query('CREATE TABLE t (k INT, a BIGINT, b VARCHAR(20)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
    for (let chunk = 0; chunk < 10; chunk++) {
      const values = Array.from({ length: 20_000 }, (_v, idx) => {
        const k = chunk * 20_000 + idx;
        return `(${k}, ${k * 2}, 'name${k % 100}')`;
      }).join(',');
      await conn.query(`INSERT INTO t VALUES ${values}`);
    }
    const [[sum]] = await queryRows(conn, 'SELECT sum(a) FROM t WHERE k >= 150000 AND k < 150010');
    assert.equal(sum, String(2 * (150000 * 10 + 45)));
    const list = await queryRows(conn, 'SHOW QUERY PROFILE "/"');
    const entry = list.find((row) => row[8]!.startsWith('SELECT sum(a) FROM t WHERE k >= 150000'));
    assert.ok(entry, 'the query is listed');
    const detail = new Map((await queryRows(conn, `SHOW QUERY PROFILE "/${entry[0]}"`)).map(([name, value]) => [name, value]));
    assert.ok(Number(detail.get('PagesPruned') ?? 0) > 0 || Number(detail.get('SegmentsPruned') ?? 0) > 0, `zone maps pruned: ${JSON.stringify([...detail])}`);
    assert.ok(Number(detail.get('RowsRead')) < 200_000, `rows read ${detail.get('RowsRead')}`);
    assert.ok(detail.has('Column.a.BytesRead') || detail.has('Column.k.BytesRead'), 'per-column reads recorded');
    assert.ok(!detail.has('Column.b.BytesRead'), 'column b is not read');
    assert.ok(Number(detail.get('ParseTimeMs')) >= 0 && detail.has('PlanTimeMs') && detail.has('ExecTimeMs'));

    const explain = (await queryRows(conn, 'EXPLAIN SELECT b, count(*) FROM t WHERE k < 10 GROUP BY b')).map(([line]) => line).join('\n');
    assert.match(explain, /Scan/i);
    assert.match(explain, /k/);
    await conn.end();
  } finally {
    await server.stop();
  }
});
