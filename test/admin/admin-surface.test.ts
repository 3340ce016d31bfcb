/**
 * The SHOW / admin / REST surface against a real server, with real clients: mysql2, the MariaDB CLI
 * (HELP, SHOW PROC) and curl (the FE REST endpoints): SHOW DATA, SHOW CATALOGS, SHOW PROC, SHOW FRONTEND /
 * BACKEND CONFIG and ADMIN SET FRONTEND CONFIG, SHOW VARIABLES, the live information_schema tables, a long
 * Stream Load's progress in SHOW LOAD and the process list, CANCEL LOAD, SHOW STREAM LOAD, HELP.
 */
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import * as http from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { curl, run } from '../helpers/cli';
import { GaleneProcess, indexFilesUnder, startGalene } from '../helpers/galene-process';
import { connect, queryRecords, queryRows } from '../helpers/mysql-client';

const MARIADB = '/usr/bin/mariadb';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Column index by name of a SHOW result read with mysql2 (fields). */
async function showObjects(conn: Connection, sql: string): Promise<Record<string, string | null>[]> {
  const [rows] = await conn.query({ sql, rowsAsArray: false });
  return rows as Record<string, string | null>[];
}

describe('admin surface', () => {
  let server: GaleneProcess;
  let root: Connection;
  let dbId = '';
  let tableId = '';

  before(async () => {
    server = await startGalene({ args: ['--enable_stream_load_record', 'true'] });
    root = await connect(server.ports.query_port);
    await root.query('CREATE DATABASE adm');
    await root.query('CREATE TABLE adm.small (k INT NOT NULL, v VARCHAR(20)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
    await root.query('CREATE TABLE adm.large (k INT NOT NULL, v VARCHAR(20)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 3');
    await root.query("INSERT INTO adm.small VALUES (1, 'a')");
    const values = Array.from({ length: 2000 }, (_, rowIdx) => `(${rowIdx}, 'value-${rowIdx}')`).join(',');
    await root.query(`INSERT INTO adm.large VALUES ${values}`);
    await root.query("CREATE USER 'bob'@'%' IDENTIFIED BY 'pw'");
  });

  after(async () => {
    await root?.end();
    await server?.stop();
  });

  test('SHOW DATA: per-table sizes from the rowsets, Total/Quota/Left, ORDER BY, FROM db.t', async () => {
    await root.query('USE adm');
    const rows = await queryRows(root, 'SHOW DATA');
    assert.deepEqual(rows.map((row) => row[0]), ['large', 'small', 'Total', 'Quota', 'Left']);
    const [[partitionBytes]] = await queryRows(root, "SELECT DATA_LENGTH FROM information_schema.partitions WHERE TABLE_SCHEMA = 'adm' AND TABLE_NAME = 'large'");
    assert.match(rows[0][1]!, /^\d+\.\d{3} (B|KB|MB)$/);
    const unit = { B: 1, KB: 1024, MB: 1024 * 1024 }[rows[0][1]!.split(' ')[1] as 'B' | 'KB' | 'MB'];
    assert.ok(Math.abs(Number(rows[0][1]!.split(' ')[0]) * unit - Number(partitionBytes)) < unit, `${rows[0][1]} vs ${partitionBytes} bytes`);
    assert.equal(rows[0][2], '3', 'one replica per tablet');
    assert.equal(rows[3][1], '1024.000 TB');
    const ordered = await queryRows(root, 'SHOW DATA ORDER BY Size ASC');
    assert.deepEqual(ordered.slice(0, 2).map((row) => row[0]), ['small', 'large'], 'sorted by bytes, not by the formatted text');
    await assert.rejects(root.query('SHOW DATA ORDER BY 1 + 1'), /Should order by column/);
    const noDb = await connect(server.ports.query_port);
    try {
      const perDb = await showObjects(noDb, 'SHOW DATA');
      assert.deepEqual(Object.keys(perDb[0]), ['DbId', 'DbName', 'Size', 'RemoteSize', 'RecycleSize', 'RecycleRemoteSize']);
      assert.equal(perDb.find((row) => row['DbName'] === 'adm')?.['Size'], rows[2][1], 'without a database: each database with its total');
    } finally {
      await noDb.end();
    }
    const one = await queryRows(root, 'SHOW DATA FROM adm.large');
    assert.deepEqual(one.map((row) => [row[0], row[1], row[4]]), [['large', 'large', '2000'], ['', 'Total', '']]);
  });

  test('SHOW CATALOGS and SHOW PROC paths, over mysql2 and the mariadb CLI', async () => {
    assert.deepEqual((await queryRows(root, 'SHOW CATALOGS')).map((row) => row.slice(0, 4)), [['0', 'internal', 'internal', 'Yes']]);
    const top = (await queryRows(root, "SHOW PROC '/'")).map((row) => row[0]);
    for (const name of ['backends', 'frontends', 'dbs', 'transactions', 'jobs', 'current_queries', 'statistic']) assert.ok(top.includes(name), name);
    const dbs = await showObjects(root, "SHOW PROC '/dbs'");
    const adm = dbs.find((row) => row['DbName'] === 'adm')!;
    assert.equal(adm['TableNum'], '2');
    dbId = adm['DbId']!;
    const tables = await showObjects(root, `SHOW PROC '/dbs/${dbId}'`);
    assert.deepEqual(tables.map((row) => row['TableName']).sort(), ['large', 'small']);
    tableId = tables.find((row) => row['TableName'] === 'large')!['TableId']!;
    const partitions = await showObjects(root, `SHOW PROC '/dbs/${dbId}/${tableId}/partitions'`);
    assert.equal(partitions[0]['PartitionName'], 'large');
    assert.equal(partitions[0]['Buckets'], '3');
    const states = await queryRows(root, `SHOW PROC '/transactions/${dbId}'`);
    assert.deepEqual(states, [['running', '0'], ['finished', '2']]);
    const finished = await showObjects(root, `SHOW PROC '/transactions/${dbId}/finished'`);
    assert.equal(finished.length, 2);
    assert.ok(finished.every((row) => row['TransactionStatus'] === 'VISIBLE'));
    const jobs = await queryRows(root, `SHOW PROC '/jobs/${dbId}'`);
    assert.deepEqual(jobs[0], ['load', '0', '0', '2', '0', '2']);
    const backends = await showObjects(root, "SHOW PROC '/backends'");
    assert.equal(backends[0]['Alive'], 'true');
    assert.equal(backends[0]['TabletNum'], '5');
    assert.equal((await showObjects(root, 'SHOW BACKENDS'))[0]['TabletNum'], '5');
    assert.equal((await showObjects(root, "SHOW PROC '/frontends'"))[0]['IsMaster'], 'true');
    await assert.rejects(root.query("SHOW PROC '/nope'"), /Proc path '\/nope' doesn't exist/);
    await assert.rejects(root.query("SHOW PROC 'dbs'"), /does not start with '\/'/);
    await assert.rejects(root.query("SHOW PROC '/dbs/99999'"), /Database 99999 does not exist/);
    if (existsSync(MARIADB)) {
      const cli = await run(MARIADB, ['-h127.0.0.1', `-P${server.ports.query_port}`, '-uroot', '--skip-ssl', '--batch', '-e', `SHOW PROC '/dbs/${dbId}'`]);
      assert.equal(cli.code, 0, cli.stderr);
      assert.match(cli.stdout, /^TableId\tTableName\tIndexNum/);
      assert.match(cli.stdout, /\tlarge\t/);
    }
  });

  test('SHOW FRONTEND / BACKEND CONFIG and ADMIN SET FRONTEND CONFIG (mutable keys only, admin only)', async () => {
    const shown = await showObjects(root, "SHOW FRONTEND CONFIG LIKE 'default_bucket%'");
    assert.deepEqual(shown, [{ Key: 'default_bucket_num', Value: '10', Type: 'int', IsMutable: 'true', MasterOnly: 'false', Comment: shown[0]['Comment'] }]);
    assert.deepEqual(await queryRows(root, "ADMIN SHOW FRONTEND CONFIG LIKE 'query_port'"), [['query_port', String(server.ports.query_port), 'int', 'false', 'false', 'FE MySQL protocol port.']]);
    await root.query('ADMIN SET FRONTEND CONFIG ("default_bucket_num" = "4")');
    assert.equal((await queryRows(root, "SHOW FRONTEND CONFIG LIKE 'default_bucket_num'"))[0][1], '4');
    // Honoured: a table created without BUCKETS now gets 4.
    await root.query('CREATE TABLE adm.auto_buckets (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k)');
    assert.match((await queryRows(root, 'SHOW CREATE TABLE adm.auto_buckets'))[0][1]!, /BUCKETS 4/);
    await root.query('DROP TABLE adm.auto_buckets');
    await root.query('ADMIN SET FRONTEND CONFIG ("default_bucket_num" = "10")');
    await assert.rejects(root.query('ADMIN SET FRONTEND CONFIG ("query_port" = "1")'), { errno: 1105, message: "errCode = 2, detailMessage = Config 'query_port' is not mutable" });
    await assert.rejects(root.query('ADMIN SET FRONTEND CONFIG ("no_such_key" = "1")'), { message: "errCode = 2, detailMessage = Config 'no_such_key' does not exist" });
    await assert.rejects(root.query('ADMIN SET FRONTEND CONFIG ("default_bucket_num" = "many")'), /Failed to set config 'default_bucket_num'/);
    await assert.rejects(root.query('ADMIN SET FRONTEND CONFIG ("a" = "1", "b" = "2")'), /config parameter size is not equal to 1/);
    await assert.rejects(root.query('ADMIN SET BACKEND CONFIG ("default_bucket_num" = "3")'), /Only support setting Frontend configs now/);
    const bob = await connect(server.ports.query_port, { user: 'bob', password: 'pw' });
    try {
      await assert.rejects(bob.query('ADMIN SET FRONTEND CONFIG ("default_bucket_num" = "3")'), { errno: 1227 });
      await assert.rejects(bob.query('SHOW FRONTEND CONFIG'), { errno: 1227 });
      await assert.rejects(bob.query("SHOW PROC '/'"), { errno: 1227 });
    } finally {
      await bob.end();
    }
    const backend = await showObjects(root, "SHOW BACKEND CONFIG LIKE 'max_tablet_version%'");
    assert.deepEqual(backend, [{ BackendId: '10001', Host: '127.0.0.1', Key: 'max_tablet_version_num', Value: '2000', Type: 'int', IsMutable: 'true' }]);
  });

  test('SHOW VARIABLES has Default_Value and Changed; information_schema variables are live per session', async () => {
    const other = await connect(server.ports.query_port);
    try {
      await root.query('SET query_timeout = 77');
      const [row] = await showObjects(root, "SHOW VARIABLES LIKE 'query_timeout'");
      assert.deepEqual(row, { Variable_name: 'query_timeout', Value: '77', Default_Value: '900', Changed: '1' });
      assert.deepEqual(await queryRows(root, 'SHOW VARIABLES WHERE Changed = 1 AND Variable_name = \'query_timeout\''), [['query_timeout', '77', '900', '1']]);
      const sql = "SELECT VARIABLE_VALUE, CHANGED FROM information_schema.SESSION_VARIABLES WHERE VARIABLE_NAME = 'query_timeout'";
      assert.deepEqual(await queryRows(root, sql), [['77', '1']], 'the asking session sees its own value');
      assert.deepEqual(await queryRows(other, sql), [['900', '0']], 'another session sees its own');
      await root.query('SET GLOBAL insert_timeout = 1234');
      assert.deepEqual(await queryRows(other, "SELECT VARIABLE_VALUE, DEFAULT_VALUE FROM information_schema.GLOBAL_VARIABLES WHERE VARIABLE_NAME = 'insert_timeout'"), [['1234', '14400']]);
      await root.query('SET GLOBAL insert_timeout = DEFAULT');
      await root.query('SET query_timeout = DEFAULT');
    } finally {
      await other.end();
    }
  });

  test('information_schema: PARTITIONS, PROCESSLIST, backends, rowsets, active_queries — joins, filters, ORDER BY', async () => {
    const partitions = await queryRows(root, "SELECT p.TABLE_NAME, p.PARTITION_NAME, p.TABLE_ROWS, t.TABLE_ROWS FROM information_schema.partitions p JOIN information_schema.tables t ON p.TABLE_SCHEMA = t.TABLE_SCHEMA AND p.TABLE_NAME = t.TABLE_NAME WHERE p.TABLE_SCHEMA = 'adm' ORDER BY p.TABLE_NAME");
    assert.deepEqual(partitions, [['large', 'large', '2000', '2000'], ['small', 'small', '1', '1']]);
    const other = await connect(server.ports.query_port, { user: 'bob', password: 'pw' });
    try {
      const [[otherId]] = await queryRows(other, 'SELECT CONNECTION_ID()');
      const list = await queryRows(root, `SELECT USER, COMMAND FROM information_schema.PROCESSLIST WHERE ID = ${otherId}`);
      assert.deepEqual(list, [['bob', 'Sleep']]);
      const [[self]] = await queryRows(root, 'SELECT INFO FROM information_schema.processlist WHERE ID = CONNECTION_ID()');
      assert.match(self!, /information_schema\.processlist/);
    } finally {
      await other.end();
    }
    const [[alive, tablets]] = await queryRows(root, 'SELECT Alive, TabletNum FROM information_schema.backends');
    assert.deepEqual([alive, tablets], ['true', '5']);
    const tabletRows = await queryRows(root, 'SHOW TABLETS FROM adm.large');
    const rowsetTablets = await queryRows(root, `SELECT TABLET_ID, sum(ROWSET_NUM_ROWS) FROM information_schema.rowsets WHERE TABLET_ID IN (${tabletRows.map((row) => row[0]).join(',')}) GROUP BY TABLET_ID ORDER BY TABLET_ID`);
    assert.deepEqual(rowsetTablets, tabletRows.filter((row) => row[3] !== '0').map((row) => [row[0], row[3]]).sort((a, b) => Number(a[0]) - Number(b[0])));
    // INDEX_DISK_SIZE: the bytes of a rowset's index files (here the inverted index's; in a database of its own
    // so that adm keeps its two tables).
    await root.query('CREATE DATABASE adm_idx');
    await root.query(`CREATE TABLE adm_idx.indexed (k INT NOT NULL, body STRING, INDEX ib (body) USING INVERTED PROPERTIES("parser" = "english"))
      DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1`);
    await root.query("INSERT INTO adm_idx.indexed VALUES (1, 'olap engine'), (2, 'vector search')");
    const [[indexedTablet]] = await queryRows(root, 'SHOW TABLETS FROM adm_idx.indexed');
    const [[indexBytes]] = await queryRows(root, `SELECT sum(INDEX_DISK_SIZE) FROM information_schema.rowsets WHERE TABLET_ID = ${indexedTablet}`);
    assert.ok(Number(indexBytes) > 0, `INDEX_DISK_SIZE ${indexBytes}`);
    if (process.env.GALENE_TEST_STORAGE !== 's3') {
      const onDisk = indexFilesUnder(server.dataDir).filter((file) => file.includes(`/${indexedTablet}/`)).reduce((sum, file) => sum + statSync(file).size, 0);
      assert.equal(Number(indexBytes), onDisk);
    }
    const [[status, text]] = await queryRows(root, 'SELECT QUERY_STATUS, `SQL` FROM information_schema.active_queries');
    assert.equal(status, 'EXECUTING');
    assert.match(text!, /active_queries/);
    assert.ok((await queryRows(root, "SELECT ENGINE FROM information_schema.ENGINES WHERE SUPPORT = 'DEFAULT'")).length === 1);
  });

  test('a long Stream Load shows progress in SHOW LOAD and the process list; CANCEL LOAD stops it; SHOW STREAM LOAD records it', async () => {
    // A chunked body sent slowly: 50,000 rows every 200 ms.
    let nextKey = 100_000;
    const block = (): string => Array.from({ length: 50_000 }, () => `${nextKey++},slow\n`).join('');
    let answer = '';
    let keepSending = true;
    let cancelIssued = false;
    const done = new Promise<void>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port: server.ports.webserver_port, method: 'PUT', path: '/api/adm/small/_stream_load', auth: 'root:', headers: { label: 'slow_one', column_separator: ',' } },
        (res) => {
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (answer += chunk));
          res.on('end', () => resolve());
        },
      );
      // The server answers a cancelled load at once and closes the connection; a client still writing its
      // body may then see EPIPE/ECONNRESET instead of the answer, as curl can. Only errors before CANCEL fail.
      req.on('error', (err: NodeJS.ErrnoException) => (cancelIssued && /EPIPE|ECONNRESET/.test(err.code ?? '') ? resolve() : reject(err)));
      const pump = (sent: number): void => {
        if (!keepSending || sent >= 100) {
          req.end();
          return;
        }
        req.write(block(), () => setTimeout(() => pump(sent + 1), 200));
      };
      pump(0);
    });
    const progress = async (): Promise<number> => {
      const [row] = await showObjects(root, "SHOW LOAD FROM adm WHERE LABEL = 'slow_one'");
      if (!row) return -1;
      assert.equal(row['State'], 'LOADING');
      return (JSON.parse(row['JobDetails']!) as { ScannedRows: number }).ScannedRows;
    };
    let first = -1;
    for (let attempt = 0; attempt < 200 && first <= 0; attempt++) {
      first = await progress();
      await sleep(50);
    }
    assert.ok(first > 0, 'ScannedRows counts while the load runs');
    let later = first;
    for (let attempt = 0; attempt < 200 && later <= first; attempt++) {
      await sleep(50);
      later = await progress();
    }
    assert.ok(later > first, `ScannedRows grows: ${first} -> ${later}`);
    const list = await queryRecords(root, 'SHOW PROCESSLIST');
    const loadRow = list.find((row) => row.Command === 'Stream Load');
    assert.ok(loadRow, JSON.stringify(list));
    assert.equal(loadRow.Id, null);
    assert.match(loadRow.Info!, /label: slow_one, ScannedRows: \d+/);
    assert.equal((await queryRows(root, "SELECT count(*) FROM information_schema.processlist WHERE COMMAND = 'Stream Load'"))[0][0], '1');
    cancelIssued = true;
    await root.query("CANCEL LOAD FROM adm WHERE LABEL = 'slow_one'");
    await done.finally(() => (keepSending = false));
    if (answer !== '') {
      const result = JSON.parse(answer) as { Status: string; Message: string };
      assert.equal(result.Status, 'Fail');
      assert.equal(result.Message, '[CANCELLED]user cancel');
    }
    const [after] = await showObjects(root, "SHOW LOAD FROM adm WHERE LABEL = 'slow_one'");
    assert.equal(after['State'], 'CANCELLED');
    assert.equal((await queryRows(root, 'SELECT count(*) FROM adm.small'))[0][0], '1', 'nothing of the cancelled load is visible');
    await assert.rejects(root.query("CANCEL LOAD FROM adm WHERE LABEL = 'slow_one'"), /There is no uncompleted job/);
    await assert.rejects(root.query("CANCEL LOAD FROM adm WHERE LABEL = 'no_such_label'"), /Load job does not exist/);

    // SHOW LOAD ORDER BY / LIMIT, and SHOW STREAM LOAD's record of the cancelled load.
    const labels = (await queryRows(root, 'SHOW LOAD FROM adm ORDER BY JobId DESC LIMIT 2')).map((row) => row[1]);
    assert.equal(labels[0], 'slow_one');
    assert.equal(labels.length, 2);
    assert.deepEqual((await queryRows(root, 'SHOW LOAD FROM adm ORDER BY JobId DESC LIMIT 1, 1')).map((row) => row[1]), [labels[1]]);
    const [record] = await showObjects(root, "SHOW STREAM LOAD FROM adm WHERE Label = 'slow_one'");
    assert.equal(record['Status'], 'Fail');
    assert.equal(record['Table'], 'small');
    assert.equal(record['User'], 'root');
    assert.ok(Number(record['TotalRows']) >= later);
  });

  test('HELP answers from the function and statement registries (mariadb CLI)', { skip: existsSync(MARIADB) ? false : 'mariadb client not installed' }, async () => {
    const cli = (sql: string) => run(MARIADB, ['-h127.0.0.1', `-P${server.ports.query_port}`, '-uroot', '--skip-ssl', '-e', sql]);
    const abs = await cli("HELP 'abs'");
    assert.equal(abs.code, 0, abs.stderr);
    assert.match(abs.stdout, /Name: 'ABS'/);
    assert.match(abs.stdout, /Absolute value/);
    const load = await cli("HELP 'show load'");
    assert.match(load.stdout, /SHOW LOAD \[FROM db\]/);
    const contents = await cli("HELP 'contents'");
    assert.match(contents.stdout, /Administration/);
    assert.match(contents.stdout, /Functions/);
    const many = await queryRows(root, "HELP 'show'");
    assert.ok(many.length > 10 && many.every((row) => row[0]!.startsWith('SHOW') && row[1] === 'N'));
    assert.deepEqual(await queryRows(root, "HELP 'no_such_topic_at_all'"), []);
  });

  test('FE REST: /api/health and /api/bootstrap open; /rest/v1/config/fe and /api/show_proc need an admin (curl)', async () => {
    const base = `http://127.0.0.1:${server.ports.http_port}`;
    const health = await curl(`${base}/api/health`, null);
    assert.deepEqual(JSON.parse(health.body), { msg: 'success', code: 0, data: { online_backend_num: 1, total_backend_num: 1 }, count: 0 });
    const beHealth = await curl(`http://127.0.0.1:${server.ports.webserver_port}/api/health`, null);
    assert.deepEqual(JSON.parse(beHealth.body), { status: 'OK', msg: 'To Be Added' });
    const boot = JSON.parse((await curl(`${base}/api/bootstrap`, null)).body) as { code: number; data: { queryPort: number } };
    assert.equal(boot.code, 0);
    assert.equal(boot.data.queryPort, server.ports.query_port);
    const config = await curl(`${base}/rest/v1/config/fe`, 'root:');
    const configJson = JSON.parse(config.body) as { code: number; msg: string; data: { column_names: string[]; rows: { Name: string; Value: string }[] } };
    assert.equal(configJson.msg, 'success');
    assert.deepEqual(configJson.data.column_names, ['Name', 'Value']);
    assert.equal(configJson.data.rows.find((row) => row.Name === 'query_port')?.Value, String(server.ports.query_port));
    const proc = JSON.parse((await curl(`${base}/api/show_proc?path=/dbs`, 'root:')).body) as { code: number; data: string[][] };
    assert.equal(proc.code, 0);
    assert.ok(proc.data.some((row) => row[1] === 'adm' && row[2] === '2'));
    const bad = JSON.parse((await curl(`${base}/api/show_proc?path=/nope`, 'root:')).body) as { code: number; msg: string };
    assert.deepEqual([bad.code, bad.msg], [1, "Proc path '/nope' doesn't exist"]);
    assert.equal((await curl(`${base}/api/show_proc?path=/`, null)).status, 401);
    assert.equal((await curl(`${base}/rest/v1/config/fe`, 'root:wrong')).status, 401);
    const denied = await curl(`${base}/api/show_proc?path=/`, 'bob:pw');
    assert.equal(denied.status, 403);
    assert.match(JSON.parse(denied.body).msg, /ADMIN/);
  });
});
