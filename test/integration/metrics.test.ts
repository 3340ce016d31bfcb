/**
 * FE and BE `/metrics` as Prometheus scrapes them: the exposition parses with `promtool check metrics`
 * (Debian's prometheus package), names and types are Doris's, and counters move by what the queries,
 * errors, connections, transactions, INSERTs (plain and Group Commit) and Stream Loads run between two
 * scrapes did.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { curlLoad } from '../stream-load/helpers';

/** `promtool check metrics` on `text`: its exit code and what it printed. */
function promtool(text: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', ['check', 'metrics']);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(text);
  });
}

/**
 * Lint findings promtool may report (exit code 3): only naming rules that Doris's names break on purpose
 * (counters without `_total`, a `_total` gauge, `_ms`, `_count` gauges). A parse error (exit code 1) or a
 * finding of any other kind fails.
 */
const ALLOWED_LINT = /^(doris_(fe|be)_\w+|jvm_(old|young)_gc) (counter metrics should have "_total" suffix|non-counter metrics should not have "_total" suffix|non-histogram and non-summary metrics should not have "_count" suffix|metric names should not contain abbreviated units|metric name should not include type 'counter'|use base unit "seconds" instead of "milliseconds")$/;

async function scrape(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  const checked = await promtool(text);
  assert.ok(checked.code === 0 || checked.code === 3, `promtool failed (${checked.code}): ${checked.output}`);
  for (const line of checked.output.split('\n').filter((item) => item.trim() !== '')) {
    assert.match(line, ALLOWED_LINT, 'unexpected promtool finding');
  }
  return text;
}

/** The value of one sample (`name` or `name{labels}`), or NaN when absent. */
function sample(text: string, series: string): number {
  const escaped = series.replace(/[{}"=.]/g, (ch) => `\\${ch}`);
  const match = new RegExp(`^${escaped} (\\S+)$`, 'm').exec(text);
  return match ? Number(match[1]) : NaN;
}

function typeOf(text: string, name: string): string | undefined {
  return new RegExp(`^# TYPE ${name} (\\w+)$`, 'm').exec(text)?.[1];
}

test('FE and BE /metrics: promtool parses them, Doris names and types, counters move by the right amounts', async () => {
  const server = await startGalene({ args: ['--disable_auto_compaction', 'true'] });
  try {
    const fePort = server.ports.http_port;
    const bePort = server.ports.webserver_port;
    const conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE m');
    await conn.query('USE m');
    await conn.query('CREATE TABLE t (k INT, v VARCHAR(10)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("group_commit_interval_ms" = "200")');

    const fe0 = await scrape(fePort);
    const be0 = await scrape(bePort);
    for (const [name, type] of [['doris_fe_query_total', 'counter'], ['doris_fe_query_err', 'counter'], ['doris_fe_request_total', 'counter'], ['doris_fe_query_latency_ms', 'summary'], ['doris_fe_connection_total', 'gauge'], ['doris_fe_txn_begin', 'counter'], ['doris_fe_txn_success', 'counter'], ['doris_fe_txn_failed', 'counter'], ['doris_fe_txn_counter', 'counter'], ['doris_fe_stream_load', 'counter']]) {
      assert.equal(typeOf(fe0, name), type, name);
    }
    for (const [name, type] of [['doris_be_load_rows', 'counter'], ['doris_be_load_bytes', 'counter'], ['doris_be_stream_load', 'counter'], ['doris_be_compaction_base_total', 'counter'], ['doris_be_wal_fsync_total', 'counter'], ['doris_be_file_cache_hit_total', 'counter'], ['doris_be_wal_total_count', 'gauge'], ['doris_be_process_rss_bytes', 'gauge'], ['doris_be_memory_allocated_bytes', 'gauge'], ['doris_be_file_cache_size_bytes', 'gauge']]) {
      assert.equal(typeOf(be0, name), type, name);
    }
    for (const quantile of ['0.75', '0.95', '0.98', '0.99', '0.999']) assert.ok(fe0.includes(`doris_fe_query_latency_ms{quantile="${quantile}"}`), quantile);
    assert.equal(sample(fe0, 'doris_fe_connection_total'), 1);

    // 3 queries (one fails), 2 INSERTs (2 transactions), a second connection, one Stream Load of 3 rows.
    const second = await connect(server.ports.query_port);
    await conn.query('SELECT 1');
    await conn.query('INSERT INTO t VALUES (1, \'a\'), (2, \'b\')');
    await conn.query('INSERT INTO t VALUES (3, \'c\')');
    await conn.query('SELECT * FROM t');
    await assert.rejects(conn.query('SELECT nope FROM t'));
    const file = path.join(server.dataDir, 'rows.csv');
    const body = '4,d\n5,e\n6,f\n';
    fs.writeFileSync(file, body);
    const load = await curlLoad(`http://127.0.0.1:${fePort}/api/m/t/_stream_load`, file, ['column_separator:,']);
    assert.equal(load.json.Status, 'Success', load.body);

    const fe1 = await scrape(fePort);
    const be1 = await scrape(bePort);
    const feDelta = (series: string): number => sample(fe1, series) - sample(fe0, series);
    const beDelta = (series: string): number => sample(be1, series) - sample(be0, series);
    assert.equal(feDelta('doris_fe_query_total'), 3);
    assert.equal(feDelta('doris_fe_query_err'), 1);
    assert.equal(feDelta('doris_fe_request_total'), 5);
    assert.equal(feDelta('doris_fe_query_latency_ms_count'), 2);
    assert.equal(sample(fe1, 'doris_fe_connection_total'), 2);
    assert.equal(feDelta('doris_fe_txn_begin'), 3);
    assert.equal(feDelta('doris_fe_txn_success'), 3);
    assert.equal(feDelta('doris_fe_txn_failed'), 0);
    assert.equal(feDelta('doris_fe_txn_counter{type="success"}'), 3);
    assert.equal(feDelta('doris_fe_stream_load{type="load_rows"}'), 3);
    // Doris's load_rows counts every load written through a tablet sink: the 3 INSERT rows and the 3 Stream Load rows.
    assert.equal(beDelta('doris_be_load_rows'), 6);
    assert.ok(beDelta('doris_be_load_bytes') > 0, 'load bytes move');
    assert.equal(beDelta('doris_be_push_request_write_rows'), 6);
    assert.equal(beDelta('doris_be_stream_load{type="load_rows"}'), 3);
    assert.equal(beDelta('doris_be_streaming_load_requests_total'), 1);
    assert.equal(beDelta('doris_be_stream_load_txn_request{type="commit"}'), 1);
    assert.equal(sample(be1, 'doris_be_streaming_load_current_processing'), 0);
    assert.ok(beDelta('doris_be_query_scan_rows') >= 3, 'the SELECT * read the table');
    assert.equal(beDelta('doris_be_stream_load{type="receive_bytes"}'), Buffer.byteLength(body));
    assert.equal(beDelta('doris_be_stream_load{type="load_count"}'), 1);

    // A Stream Load that fails (too many filtered rows) aborts its transaction: txn_failed moves.
    fs.writeFileSync(file, 'x,y\n');
    const bad = await curlLoad(`http://127.0.0.1:${fePort}/api/m/t/_stream_load`, file, ['column_separator:,', 'strict_mode:true']);
    assert.equal(bad.json.Status, 'Fail', bad.body);
    const fe2 = await scrape(fePort);
    assert.equal(sample(fe2, 'doris_fe_txn_failed') - sample(fe1, 'doris_fe_txn_failed'), 1);
    const be2 = await scrape(bePort);
    assert.equal(sample(be2, 'doris_be_stream_load_txn_request{type="rollback"}') - sample(be1, 'doris_be_stream_load_txn_request{type="rollback"}'), 1);
    assert.equal(sample(be2, 'doris_be_load_rows'), sample(be1, 'doris_be_load_rows'), 'a failed load loads nothing');

    // A Group Commit INSERT counts in doris_be_load_rows once its batch commits.
    await conn.query("SET group_commit = 'sync_mode'");
    await conn.query("INSERT INTO t VALUES (7, 'g'), (8, 'h')");
    await conn.query("SET group_commit = 'off_mode'");
    const be3 = await scrape(bePort);
    assert.equal(sample(be3, 'doris_be_load_rows') - sample(be2, 'doris_be_load_rows'), 2);

    // The error the client saw is in fe.log and fe.warn.log with the statement's query id.
    const profiles = await queryRows(conn, 'SHOW QUERY PROFILE "/"');
    const failed = profiles.find((row) => row[8] === 'SELECT nope FROM t');
    assert.ok(failed, 'the failed query has a profile');
    for (const name of ['fe.log', 'fe.warn.log']) {
      const log = fs.readFileSync(path.join(server.dataDir, 'log', name), 'utf8');
      const line = log.split('\n').find((item) => item.includes(`[query_id=${failed[0]}]`));
      assert.ok(line, `${name} has query ${failed[0]}: ${log}`);
      assert.match(line, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} WARN \(fe\|mysql-\d+\) .* error 1054: .*nope/);
    }

    await second.end();
    await conn.end();
  } finally {
    await server.stop();
  }
});
