/**
 * Partitioned tables through a real server: every load path (Stream Load, Group Commit, prepared INSERT)
 * routes rows to their partition and filters a row no partition holds with Doris's reason (in the
 * ErrorURL log, against max_filter_ratio); pruned partitions' tablets are not read (profile counters);
 * SHOW PARTITIONS shows Doris's columns; partitions and their rows survive a restart.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { GaleneProcess, makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, lastQueryProfile, queryRecords, queryRows } from '../helpers/mysql-client';
import { curlGet, curlLoad } from '../stream-load/helpers';

describe('partitioned tables over the wire', () => {
  const dataDir = makeDataDir('galene-partitions-');
  const files = makeDataDir('galene-partitions-files-');
  let server: GaleneProcess;
  let conn: Connection;
  const loadUrl = (table: string): string => `http://127.0.0.1:${server.ports.webserver_port}/api/pt/${table}/_stream_load`;
  const file = (name: string, content: string): string => {
    const full = path.join(files, name);
    fs.writeFileSync(full, content);
    return full;
  };
  const partitionRows = async (table: string): Promise<string[][]> =>
    (await queryRows(conn, `SELECT PARTITION_NAME, TABLE_ROWS FROM information_schema.partitions WHERE TABLE_SCHEMA = 'pt' AND TABLE_NAME = '${table}' ORDER BY PARTITION_NAME`)) as string[][];

  before(async () => {
    server = await startGalene({ dataDir });
    conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE pt');
    await conn.query(`CREATE TABLE pt.ev (dt DATE NOT NULL, id INT NOT NULL, v INT) DUPLICATE KEY(dt, id)
      PARTITION BY RANGE(dt) (PARTITION p1 VALUES LESS THAN ("2024-02-01"), PARTITION p2 VALUES LESS THAN ("2024-03-01"), PARTITION p3 VALUES LESS THAN ("2024-04-01"))
      DISTRIBUTED BY HASH(id) BUCKETS 4`);
  });

  after(async () => {
    conn?.destroy();
    await server?.stop();
  });

  test('SHOW TABLETS names each tablet\'s partition, filters by PARTITION (...), honours LIMIT', async () => {
    const all = await queryRows(conn, 'SHOW TABLETS FROM pt.ev');
    assert.equal(all.length, 12);
    const picked = await queryRows(conn, 'SHOW TABLETS FROM pt.ev PARTITION (p1, p3)');
    assert.deepEqual([...new Set(picked.map((row) => row[row.length - 1]))].sort(), ['p1', 'p3']);
    assert.equal(picked.length, 8);
    assert.equal((await queryRows(conn, 'SHOW TABLETS FROM pt.ev PARTITION p2 LIMIT 3')).length, 3);
    await assert.rejects(conn.query('SHOW TABLETS FROM pt.ev PARTITION (nope)'), /Partition: nope does not exist/);
  });

  test('Stream Load: rows without a partition are filtered with Doris\'s reason, counted against max_filter_ratio', async () => {
    const csv = file('ev.csv', ['2024-01-05,1,10', '2024-02-05,2,20', '2025-01-01,3,30', '2024-03-31,4,40', '2023-12-31,5,50'].join('\n') + '\n');
    const failed = await curlLoad(loadUrl('ev'), csv, ['column_separator:,', 'label:pt_fail']);
    assert.equal(failed.json.Status, 'Fail', failed.body);
    assert.equal(failed.json.Message, '[DATA_QUALITY_ERROR]too many filtered rows');
    assert.equal(failed.json.NumberFilteredRows, 1);
    const log = await curlGet(String(failed.json.ErrorURL));
    assert.match(log.body, /Line: 3; Reason: no partition for this tuple\. tuple=\{dt=2025-01-01\}.*Src line: \[2025-01-01,3,30\]/);
    assert.deepEqual(await partitionRows('ev'), [['p1', '0'], ['p2', '0'], ['p3', '0']]);
    const passed = await curlLoad(loadUrl('ev'), csv, ['column_separator:,', 'label:pt_pass', 'max_filter_ratio:0.5']);
    assert.equal(passed.json.Status, 'Success', passed.body);
    assert.equal(passed.json.NumberLoadedRows, 4);
    assert.equal(passed.json.NumberFilteredRows, 1);
    assert.deepEqual(await partitionRows('ev'), [['p1', '2'], ['p2', '1'], ['p3', '1']]);
  });

  test('Group Commit (Stream Load and INSERT) and prepared INSERT route rows to their partitions', async () => {
    const csv = file('gc.csv', '2024-03-10,6,60\n2024-01-10,7,70\n');
    const grouped = await curlLoad(loadUrl('ev'), csv, ['column_separator:,', 'group_commit:sync_mode']);
    assert.equal(grouped.json.Status, 'Success', grouped.body);
    await conn.query('SET group_commit = sync_mode');
    await conn.query("INSERT INTO pt.ev VALUES ('2024-02-20', 8, 80)");
    await assert.rejects(conn.query("INSERT INTO pt.ev VALUES ('2030-01-01', 9, 90)"), /no partition for this tuple/);
    await conn.query('SET group_commit = off_mode');
    await conn.execute('INSERT INTO pt.ev VALUES (?, ?, ?), (?, ?, ?)', ['2024-02-21', 10, 100, '2024-03-22', 11, 110]);
    await assert.rejects(conn.execute('INSERT INTO pt.ev VALUES (?, ?, ?)', ['2099-01-01', 12, 120]), /no partition for this tuple/);
    assert.deepEqual(await partitionRows('ev'), [['p1', '3'], ['p2', '3'], ['p3', '3']]);
  });

  test('pruned partitions\' tablets are not read; EXPLAIN says partitions=k/n', async () => {
    const rows = await queryRows(conn, "SELECT id FROM pt.ev WHERE dt >= '2024-02-01' AND dt < '2024-03-01' ORDER BY id");
    assert.deepEqual(rows, [['2'], ['8'], ['10']]);
    const pruned = await lastQueryProfile(conn);
    assert.equal(Number(pruned.get('TabletsScanned')), 4, 'the 4 tablets of p2 only');
    assert.equal(Number(pruned.get('TabletsPruned')), 8);
    await queryRows(conn, 'SELECT count(*) FROM pt.ev');
    assert.equal(Number((await lastQueryProfile(conn)).get('TabletsScanned')), 12);
    const explain = (await queryRows(conn, "EXPLAIN SELECT id FROM pt.ev WHERE dt >= '2024-02-01' AND dt < '2024-03-01'")).map((row) => row[0]!.trim());
    assert.ok(explain.includes('partitions=1/3 (p2)'), explain.join('\n'));
  });

  test('SHOW PARTITIONS: Doris\'s columns, one row per partition with its buckets and rows', async () => {
    await conn.query('ALTER TABLE pt.ev ADD PARTITION p4 VALUES LESS THAN ("2024-05-01") DISTRIBUTED BY HASH(id) BUCKETS 2');
    const records = await queryRecords(conn, 'SHOW PARTITIONS FROM pt.ev');
    assert.deepEqual(Object.keys(records[0]), ['PartitionId', 'PartitionName', 'VisibleVersion', 'VisibleVersionTime', 'State', 'PartitionKey', 'Range', 'DistributionKey', 'Buckets', 'ReplicationNum', 'StorageMedium', 'CooldownTime', 'RemoteStoragePolicy', 'LastConsistencyCheckTime', 'DataSize', 'IsInMemory', 'ReplicaAllocation', 'IsMutable', 'SyncWithBaseTables', 'UnsyncTables', 'CommittedVersion', 'RowCount']);
    assert.deepEqual(records.map((record) => [record.PartitionName, record.Buckets, record.RowCount, record.PartitionKey, record.DistributionKey]), [
      ['p1', '4', '3', 'dt', 'id'], ['p2', '4', '3', 'dt', 'id'], ['p3', '4', '3', 'dt', 'id'], ['p4', '2', '0', 'dt', 'id'],
    ]);
    assert.equal(records[3].Range, '[types: [DATEV2]; keys: [2024-04-01]; ..types: [DATEV2]; keys: [2024-05-01]; )');
    assert.deepEqual((await queryRecords(conn, "SHOW PARTITIONS FROM pt.ev WHERE PartitionName = 'p2'")).map((record) => record.PartitionName), ['p2']);
  });

  test('AUTO PARTITION: Stream Load and Group Commit create the partitions their rows need', async () => {
    await conn.query(`CREATE TABLE pt.auto_ev (ts DATETIME NOT NULL, id INT NOT NULL) DUPLICATE KEY(ts)
      AUTO PARTITION BY RANGE (date_trunc(ts, 'month')) () DISTRIBUTED BY HASH(id) BUCKETS 2`);
    const lines = Array.from({ length: 3000 }, (_, rowIdx) => `2024-${String((rowIdx % 3) + 1).padStart(2, '0')}-15 10:00:00,${rowIdx}`);
    const loaded = await curlLoad(loadUrl('auto_ev'), file('auto.csv', lines.join('\n') + '\n'), ['column_separator:,']);
    assert.equal(loaded.json.Status, 'Success', loaded.body);
    assert.deepEqual(await partitionRows('auto_ev'), [['p20240101000000', '1000'], ['p20240201000000', '1000'], ['p20240301000000', '1000']]);
    const grouped = await curlLoad(loadUrl('auto_ev'), file('auto-gc.csv', '2024-05-01 00:00:00,9001\n2024-01-31 23:59:59,9002\n'), ['column_separator:,', 'group_commit:sync_mode']);
    assert.equal(grouped.json.Status, 'Success', grouped.body);
    assert.deepEqual(await partitionRows('auto_ev'), [['p20240101000000', '1001'], ['p20240201000000', '1000'], ['p20240301000000', '1000'], ['p20240501000000', '1']]);
  });

  test('partitions, their tablets and rows survive a restart', async () => {
    const before = await queryRows(conn, 'SELECT dt, id, v FROM pt.ev ORDER BY id');
    const partitions = (await queryRecords(conn, 'SHOW PARTITIONS FROM pt.ev')).map((record) => [record.PartitionId, record.PartitionName, record.Range, record.Buckets]);
    conn.destroy();
    await server.stop();
    server = await startGalene({ dataDir });
    conn = await connect(server.ports.query_port);
    assert.deepEqual(await queryRows(conn, 'SELECT dt, id, v FROM pt.ev ORDER BY id'), before);
    assert.deepEqual((await queryRecords(conn, 'SHOW PARTITIONS FROM pt.ev')).map((record) => [record.PartitionId, record.PartitionName, record.Range, record.Buckets]), partitions);
    await conn.query("INSERT INTO pt.ev VALUES ('2024-04-15', 13, 130)");
    assert.equal((await queryRows(conn, 'SELECT count(*) FROM pt.auto_ev'))[0][0], '3002');
    assert.deepEqual(await partitionRows('ev'), [['p1', '3'], ['p2', '3'], ['p3', '3'], ['p4', '1']]);
    await queryRows(conn, "SELECT id FROM pt.ev WHERE dt = '2024-04-15'");
    assert.equal(Number((await lastQueryProfile(conn)).get('TabletsScanned')), 2);
  });
});
