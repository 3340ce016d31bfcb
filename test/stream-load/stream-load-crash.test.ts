/**
 * Stream Load across a crash: a load killed mid-body (SIGKILL) leaves nothing visible and no objects after
 * restart; a pre-committed two-phase load survives the restart and can still be committed; labels expire
 * after label_keep_max_second.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { storedObjectKeys } from '../helpers/storage-matrix';
import { count, curlLoad, httpPut, segmentFiles, sleep } from './helpers';

test('SIGKILL mid-load: after restart nothing of that load is visible, the table is consistent, no orphans', async () => {
  const dataDir = makeDataDir();
  const first = await startGalene({ dataDir, args: ['--label_keep_max_second', '2'] });
  const conn = await connect(first.ports.query_port);
  await conn.query('CREATE DATABASE kl');
  await conn.query('CREATE TABLE kl.t (id INT NOT NULL, s VARCHAR(20)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 3');
  const csvFile = path.join(dataDir, 'pre.csv');
  fs.writeFileSync(csvFile, Array.from({ length: 100 }, (_v, idx) => `${idx},pre`).join('\n') + '\n');
  const pre = await curlLoad(`http://127.0.0.1:${first.ports.http_port}/api/kl/t/_stream_load`, csvFile, ['column_separator:,', 'label:pre']);
  assert.equal(pre.json.Status, 'Success', pre.body);
  // A two-phase load left pre-committed across the crash.
  const prepared = await curlLoad(`http://127.0.0.1:${first.ports.webserver_port}/api/kl/t/_stream_load`, csvFile, ['column_separator:,', 'label:two_phase', 'two_phase_commit:true', 'columns: tmp, s, id = tmp + 1000']);
  assert.equal(prepared.json.Status, 'Success', prepared.body);

  // A big chunked load that flushes several times, killed before its body ends.
  let wrote = 0;
  const dying = httpPut(first.ports.webserver_port, '/api/kl/t/_stream_load', { column_separator: ',', exec_mem_limit: '65536', label: 'killed', 'Transfer-Encoding': 'chunked' }, async (req) => {
    for (let partIdx = 0; partIdx < 1000 && !req.destroyed; partIdx++) {
      req.write(Array.from({ length: 5000 }, (_v, idx) => `${10_000 + partIdx * 5000 + idx},dying`).join('\n') + '\n');
      wrote++;
      await sleep(30);
    }
  }).catch(() => 'gone');
  const before = (await segmentFiles(conn, dataDir, ['kl.t'])).onDisk;
  // Wait until the dying load has written segments of its own.
  for (let attempt = 0; attempt < 100; attempt++) {
    await sleep(100);
    if ((await segmentFiles(conn, dataDir, ['kl.t'])).onDisk > before) break;
  }
  assert.ok((await segmentFiles(conn, dataDir, ['kl.t'])).onDisk > before, `the load flushed before the kill (${wrote} parts sent)`);
  assert.equal(await count(conn, 'kl.t'), 100, 'not visible while running');
  conn.destroy();
  assert.equal(await first.kill('SIGKILL'), null);
  await dying;
  assert.ok((await storedObjectKeys(dataDir)).length > 0, 'the killed server left its objects');

  const second = await startGalene({ dataDir, args: ['--label_keep_max_second', '2'] });
  try {
    const conn2 = await connect(second.ports.query_port);
    assert.equal(await count(conn2, 'kl.t'), 100);
    const [[total, distinct]] = await queryRows(conn2, 'SELECT count(*), count(DISTINCT id) FROM kl.t');
    assert.equal(total, distinct);
    const [killed] = await queryRows(conn2, "SHOW TRANSACTION FROM kl WHERE LABEL = 'killed'");
    assert.equal(killed[3], 'ABORTED');
    // The pre-committed load survived: its segments were kept, and it commits now.
    const [twoPhase] = await queryRows(conn2, "SHOW TRANSACTION FROM kl WHERE LABEL = 'two_phase'");
    assert.equal(twoPhase[3], 'PRECOMMITTED');
    const commit = await httpPut(second.ports.http_port, '/api/kl/_stream_load_2pc', { txn_id: String(prepared.json.TxnId), txn_operation: 'commit' }, async () => undefined);
    assert.equal(commit.json.status, 'Success', commit.body);
    const reuseEarly = await curlLoad(`http://127.0.0.1:${second.ports.webserver_port}/api/kl/t/_stream_load`, csvFile, ['column_separator:,', 'label:two_phase']);
    assert.equal(reuseEarly.json.Status, 'Label Already Exists');
    assert.equal(await count(conn2, 'kl.t'), 200);
    assert.deepEqual(await queryRows(conn2, 'SELECT s FROM kl.t WHERE id = 1099'), [['pre']]);
    const segments = await segmentFiles(conn2, dataDir, ['kl.t']);
    assert.equal(segments.onDisk, segments.referenced, 'no orphan segment objects after restart');
    // label_keep_max_second = 2: a finished label is kept, then becomes usable again.
    await sleep(2200);
    const reuse = await curlLoad(`http://127.0.0.1:${second.ports.webserver_port}/api/kl/t/_stream_load`, csvFile, ['column_separator:,', 'label:two_phase', 'columns: tmp, s, id = tmp + 5000']);
    assert.equal(reuse.json.Status, 'Success', reuse.body);
    conn2.destroy();
  } finally {
    await second.stop();
  }
});
