/**
 * The galene command as a user meets it: --help, the ready line with every port, settings from flags,
 * environment and galene.conf, the MariaDB command-line client, clean shutdown on SIGTERM.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { makeDataDir, PROJECT_ROOT, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

const run = promisify(execFile);
const BIN = path.join(PROJECT_ROOT, 'bin', 'galene.js');

test('--help documents every setting', async () => {
  const { stdout } = await run(process.execPath, [BIN, '--help']);
  for (const name of ['query_port', 'http_port', 'webserver_port', 'brpc_port', 'data_dir', 'bind_address', 'storage_page_cache_limit', 'file_cache_path']) {
    assert.match(stdout, new RegExp(`--${name}\\b`));
  }
});

test('a bad setting is refused with a clear message', async () => {
  await assert.rejects(run(process.execPath, [BIN, 'start', '--query_port', 'abc', '--data_dir', makeDataDir()]), (err: { stderr: string; code: number }) => {
    assert.equal(err.code, 1);
    assert.match(err.stderr, /query_port/);
    return true;
  });
});

test('ready line, flags over env over galene.conf, mariadb client, SIGTERM', async () => {
  const dataDir = makeDataDir();
  fs.writeFileSync(path.join(dataDir, 'galene.conf'), '# test config\ndefault_bucket_num = 4\nmax_tablet_version_num = 1500\n');
  const server = await startGalene({ dataDir, env: { GALENE_DEFAULT_BUCKET_NUM: '5', GALENE_LABEL_KEEP_MAX_SECOND: '60' }, args: ['--default_bucket_num', '6'] });
  try {
    for (const port of Object.values(server.ports)) assert.ok(port > 0);
    assert.equal(new Set(Object.values(server.ports)).size, 4);
    const health = await fetch(`http://127.0.0.1:${server.ports.http_port}/api/health`);
    assert.equal(health.status, 200);
    const metrics = await (await fetch(`http://127.0.0.1:${server.ports.webserver_port}/metrics`)).text();
    assert.match(metrics, /doris_be_process_rss_bytes \d+/);

    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE cfg');
    await conn.query('CREATE TABLE cfg.t (k INT) DUPLICATE KEY(k)');
    const [[, createText]] = await queryRows(conn, 'SHOW CREATE TABLE cfg.t');
    assert.match(createText!, /BUCKETS 6/, 'the flag wins over the environment and the file');
    await conn.end();

    const mariadb = await run('mariadb', ['-h127.0.0.1', `-P${server.ports.query_port}`, '-uroot', '--batch', '-e', "INSERT INTO cfg.t VALUES (1),(2),(3); SELECT count(*) AS n, sum(k) AS s FROM cfg.t"]);
    assert.equal(mariadb.stdout, 'n\ts\n3\t6\n');
    await assert.rejects(run('mariadb', ['-h127.0.0.1', `-P${server.ports.query_port}`, '-uroot', '-e', 'SELECT * FROM cfg.missing']), (err: { stderr: string }) => {
      assert.match(err.stderr, /1146/);
      assert.match(err.stderr, /doesn't exist/);
      return true;
    });
  } finally {
    const code = await server.stop();
    assert.equal(code, 0, `clean exit on SIGTERM; stderr: ${server.stderr()}`);
  }

  const fileOnly = await startGalene({ dataDir });
  try {
    const conn = await connect(fileOnly.ports.query_port);
    await conn.query('CREATE TABLE cfg.t2 (k INT) DUPLICATE KEY(k)');
    const [[, createText]] = await queryRows(conn, 'SHOW CREATE TABLE cfg.t2');
    assert.match(createText!, /BUCKETS 4/, 'galene.conf in the working directory is read');
    await conn.end();
  } finally {
    await fileOnly.stop();
  }
});
