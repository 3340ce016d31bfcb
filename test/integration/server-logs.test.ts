/**
 * The server logs of a running Galene: fe.log / fe.warn.log and be.log / be.warn.log under sys_log_dir,
 * every error a client sees in them (SQL errors with their query id, refused logins, HTTP errors, Stream
 * Loads that fail with their label), sys_log_level followed at run time and refused when bad (at start-up
 * and through the BE's /api/update_config).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { makeDataDir, PROJECT_ROOT, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { curlLoad } from '../stream-load/helpers';

const readLog = (dir: string, name: string): string => (fs.existsSync(path.join(dir, name)) ? fs.readFileSync(path.join(dir, name), 'utf8') : '');

const LINE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARN|ERROR|FATAL) \((fe|be)\|[\w-]+\) /;

async function postConfig(port: number, query: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${port}/api/update_config?${query}`, { method: 'POST', headers: { Authorization: `Basic ${Buffer.from('root:').toString('base64')}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test('fe.log and be.log get every error a client sees: SQL (query id), logins, HTTP, Stream Load (label)', async () => {
  const logDir = path.join(makeDataDir('galene-logs-'), 'custom-log');
  const server = await startGalene({ args: ['--sys_log_dir', logDir] });
  try {
    assert.match(readLog(logDir, 'fe.log'), / INFO \(fe\|main\) FE opened data_dir /);
    assert.match(readLog(logDir, 'be.log'), / INFO \(be\|main\) BE opened object store /);
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE lg');
    await conn.query('CREATE TABLE lg.t (k INT, v VARCHAR(3)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
    await assert.rejects(conn.query('SELECT nope FROM lg.t'), { errno: 1054 });
    await assert.rejects(conn.query('SELEC 1'), { errno: 1064 });
    const profiles = await queryRows(conn, 'SHOW QUERY PROFILE "/"');
    const failedIds = ['SELECT nope FROM lg.t', 'SELEC 1'].map((sql) => profiles.find((row) => row[8] === sql)?.[0]);
    // A refused login: no session, no query id; the user and host are in the line.
    await assert.rejects(connect(server.ports.query_port, { user: 'root', password: 'wrong' }), { errno: 1045 });

    // HTTP: an unknown FE endpoint (404), an unauthenticated BE admin call (401).
    assert.equal((await fetch(`http://127.0.0.1:${server.ports.http_port}/api/no_such_thing`)).status, 404);
    assert.equal((await fetch(`http://127.0.0.1:${server.ports.webserver_port}/api/update_config?sys_log_level=INFO`, { method: 'POST' })).status, 401);

    // A Stream Load that fails (every row filtered in strict mode): its label is in be.log.
    const file = path.join(server.dataDir, 'bad.csv');
    fs.writeFileSync(file, '1,toolong\n');
    const load = await curlLoad(`http://127.0.0.1:${server.ports.http_port}/api/lg/t/_stream_load`, file, ['column_separator:,', 'strict_mode:true', 'label:bad_load_1']);
    assert.equal(load.json.Status, 'Fail', load.body);

    const fe = readLog(logDir, 'fe.log');
    const feWarn = readLog(logDir, 'fe.warn.log');
    for (const text of [fe, feWarn]) {
      for (const queryId of failedIds) {
        assert.ok(queryId, 'the failed statement has a profile');
        assert.match(text, new RegExp(`WARN \\(fe\\|mysql-\\d+\\) \\[query_id=${queryId}\\] root@127\\.0\\.0\\.1 error 10(54|64): `), `query ${queryId} in the FE logs`);
      }
      assert.match(text, /WARN \(fe\|mysql-\d+\) root@127\.0\.0\.1 error 1045: .*Access denied for user 'root'/);
      assert.match(text, /WARN \(fe\|http-fe\) 127\.0\.0\.1 GET \/api\/no_such_thing answered 404: no such endpoint/);
    }
    const be = readLog(logDir, 'be.log');
    const beWarn = readLog(logDir, 'be.warn.log');
    for (const text of [be, beWarn]) {
      assert.match(text, /WARN \(be\|http-be\) 127\.0\.0\.1 POST \/api\/update_config answered 401: /);
      assert.match(text, /WARN \(be\|http-be\) 127\.0\.0\.1 PUT \/api\/lg\/t\/_stream_load answered 200: label=bad_load_1 txn_id=\d+ .*too many filtered rows/i);
    }
    for (const text of [fe, feWarn, be, beWarn]) {
      for (const line of text.split('\n').filter((item) => item !== '')) assert.match(line, LINE);
    }
    assert.ok(!beWarn.includes(' INFO '), 'be.warn.log holds WARN and above only');

    // sys_log_level followed at run time: at ERROR, a client's error (a WARN line) is not written.
    const before = readLog(logDir, 'fe.log').length;
    assert.deepEqual(await postConfig(server.ports.webserver_port, 'sys_log_level=ERROR'), { status: 200, body: { status: 'OK', msg: '' } });
    await assert.rejects(conn.query('SELECT still_nope FROM lg.t'), { errno: 1054 });
    assert.equal(readLog(logDir, 'fe.log').length, before, 'nothing below ERROR is written');
    // be.conf's WARNING spelling is WARN; a value that is no level is refused with Doris's words.
    assert.equal((await postConfig(server.ports.webserver_port, 'sys_log_level=WARNING')).body.status, 'OK');
    await assert.rejects(conn.query('SELECT nope_again FROM lg.t'), { errno: 1054 });
    assert.match(readLog(logDir, 'fe.log'), /error 1054: .*nope_again/);
    const refused = await postConfig(server.ports.webserver_port, 'sys_log_level=VERBOSE');
    assert.equal(refused.body.status, 'BAD');
    assert.match(String(refused.body.msg), /sys_log_level config error: must be one of DEBUG, INFO, WARN, ERROR, FATAL/);
    await conn.end();
  } finally {
    await server.stop();
  }
});

test('a bad sys_log_level refuses to start, with Doris\'s message', () => {
  const dataDir = makeDataDir('galene-logs-');
  const run = spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'bin', 'galene.js'), 'start', '--query_port', '0', '--http_port', '0', '--webserver_port', '0', '--brpc_port', '0', '--data_dir', dataDir, '--sys_log_level', 'LOUD'], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(run.status, 1, run.stderr);
  assert.match(run.stderr, /galene: cannot start: .*sys_log_level: LOUD \(--sys_log_level\): sys_log_level config error: must be one of DEBUG, INFO, WARN, ERROR, FATAL/);
  assert.equal(fs.existsSync(path.join(dataDir, 'log', 'fe.log')), false, 'nothing was started');
});

test('be.log rolls by size like fe.log: sys_log_roll_mode and sys_log_roll_num', async () => {
  const server = await startGalene({ args: ['--sys_log_roll_mode', 'SIZE-MB-1', '--sys_log_roll_num', '1'] });
  try {
    const bePort = server.ports.webserver_port;
    // Each refused call is one WARN line of about 10 KB in be.log: 300 of them roll it twice.
    const longName = 'x'.repeat(10_000);
    for (let batch = 0; batch < 3; batch++) {
      await Promise.all(Array.from({ length: 100 }, () => fetch(`http://127.0.0.1:${bePort}/api/${longName}`).then((response) => response.text())));
    }
    const logDir = path.join(server.dataDir, 'log');
    const files = fs.readdirSync(logDir).filter((name) => name.startsWith('be.log')).sort();
    assert.deepEqual(files, ['be.log', 'be.log.1']);
    for (const name of files) assert.ok(fs.statSync(path.join(logDir, name)).size <= 1024 * 1024, name);
  } finally {
    await server.stop();
  }
});
