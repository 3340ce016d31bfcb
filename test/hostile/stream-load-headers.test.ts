/**
 * Stream Load headers Galene does not act on are refused or warned about, never ignored: merge_type
 * DELETE (which used to answer Success and upsert the rows it was asked to delete) and its checks, each
 * Doris header value that is not implemented, bad values; the refused load changes nothing. Misspelt
 * Doris-style names load with a warning (Doris ignores unknown headers). Doris's defaults spelt out,
 * pure execution hints and ordinary HTTP headers still load. The same holds for Group Commit loads,
 * which share the header parsing. Real curl against a real server. (Every header: test/stream-load/
 * stream-load-header-walk.test.ts.)
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { GaleneProcess, makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { curlLoad } from '../stream-load/helpers';

describe('Stream Load headers (hostile)', () => {
  let server: GaleneProcess;
  let conn: Connection;
  let url: (table: string) => string;
  const files = makeDataDir('galene-slh-files-');
  const csv = path.join(files, 'rows.csv');

  before(async () => {
    fs.writeFileSync(csv, '1,100\n2,200\n');
    server = await startGalene();
    conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE slh');
    await conn.query('CREATE TABLE slh.u (k INT NOT NULL, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
    await conn.query('CREATE TABLE slh.d (k INT NOT NULL, v INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
    await conn.query('CREATE TABLE slh.mor (k INT NOT NULL, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("enable_unique_key_merge_on_write" = "false")');
    await conn.query('INSERT INTO slh.u VALUES (1, 1), (2, 2), (3, 3)');
    url = (table) => `http://127.0.0.1:${server.ports.http_port}/api/slh/${table}/_stream_load`;
  });

  after(async () => {
    conn?.destroy();
    await server?.stop();
  });

  const rowsOf = async (table: string): Promise<string> => JSON.stringify(await queryRows(conn, `SELECT k, v FROM slh.${table} ORDER BY k`));

  /** Loads `csv` into `table` with `headers`, expects a refusal naming `named`, and that nothing changed. */
  async function refused(table: string, headers: string[], named: RegExp): Promise<void> {
    const before = await rowsOf(table);
    const res = await curlLoad(url(table), csv, ['column_separator:,', ...headers]);
    assert.equal(res.status, 200, res.body);
    assert.equal(res.json.Status, 'Fail', `${headers.join(' ')} -> ${res.body}`);
    assert.match(String(res.json.Message), /^\[INVALID_ARGUMENT\]/, res.body);
    assert.match(String(res.json.Message), named, res.body);
    assert.equal(res.json.NumberLoadedRows, 0);
    assert.equal(await rowsOf(table), before, `${headers.join(' ')} changed the table`);
  }

  test('merge_type DELETE deletes the given keys of a merge-on-write UNIQUE table; merge_type and delete are checked as Doris does', async () => {
    await refused('u', ['merge_type:MERGE'], /Excepted DELETE ON clause when merge type is MERGE\./);
    await refused('u', ['delete:k=1'], /Not support DELETE ON clause when merge type is not MERGE\./);
    await refused('u', ['merge_type:UPSERT'], /Invalid merge type UPSERT/);
    await refused('d', ['merge_type:MERGE', 'delete:k=1'], /load by MERGE or DELETE is only supported in unique tables\./);
    // DELETE where it cannot apply: Doris's message for the other models; the rest not implemented yet.
    await refused('d', ['merge_type:DELETE'], /load by MERGE or DELETE is only supported in unique tables\./);
    await refused('mor', ['merge_type:DELETE'], /merge-on-write/);
    await refused('u', ['merge_type:DELETE', 'two_phase_commit:true'], /two_phase_commit/);
    await refused('u', ['merge_type:DELETE', 'partial_columns:true'], /partial_columns/);
    assert.equal(await rowsOf('u'), JSON.stringify([['1', '1'], ['2', '2'], ['3', '3']]));

    // Rows 1 and 2 name the keys to delete (their values do not matter); key 3 stays. It used to answer
    // Success and upsert (1, 100), (2, 200).
    const del = await curlLoad(url('u'), csv, ['column_separator:,', 'merge_type:DELETE', 'label:del_1']);
    assert.equal(del.json.Status, 'Success', del.body);
    assert.equal(del.json.NumberLoadedRows, 2);
    assert.equal(await rowsOf('u'), JSON.stringify([['3', '3']]));
    // The label is taken like any load's.
    const again = await curlLoad(url('u'), csv, ['column_separator:,', 'merge_type:delete', 'label:del_1']);
    assert.equal(again.json.Status, 'Label Already Exists', again.body);
    // Keys that do not exist delete nothing; bad rows count against max_filter_ratio as in any load.
    const missing = path.join(files, 'missing.csv');
    fs.writeFileSync(missing, '7,0\nnotakey,0\n');
    const none = await curlLoad(url('u'), missing, ['column_separator:,', 'merge_type:DELETE']);
    assert.equal(none.json.Status, 'Fail', none.body);
    assert.match(String(none.json.Message), /DATA_QUALITY/);
    const tolerated = await curlLoad(url('u'), missing, ['column_separator:,', 'merge_type:DELETE', 'max_filter_ratio:0.5']);
    assert.equal(tolerated.json.Status, 'Success', tolerated.body);
    assert.equal(await rowsOf('u'), JSON.stringify([['3', '3']]));
    // A deleted key can be loaded again.
    const back = await curlLoad(url('u'), csv, ['column_separator:,', 'merge_type:APPEND']);
    assert.equal(back.json.Status, 'Success', back.body);
    assert.equal(await rowsOf('u'), JSON.stringify([['1', '100'], ['2', '200'], ['3', '3']]));
    const json = path.join(files, 'del.json');
    fs.writeFileSync(json, '[{"k": 2, "v": 0}, {"k": 3}]');
    const byJson = await curlLoad(url('u'), json, ['format:json', 'strip_outer_array:true', 'merge_type:DELETE']);
    assert.equal(byJson.json.Status, 'Success', byJson.body);
    assert.equal(await rowsOf('u'), JSON.stringify([['1', '100']]));
  });

  test('each Doris header value Galene does not implement is refused, naming the header', async () => {
    const cases: [string, RegExp][] = [
      ['partitions:p1', /header partitions /],
      ['temporary_partitions:tp1', /header temporary_partitions /],
      ['timezone:Asia/Shanghai', /header timezone /],
      ['time_zone:+08:00', /header time_zone /],
      ['negative:true', /header negative /],
      ['compute_group:other_group', /header compute_group /],
      ['cloud_cluster:other_group', /header cloud_cluster /],
      ['unique_key_update_mode:UPDATE_FLEXIBLE_COLUMNS', /header unique_key_update_mode /],
      ['partial_update_new_key_behavior:ERROR', /header partial_update_new_key_behavior /],
      ['send_batch_parallelism:0', /Invalid send_batch_parallelism format/],
      ['memtable_on_sink_node:maybe', /Invalid memtable_on_sink_node value: maybe/],
      ['trim_double_quotes:maybe', /Invalid trim_double_quotes value: maybe/],
      ['enclose:ab', /enclose should be a single byte/],
      ['escape:\\x0102', /escape should be a single byte/],
      ['skip_lines:-1', /Invalid skip_lines: -1/],
      ['compress_type:rar', /unknown compress type, compress_type=rar/],
      ['json_root:data', /Invalid jsonpath: data/],
      ['hidden_columns:__DORIS_VERSION_COL__', /Invalid hidden_columns/],
    ];
    for (const [headerLine, named] of cases) await refused('d', [headerLine], named);
    // Formats and codecs Doris has and Galene does not: NOT_IMPLEMENTED.
    for (const headerLine of ['compress_type:lzo', 'compress_type:snappy_block', 'format:orc']) {
      const res = await curlLoad(url('d'), csv, ['column_separator:,', headerLine]);
      assert.equal(res.json.Status, 'Fail', res.body);
      assert.match(String(res.json.Message), /^\[NOT_IMPLEMENTED_ERROR\].* is not supported yet/, res.body);
    }
    assert.equal(await rowsOf('d'), '[]');
  });

  test('a ? placeholder in columns or where is refused while planning, not on every row', async () => {
    await refused('d', ['columns:k,x,v=?'], /Invalid column mapping 'v = \?': This version of Galene doesn't yet support '\? placeholders in Stream Load expressions'/);
    await refused('d', ['columns:k,v', 'where:v > ?'], /Invalid where 'v > \?': This version of Galene doesn't yet support '\? placeholders/);
  });

  test('a misspelt Doris-style header loads with a warning (Doris ignores it); a long value is shortened in a message', async () => {
    const res = await curlLoad(url('d'), csv, ['column_separator:,', 'column_seperator:|', 'label:misspelt_1']);
    assert.equal(res.json.Status, 'Success', res.body);
    assert.match(String(res.json.Message), /^OK; warnings: column_seperator: unknown Stream Load header, ignored$/, res.body);
    // The warning is in fe.log too.
    const log = fs.readFileSync(path.join(server.dataDir, 'log', 'fe.log'), 'utf8');
    assert.match(log, /WARN \(fe\|stream-load\) stream load slh\.d label misspelt_1: headers accepted without effect: column_seperator: unknown Stream Load header, ignored/);
    await conn.query('TRUNCATE TABLE slh.d');
    const long = 'x'.repeat(500);
    const bad = await curlLoad(url('d'), csv, ['column_separator:,', `enclose:${long}`]);
    assert.equal(bad.json.Status, 'Fail');
    assert.ok(String(bad.json.Message).length < 200, String(bad.json.Message));
  });

  test("Doris's defaults spelt out, execution hints and ordinary HTTP headers load", async () => {
    const res = await curlLoad(url('d'), csv, [
      'column_separator:,',
      'merge_type:APPEND',
      'skip_lines:0',
      'trim_double_quotes:false',
      'compress_type:plain',
      'fuzzy_parse:false',
      'num_as_string:false',
      'load_to_single_tablet:false',
      'unique_key_update_mode:UPSERT',
      'compute_group:default_compute_group',
      'send_batch_parallelism:4',
      'memtable_on_sink_node:true',
      'Expect:100-continue',
      'User-Agent:loader/1.0',
      'X-Request-Id:abc-123',
      'Content-Type:text/csv',
      'enclose:',
    ]);
    assert.equal(res.json.Status, 'Success', res.body);
    assert.equal(await rowsOf('d'), JSON.stringify([['1', '100'], ['2', '200']]));
  });

  test('Group Commit loads refuse the same headers and write nothing; merge_type DELETE goes without Group Commit', async () => {
    await refused('d', ['group_commit:sync_mode', 'timezone:UTC'], /header timezone /);
    await refused('d', ['group_commit:async_mode', 'partitions:p1'], /header partitions /);
    await refused('d', ['group_commit:async_mode', 'merge_type:DELETE'], /only supported in unique tables/);
    const ok = await curlLoad(url('d'), csv, ['column_separator:,', 'group_commit:sync_mode', 'merge_type:APPEND']);
    assert.equal(ok.json.Status, 'Success', ok.body);
    assert.equal(ok.json.GroupCommit, true, ok.body);
    assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM slh.d'), [['4']]);
    const del = await curlLoad(url('u'), csv, ['column_separator:,', 'group_commit:async_mode', 'merge_type:DELETE']);
    assert.equal(del.json.Status, 'Success', del.body);
    assert.equal(del.json.GroupCommit, undefined, del.body);
    assert.equal(await rowsOf('u'), '[]');
  });

  test('a DELETE load survives a restart', async () => {
    const res = await curlLoad(url('u'), csv, ['column_separator:,']);
    assert.equal(res.json.Status, 'Success', res.body);
    const one = path.join(files, 'one.csv');
    fs.writeFileSync(one, '2,0\n');
    const del = await curlLoad(url('u'), one, ['column_separator:,', 'merge_type:DELETE']);
    assert.equal(del.json.Status, 'Success', del.body);
    assert.equal(await rowsOf('u'), JSON.stringify([['1', '100']]));
    conn.destroy();
    await server.stop();
    server = await startGalene({ dataDir: server.dataDir });
    conn = await connect(server.ports.query_port);
    assert.equal(await rowsOf('u'), JSON.stringify([['1', '100']]));
  });
});
