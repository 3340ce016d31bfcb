/**
 * Dynamic partitions through a real server: CREATE TABLE with dynamic_partition.* creates the partitions
 * at once, and the scheduler (dynamic_partition_check_interval_seconds made short here) drops partitions
 * older than `start` and re-creates missing ones ahead, on its own; Doris's checks refuse bad settings.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { GaleneProcess, makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

const pad = (value: number): string => String(value).padStart(2, '0');
/** yyyyMMdd and yyyy-MM-dd of today + `offset` days, in the local time zone (the server's). */
function day(offset: number): { name: string; date: string } {
  const now = new Date();
  const at = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset);
  const date = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  return { name: date.replace(/-/g, ''), date };
}
function month(offset: number): string {
  const now = new Date();
  const at = new Date(now.getFullYear(), now.getMonth() + offset, 1);
  return `${at.getFullYear()}${pad(at.getMonth() + 1)}`;
}

describe('dynamic partitions', () => {
  let server: GaleneProcess;
  let conn: Connection;
  const partitions = async (table: string): Promise<string[]> =>
    (await queryRows(conn, `SELECT PARTITION_NAME FROM information_schema.partitions WHERE TABLE_SCHEMA = 'dp' AND TABLE_NAME = '${table}' ORDER BY PARTITION_NAME`)).map((row) => row[0]!);
  const waitFor = async (what: string, check: () => Promise<boolean>): Promise<void> => {
    for (let attempt = 0; attempt < 100; attempt++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.fail(`timed out waiting for ${what}`);
  };

  before(async () => {
    server = await startGalene({ dataDir: makeDataDir('galene-dynamic-'), args: ['--dynamic_partition_check_interval_seconds', '1'] });
    conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE dp');
  });

  after(async () => {
    conn?.destroy();
    await server?.stop();
  });

  test('CREATE TABLE creates the partitions from start (history) to end, each with dynamic_partition.buckets tablets', async () => {
    await conn.query(`CREATE TABLE dp.daily (dt DATE NOT NULL, v INT) DUPLICATE KEY(dt) PARTITION BY RANGE(dt) ()
      DISTRIBUTED BY HASH(dt) BUCKETS 3 PROPERTIES ("dynamic_partition.enable" = "true", "dynamic_partition.time_unit" = "DAY",
      "dynamic_partition.start" = "-2", "dynamic_partition.end" = "2", "dynamic_partition.prefix" = "p", "dynamic_partition.buckets" = "2",
      "dynamic_partition.create_history_partition" = "true")`);
    assert.deepEqual(await partitions('daily'), [-2, -1, 0, 1, 2].map((offset) => `p${day(offset).name}`));
    const shown = await queryRows(conn, 'SHOW PARTITIONS FROM dp.daily');
    assert.ok(shown.every((row) => row[8] === '2'), 'dynamic_partition.buckets');
    assert.equal(shown[2][6], `[types: [DATEV2]; keys: [${day(0).date}]; ..types: [DATEV2]; keys: [${day(1).date}]; )`);
    await conn.query(`INSERT INTO dp.daily VALUES ('${day(0).date}', 1), ('${day(2).date}', 2)`);
    await assert.rejects(conn.query(`INSERT INTO dp.daily VALUES ('${day(3).date}', 3)`), /no partition for this tuple/);
  });

  test('the scheduler drops partitions older than start and re-creates missing ones ahead', async () => {
    await conn.query('ALTER TABLE dp.daily ADD PARTITION p_old VALUES [("2000-01-01"), ("2000-01-02"))');
    await conn.query(`ALTER TABLE dp.daily DROP PARTITION p${day(2).name}`);
    await waitFor('the scheduler pass', async () => {
      const names = await partitions('daily');
      return !names.includes('p_old') && names.includes(`p${day(2).name}`);
    });
    assert.deepEqual(await partitions('daily'), [-2, -1, 0, 1, 2].map((offset) => `p${day(offset).name}`));
    assert.deepEqual(await queryRows(conn, 'SELECT v FROM dp.daily'), [['1']], 'the dropped partition took its row');
  });

  test('a partition the scheduler drops under an open async Group Commit batch: the batch commits first, its other rows stay', async () => {
    await conn.query(`CREATE TABLE dp.gc (dt DATE NOT NULL, v INT) DUPLICATE KEY(dt) PARTITION BY RANGE(dt) ()
      DISTRIBUTED BY HASH(dt) BUCKETS 1 PROPERTIES ("dynamic_partition.time_unit" = "DAY", "dynamic_partition.start" = "-1",
      "dynamic_partition.end" = "1", "dynamic_partition.prefix" = "p", "group_commit_interval_ms" = "600000")`);
    await conn.query('ALTER TABLE dp.gc ADD PARTITION p_old VALUES [("2000-01-01"), ("2000-01-02"))');
    await conn.query('SET group_commit = async_mode');
    try {
      // The batch would wait ten minutes for its interval; the scheduler's drop of p_old commits it now.
      await conn.query(`INSERT INTO dp.gc VALUES ('2000-01-01', 1), ('${day(0).date}', 2)`);
      await waitFor('the scheduler to drop p_old', async () => !(await partitions('gc')).includes('p_old'));
      await waitFor('the batch to commit', async () => (await queryRows(conn, 'SELECT count(*) FROM dp.gc'))[0][0] === '1');
      assert.deepEqual(await queryRows(conn, 'SELECT v FROM dp.gc'), [['2']], "the dropped partition took its row; today's stayed");
      await conn.query(`INSERT INTO dp.gc VALUES ('${day(0).date}', 3)`);
    } finally {
      await conn.query('SET group_commit = off_mode');
    }
  });

  test('without create_history_partition: from now to end; MONTH names; ALTER TABLE SET turns it on', async () => {
    await conn.query(`CREATE TABLE dp.monthly (ts DATETIME NOT NULL, v INT) DUPLICATE KEY(ts) PARTITION BY RANGE(ts) ()
      DISTRIBUTED BY HASH(ts) BUCKETS 1 PROPERTIES ("dynamic_partition.time_unit" = "MONTH", "dynamic_partition.end" = "2", "dynamic_partition.prefix" = "m")`);
    assert.deepEqual(await partitions('monthly'), [0, 1, 2].map((offset) => `m${month(offset)}`));
    await conn.query('CREATE TABLE dp.later (d DATE NOT NULL) DUPLICATE KEY(d) PARTITION BY RANGE(d) () DISTRIBUTED BY HASH(d) BUCKETS 1');
    assert.deepEqual(await partitions('later'), []);
    await conn.query('ALTER TABLE dp.later SET ("dynamic_partition.time_unit" = "DAY", "dynamic_partition.end" = "1")');
    assert.deepEqual(await partitions('later'), [`p${day(0).name}`, `p${day(1).name}`]);
    await conn.query('ALTER TABLE dp.later SET ("dynamic_partition.enable" = "false")');
    await conn.query(`ALTER TABLE dp.later DROP PARTITION p${day(1).name}`);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    assert.deepEqual(await partitions('later'), [`p${day(0).name}`], 'a disabled table is left alone');
  });

  test("Doris's checks of the settings", async () => {
    const create = (properties: string, partitioning = 'PARTITION BY RANGE(d) ()'): Promise<unknown> => conn.query(`CREATE TABLE dp.bad (d DATE NOT NULL, s VARCHAR(5) NOT NULL) DUPLICATE KEY(d) ${partitioning} DISTRIBUTED BY HASH(d) BUCKETS 1 PROPERTIES (${properties})`);
    await assert.rejects(create('"dynamic_partition.time_unit" = "DAY"'), /Must assign dynamic_partition.end properties/);
    await assert.rejects(create('"dynamic_partition.end" = "3"'), /Must assign dynamic_partition.time_unit properties/);
    await assert.rejects(create('"dynamic_partition.time_unit" = "DAY", "dynamic_partition.end" = "3", "dynamic_partition.start" = "1"'), /Dynamic partition start must less than 0/);
    await assert.rejects(create('"dynamic_partition.time_unit" = "DAY", "dynamic_partition.end" = "0"'), /Dynamic partition end must greater than 0/);
    await assert.rejects(create('"dynamic_partition.time_unit" = "MINUTE", "dynamic_partition.end" = "3"'), /Unsupported time unit MINUTE/);
    await assert.rejects(create('"dynamic_partition.time_unit" = "HOUR", "dynamic_partition.end" = "3"'), /Date type partition does not support dynamic partitioning granularity of hour/);
    await assert.rejects(create('"dynamic_partition.time_unit" = "DAY", "dynamic_partition.end" = "3"', 'PARTITION BY LIST(s) ()'), /Only support dynamic partition properties on range partition table/);
    await assert.rejects(create('"dynamic_partition.time_unit" = "DAY", "dynamic_partition.end" = "3"', ''), /Only support dynamic partition properties on range partition table/);
    await assert.rejects(conn.query('ALTER TABLE dp.later SET ("dynamic_partition.start" = "5")'), /Dynamic partition start must less than 0/);
    assert.deepEqual(await queryRows(conn, "SELECT count(*) FROM information_schema.tables WHERE TABLE_SCHEMA = 'dp' AND TABLE_NAME = 'bad'"), [['0']]);
  });
});
