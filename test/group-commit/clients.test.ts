/**
 * Group Commit through the clients users type into: the seed's quick-start session in the MariaDB
 * command-line client, the seed's JDBC PreparedStatement batch example on the MariaDB driver from Debian
 * (`sessionVariables=group_commit=async_mode` in the URL), and Stream Load with curl and the
 * `group_commit` header (async, sync, the table property, the fallbacks, chunked bodies, filtering).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Connection } from 'mysql2/promise';
import { GaleneProcess, PROJECT_ROOT, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { curlLoad } from '../stream-load/helpers';
import { httpRequest, insertInfo, updateConfig, waitForRows } from './helpers';

const fetchText = async (url: string): Promise<string> => (await httpRequest('GET', url)).body;

const MARIADB = '/usr/bin/mariadb';
const JAVA = '/usr/bin/java';
const JDBC_JAR = '/usr/share/java/mariadb-java-client.jar';

let server: GaleneProcess;
let conn: Connection;
let dataFile: string;

before(async () => {
  server = await startGalene();
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE db');
  await conn.query('USE db');
  dataFile = path.join(server.dataDir, 'data.csv');
  fs.writeFileSync(dataFile, '6,Amy,60\n7,Ross,98\n');
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 90_000 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
    });
  });
}

const DT = (name: string, properties = ''): string =>
  `CREATE TABLE ${name} (\`id\` int(11) NOT NULL, \`name\` varchar(50) NULL, \`score\` int(11) NULL) ENGINE=OLAP DUPLICATE KEY(\`id\`) DISTRIBUTED BY HASH(\`id\`) BUCKETS 1 PROPERTIES ("replication_num" = "1"${properties})`;

test('the seed quick start in the MariaDB client: SET group_commit = async_mode, shared label, visible after the interval', { skip: fs.existsSync(MARIADB) ? false : 'mariadb client not installed' }, async () => {
  const cli = (sql: string): Promise<{ code: number; stdout: string; stderr: string }> => run(MARIADB, ['-h127.0.0.1', `-P${server.ports.query_port}`, '-uroot', '-Ddb', '-vvv', '-e', sql]);
  const created = await cli(`${DT('dt')}; ALTER TABLE dt SET ("group_commit_mode" = "async_mode"); ALTER TABLE dt SET ("group_commit_interval_ms" = "1000"); SHOW CREATE TABLE dt`);
  assert.equal(created.code, 0, created.stderr);
  assert.match(created.stdout, /PROPERTIES \([\s\S]*"group_commit_mode" = "async_mode"/);
  const session = await cli("set group_commit = async_mode; insert into dt values(1, 'Bob', 90), (2, 'Alice', 99); insert into dt(id, name) values(3, 'John'); select * from dt;");
  assert.equal(session.code, 0, session.stderr);
  const infos = [...session.stdout.matchAll(/^\{'label':'(group_commit_[0-9a-f]{16}_[0-9a-f]{16})', 'status':'PREPARE', 'txnId':'(\d+)'\}$/gm)];
  assert.equal(infos.length, 2, session.stdout);
  assert.deepEqual([infos[1][1], infos[1][2]], [infos[0][1], infos[0][2]], 'both inserts in one batch');
  assert.match(session.stdout, /Query OK, 2 rows affected[\s\S]*Query OK, 1 row affected[\s\S]*Empty set/);
  await waitForRows(conn, 'SELECT count(*) FROM dt', (rows) => rows[0][0] === '3');
  const later = await cli('select * from dt order by id; set group_commit = sync_mode; insert into dt values(4, \'Bob\', 90), (5, \'Alice\', 99); select count(*) from dt; set group_commit = off_mode; ALTER TABLE dt SET ("group_commit_mode" = "off_mode"); SHOW CREATE TABLE dt');
  assert.equal(later.code, 0, later.stderr);
  assert.match(later.stdout, /\| +1 \| Bob +\| +90 \|\n\| +2 \| Alice +\| +99 \|\n\| +3 \| John +\| +NULL \|/);
  assert.match(later.stdout, /\{'label':'group_commit_[0-9a-f_]+', 'status':'PREPARE', 'txnId':'\d+', 'query_id':'[^']+'\}/);
  assert.match(later.stdout, /\| +5 \|/, 'sync_mode rows are visible when the insert returns');
  assert.doesNotMatch(later.stdout.slice(later.stdout.lastIndexOf('CREATE TABLE `dt`')), /group_commit_mode/, 'SHOW CREATE TABLE hides off_mode');
});

test('the seed JDBC example: PreparedStatement batches with sessionVariables=group_commit=async_mode', { skip: fs.existsSync(JAVA) && fs.existsSync(JDBC_JAR) ? false : 'java or libmariadb-java not installed' }, async () => {
  await conn.query(DT('jdbc_dt', ', "group_commit_interval_ms" = "300"'));
  const url = `jdbc:mariadb://127.0.0.1:${server.ports.query_port}/db?useServerPrepStmts=true&useLocalSessionState=true&rewriteBatchedStatements=true&cachePrepStmts=true&prepStmtCacheSqlLimit=99999&prepStmtCacheSize=50&sessionVariables=group_commit=async_mode`;
  const result = await run(JAVA, ['-cp', JDBC_JAR, path.join(PROJECT_ROOT, 'test', 'group-commit', 'GroupCommitJdbc.java'), url, 'jdbc_dt']);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, 'inserted 50\ngroup_commit async_mode\n');
  const rows = await waitForRows(conn, 'SELECT id, count(*), min(name), max(score) FROM jdbc_dt GROUP BY id ORDER BY id', (got) => got.length === 10 && got.every((row) => row[1] === '5'));
  assert.deepEqual(rows[0], ['0', '5', 'name0', '10']);
});

const streamLoadUrl = (table: string): string => `http://127.0.0.1:${server.ports.http_port}/api/db/${table}/_stream_load`;

test('Stream Load with curl and the group_commit header: async and sync answers in Doris\'s shape, shared batches', async () => {
  // Long enough that the second curl (a new process on a busy machine) still finds the batch open.
  await conn.query(DT('sl', ', "group_commit_interval_ms" = "2000"'));
  const first = await curlLoad(streamLoadUrl('sl'), dataFile, ['group_commit:async_mode', 'column_separator:,']);
  assert.equal(first.status, 200, first.body);
  assert.deepEqual(Object.keys(first.json), ['TxnId', 'Label', 'Comment', 'GroupCommit', 'Status', 'Message', 'NumberTotalRows', 'NumberLoadedRows', 'NumberFilteredRows', 'NumberUnselectedRows', 'LoadBytes', 'LoadTimeMs', 'StreamLoadPutTimeMs', 'ReadDataTimeMs', 'WriteDataTimeMs']);
  assert.equal(first.json.GroupCommit, true);
  assert.equal(first.json.Status, 'Success');
  assert.equal(first.json.Message, 'OK');
  assert.match(String(first.json.Label), /^group_commit_[0-9a-f]{16}_[0-9a-f]{16}$/);
  assert.deepEqual([first.json.NumberTotalRows, first.json.NumberLoadedRows, first.json.LoadBytes], [2, 2, 19]);
  const second = await curlLoad(streamLoadUrl('sl'), dataFile, ['group_commit:async_mode', 'column_separator:,']);
  assert.deepEqual([second.json.Label, second.json.TxnId], [first.json.Label, first.json.TxnId], 'the second load joined the open batch');
  await waitForRows(conn, 'SELECT count(*) FROM sl', (rows) => rows[0][0] === '4');
  const sync = await curlLoad(streamLoadUrl('sl'), dataFile, ['group_commit:sync_mode', 'column_separator:,']);
  assert.equal(sync.json.Status, 'Success');
  assert.equal(sync.json.GroupCommit, true);
  assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM sl'), [['6']], 'sync_mode: visible when the answer arrives');
});

test('Stream Load precedence and fallbacks: table property, header off_mode, label and two_phase_commit headers, a bad mode', async () => {
  await conn.query(DT('slp', ', "group_commit_mode" = "sync_mode", "group_commit_interval_ms" = "100"'));
  const byTable = await curlLoad(streamLoadUrl('slp'), dataFile, ['column_separator:,']);
  assert.equal(byTable.json.GroupCommit, true, 'no header: the table property');
  const off = await curlLoad(streamLoadUrl('slp'), dataFile, ['group_commit:off_mode', 'column_separator:,']);
  assert.equal(off.json.GroupCommit, undefined, 'the header wins over the table property');
  assert.equal(off.json.Status, 'Success');
  const labelled = await curlLoad(streamLoadUrl('slp'), dataFile, ['group_commit:async_mode', 'label:my_load_1', 'column_separator:,']);
  assert.deepEqual([labelled.json.GroupCommit, labelled.json.Label, labelled.json.Status], [undefined, 'my_load_1', 'Success']);
  const twoPhase = await curlLoad(streamLoadUrl('slp'), dataFile, ['group_commit:async_mode', 'two_phase_commit:true', 'column_separator:,']);
  assert.deepEqual([twoPhase.json.GroupCommit, twoPhase.json.TwoPhaseCommit, twoPhase.json.Status], [undefined, 'true', 'Success']);
  const bad = await curlLoad(streamLoadUrl('slp'), dataFile, ['group_commit:fast_mode', 'column_separator:,']);
  assert.equal(bad.json.Status, 'Fail');
  assert.match(String(bad.json.Message), /group_commit can only be \[async_mode, sync_mode, off_mode\]/);
  assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM slp'), [['6']], 'the pre-committed two-phase load is not visible');
});

test('async_mode runs as sync_mode for a chunked body of unknown size and when the WAL disk budget is used up', async () => {
  await conn.query(DT('slc', ', "group_commit_interval_ms" = "100", "group_commit_mode" = "async_mode"'));
  const switched = async (): Promise<number> => {
    const metrics = await fetchText(`http://127.0.0.1:${server.ports.webserver_port}/metrics`);
    return Number(/^doris_be_group_commit_async_to_sync_total (\d+)$/m.exec(metrics)![1]);
  };
  const before = await switched();
  const chunked = await curlLoad(streamLoadUrl('slc'), dataFile, ['group_commit:async_mode', 'column_separator:,', 'Transfer-Encoding: chunked']);
  assert.equal(chunked.json.Status, 'Success', chunked.body);
  assert.equal(await switched(), before + 1, 'the chunked load ran as sync_mode');
  assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM slc'), [['2']], 'sync_mode: visible when the answer arrives');
  assert.deepEqual(await updateConfig(server.ports.webserver_port, 'group_commit_wal_max_disk_limit=1'), { status: 'OK', msg: '' });
  try {
    const info = await insertInfo(conn, "INSERT INTO slc VALUES (10, 'disk short', 1)");
    assert.ok(info.query_id !== undefined, 'ran as sync_mode (its answer carries query_id)');
    assert.deepEqual(await queryRows(conn, 'SELECT name FROM slc WHERE id = 10'), [['disk short']], 'visible at once');
    assert.equal(await switched(), before + 2);
  } finally {
    await updateConfig(server.ports.webserver_port, 'group_commit_wal_max_disk_limit=10%');
  }
  const async = await insertInfo(conn, "INSERT INTO slc VALUES (11, 'async again', 1)");
  assert.equal(async.query_id, undefined);
});

test('Stream Load max_filter_ratio gives the same result with and without Group Commit', async () => {
  const file = path.join(server.dataDir, 'bad.csv');
  fs.writeFileSync(file, '1,ok,1\nnot_a_number,bad,2\n3,ok,3\n');
  const outcomes: Record<string, unknown[]> = {};
  for (const mode of ['off_mode', 'sync_mode', 'async_mode']) {
    const name = `slf_${mode.replace('_mode', '')}`;
    await conn.query(DT(name, ', "group_commit_interval_ms" = "100"'));
    const strict = await curlLoad(streamLoadUrl(name), file, [`group_commit:${mode}`, 'column_separator:,']);
    const tolerant = await curlLoad(streamLoadUrl(name), file, [`group_commit:${mode}`, 'column_separator:,', 'max_filter_ratio:0.5']);
    outcomes[mode] = [strict.json.Status, strict.json.Message, strict.json.NumberFilteredRows, tolerant.json.Status, tolerant.json.NumberLoadedRows, tolerant.json.NumberFilteredRows, typeof tolerant.json.ErrorURL];
    await waitForRows(conn, `SELECT count(*) FROM ${name}`, (rows) => rows[0][0] === '2');
  }
  assert.deepEqual(outcomes.off_mode, ['Fail', '[DATA_QUALITY_ERROR]too many filtered rows', 1, 'Success', 2, 1, 'string']);
  assert.deepEqual(outcomes.sync_mode, outcomes.off_mode);
  assert.deepEqual(outcomes.async_mode, outcomes.off_mode);
});
