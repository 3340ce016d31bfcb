/**
 * Stream Load headers Galene does not act on are refused, never ignored: merge_type DELETE / MERGE (which
 * used to answer Success and upsert the rows it was asked to delete), each Doris header that is not
 * implemented, and misspelt Doris-style names; the refused load changes nothing. Doris's defaults spelt
 * out, pure execution hints and ordinary HTTP headers still load. The same holds for Group Commit loads,
 * which share the header parsing. Real curl against a real server.
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

  test('merge_type DELETE deletes the given keys of a merge-on-write UNIQUE table; MERGE and the delete header are refused', async () => {
    await refused('u', ['merge_type:MERGE', 'delete:k=1'], /merge_type MERGE is not supported yet, only APPEND and DELETE/);
    await refused('u', ['delete:k=1'], /header delete is not supported yet/);
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

  test('each Doris header Galene does not implement is refused, naming the header', async () => {
    const cases: [string, RegExp][] = [
      ['enclose:"', /header enclose /],
      ['escape:\\\\', /header escape /],
      ['compress_type:GZ', /header compress_type .*GZ/],
      ['trim_double_quotes:true', /header trim_double_quotes /],
      ['skip_lines:1', /header skip_lines /],
      ['json_root:$.data', /header json_root /],
      ['fuzzy_parse:true', /header fuzzy_parse /],
      ['num_as_string:true', /header num_as_string /],
      ['hidden_columns:__DORIS_DELETE_SIGN__', /header hidden_columns /],
      ['partitions:p1', /header partitions /],
      ['temporary_partitions:tp1', /header temporary_partitions /],
      ['timezone:Asia/Shanghai', /header timezone /],
      ['time_zone:+08:00', /header time_zone /],
      ['load_to_single_tablet:true', /header load_to_single_tablet /],
      ['negative:true', /header negative /],
      ['enable_profile:true', /header enable_profile /],
      ['compute_group:other_group', /header compute_group /],
      ['cloud_cluster:other_group', /header cloud_cluster /],
      ['unique_key_update_mode:UPDATE_FLEXIBLE_COLUMNS', /header unique_key_update_mode /],
      ['partial_update_new_key_behavior:ERROR', /header partial_update_new_key_behavior /],
      ['send_batch_parallelism:0', /header send_batch_parallelism /],
      ['memtable_on_sink_node:maybe', /header memtable_on_sink_node /],
    ];
    for (const [headerLine, named] of cases) await refused('d', [headerLine], named);
    assert.equal(await rowsOf('d'), '[]');
  });

  test('a ? placeholder in columns or where is refused while planning, not on every row', async () => {
    await refused('d', ['columns:k,x,v=?'], /Invalid column mapping 'v = \?': This version of Galene doesn't yet support '\? placeholders in Stream Load expressions'/);
    await refused('d', ['columns:k,v', 'where:v > ?'], /Invalid where 'v > \?': This version of Galene doesn't yet support '\? placeholders/);
  });

  test('a misspelt Doris-style header is refused; a long value is shortened in the message', async () => {
    await refused('d', ['column_seperator:|'], /Unknown Stream Load header: column_seperator/);
    await refused('d', ['max_filter_rate:0.5'], /Unknown Stream Load header: max_filter_rate/);
    const long = 'x'.repeat(500);
    const res = await curlLoad(url('d'), csv, ['column_separator:,', `enclose:${long}`]);
    assert.equal(res.json.Status, 'Fail');
    assert.ok(String(res.json.Message).length < 200, String(res.json.Message));
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
    await refused('d', ['group_commit:sync_mode', 'enclose:"'], /header enclose /);
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
