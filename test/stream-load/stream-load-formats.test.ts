/**
 * Stream Load body formats over real HTTP with curl: compressed bodies (gzip, bzip2, lz4, zstd made by
 * their command-line tools; deflate by zlib) decompressed as a stream, CSV enclose / escape /
 * trim_double_quotes / skip_lines / csv_with_names_and_types / multi-byte separators (also across body
 * blocks), JSON json_root / num_as_string / fuzzy_parse, merge_type MERGE with `delete`, hidden columns
 * (__DORIS_DELETE_SIGN__, __DORIS_SEQUENCE_COL__), and the timeout answer.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { GaleneProcess, makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { count, curlLoad, httpPut, sleep } from './helpers';

describe('Stream Load formats', () => {
  let server: GaleneProcess;
  let conn: Connection;
  let url: (table: string) => string;
  const files = makeDataDir('galene-slf-files-');
  const file = (name: string, content: string | Buffer): string => {
    const full = path.join(files, name);
    fs.writeFileSync(full, content);
    return full;
  };
  /** `tool args < input > output`, the way a user compresses a file. */
  const compress = (input: string, output: string, tool: string, args: string[]): string => {
    fs.writeFileSync(output, execFileSync(tool, [...args, input], { maxBuffer: 64 << 20 }));
    return output;
  };

  before(async () => {
    server = await startGalene();
    conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE f');
    await conn.query('CREATE TABLE f.t (k INT NOT NULL, name VARCHAR(40), v DOUBLE) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
    await conn.query('CREATE TABLE f.u (k INT NOT NULL, v VARCHAR(20)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
    await conn.query('CREATE TABLE f.j (id BIGINT NOT NULL, amount DECIMAL(27,9), name VARCHAR(20)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2');
    await conn.query("CREATE TABLE f.s (k INT NOT NULL, v VARCHAR(20), seq INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ('function_column.sequence_col' = 'seq')");
    url = (table) => `http://127.0.0.1:${server.ports.http_port}/api/f/${table}/_stream_load`;
  });

  after(async () => {
    conn?.destroy();
    await server?.stop();
  });

  const rows = async (sql: string): Promise<(string | null)[][]> => queryRows(conn, sql);

  test('compress_type: gz, bz2, lz4, zstd and deflate bodies are decompressed as a stream', async () => {
    // About 5 MB of CSV: several body blocks, and more than one lz4 block (64 KB blocks, linked).
    const lineCount = 200_000;
    const lines: string[] = [];
    for (let rowIdx = 0; rowIdx < lineCount; rowIdx++) lines.push(`${rowIdx},name-${rowIdx % 977},${rowIdx % 13}.5`);
    const plain = file('big.csv', lines.join('\n') + '\n');
    const bodies: [string, string][] = [
      ['gz', compress(plain, path.join(files, 'big.csv.gz'), 'gzip', ['-c'])],
      ['bz2', compress(plain, path.join(files, 'big.csv.bz2'), 'bzip2', ['-c'])],
      ['lz4', compress(plain, path.join(files, 'big.csv.lz4'), 'lz4', ['-c', '-B4', '-BD'])],
      ['LZ4', compress(plain, path.join(files, 'big-indep.csv.lz4'), 'lz4', ['-c', '-9'])],
      ['zstd', compress(plain, path.join(files, 'big.csv.zst'), 'zstd', ['-c', '-q'])],
      ['deflate', file('big.csv.deflate', zlib.deflateSync(fs.readFileSync(plain)))],
    ];
    const expectedSum = ((lineCount - 1) * lineCount) / 2;
    for (const [type, body] of bodies) {
      await conn.query('TRUNCATE TABLE f.t');
      const res = await curlLoad(url('t'), body, ['column_separator:,', `compress_type:${type}`]);
      assert.equal(res.json.Status, 'Success', `${type}: ${res.body}`);
      assert.equal(res.json.NumberLoadedRows, lineCount, type);
      assert.equal(res.json.LoadBytes, fs.statSync(body).size, `${type}: LoadBytes counts the bytes received`);
      assert.ok(fs.statSync(body).size < fs.statSync(plain).size / 2, `${type} body is compressed`);
      assert.deepEqual(await rows('SELECT count(*), sum(k), count(DISTINCT name) FROM f.t'), [[String(lineCount), String(expectedSum), '977']], type);
    }
    // Without compress_type the gzip bytes are CSV (bad rows); a body that is not what compress_type says fails.
    await conn.query('TRUNCATE TABLE f.t');
    const asPlain = await curlLoad(url('t'), bodies[0][1], ['column_separator:,']);
    assert.equal(asPlain.json.Status, 'Fail', asPlain.body);
    for (const type of ['gz', 'bz2', 'lz4', 'zstd', 'deflate']) {
      const wrong = await curlLoad(url('t'), plain, ['column_separator:,', `compress_type:${type}`]);
      assert.equal(wrong.json.Status, 'Fail', `${type}: ${wrong.body}`);
      assert.match(String(wrong.json.Message), new RegExp(`^\\[DATA_QUALITY_ERROR\\]the body is not valid ${type} data`), wrong.body);
    }
    // A truncated compressed body fails and writes nothing.
    const gz = fs.readFileSync(bodies[0][1]);
    const truncated = await curlLoad(url('t'), file('cut.csv.gz', gz.subarray(0, gz.length >> 1)), ['column_separator:,', 'compress_type:gz']);
    assert.equal(truncated.json.Status, 'Fail', truncated.body);
    const lz4 = fs.readFileSync(bodies[2][1]);
    const truncatedLz4 = await curlLoad(url('t'), file('cut.csv.lz4', lz4.subarray(0, lz4.length - 100)), ['column_separator:,', 'compress_type:lz4']);
    assert.match(String(truncatedLz4.json.Message), /the body ends inside an LZ4 frame/, truncatedLz4.body);
    assert.equal(await count(conn, 'f.t'), 0);
    // Group Commit loads read the same decompressed body.
    await conn.query("CREATE TABLE f.g (k INT NOT NULL, name VARCHAR(40), v DOUBLE) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ('group_commit_interval_ms' = '100')");
    const grouped = await curlLoad(url('g'), compress(file('small.csv', '1,a,1\n2,b,2\n'), path.join(files, 'small.csv.zst'), 'zstd', ['-c', '-q']), ['column_separator:,', 'compress_type:zstd', 'group_commit:sync_mode']);
    assert.equal(grouped.json.GroupCommit, true, grouped.body);
    assert.equal(grouped.json.NumberLoadedRows, 2, grouped.body);
    assert.equal(await count(conn, 'f.g'), 2);
    // JSON bodies decompress too.
    const json = file('rows.json', '{"id": 1, "name": "gz"}\n{"id": 2, "name": "json"}\n');
    const jsonGz = await curlLoad(url('j'), compress(json, path.join(files, 'rows.json.gz'), 'gzip', ['-c']), ['format:json', 'read_json_by_line:true', 'compress_type:gz']);
    assert.equal(jsonGz.json.NumberLoadedRows, 2, jsonGz.body);
    await conn.query('TRUNCATE TABLE f.j');
  });

  test('CSV enclose and escape: separators, line delimiters and quotes inside enclosed fields', async () => {
    await conn.query('TRUNCATE TABLE f.t');
    const body = file('enc.csv', ['1,"a,b",1.5', '2,"line', 'break",2', '3,"say \\"hi\\"",3', '4,"x""y",4', '5,plain,5', '6,"",6', '\\N,"k is null",7'].join('\n') + '\n');
    const res = await curlLoad(url('t'), body, ['column_separator:,', 'enclose:"', 'escape:\\\\', 'max_filter_ratio:0.2']);
    assert.equal(res.json.Status, 'Success', res.body);
    assert.equal(res.json.NumberTotalRows, 7, res.body);
    assert.equal(res.json.NumberFilteredRows, 1, res.body);
    assert.deepEqual(await rows('SELECT k, name, v FROM f.t ORDER BY k'), [
      ['1', 'a,b', '1.5'],
      ['2', 'line\nbreak', '2'],
      ['3', 'say "hi"', '3'],
      ['4', 'x"y', '4'],
      ['5', 'plain', '5'],
      ['6', '', '6'],
    ]);
    // The filtered row's error log shows the line as it was sent.
    const log = await fetch(String(res.json.ErrorURL)).then((reply) => reply.text());
    assert.match(log, /Src line: \[\\N,"k is null",7\]/);
    // Without enclose the quotes are data and the quoted separator splits the field.
    const plain = await curlLoad(url('t'), file('noenc.csv', '7,"a,b",1\n'), ['column_separator:,']);
    assert.equal(plain.json.Status, 'Fail', plain.body);
    assert.match(await fetch(String(plain.json.ErrorURL)).then((reply) => reply.text()), /actual column number in csv file is more than schema column number/);
    // Multi-byte separator and delimiter, hex forms, fields that straddle body blocks (exec_mem_limit 4096).
    await conn.query('TRUNCATE TABLE f.t');
    const many = Array.from({ length: 3000 }, (_v, idx) => `${idx}||'n||${idx}\r\n;x'||${idx}`).join('\r\n;');
    const multi = await curlLoad(url('t'), file('multi.csv', many), ['column_separator:\\x7c7c', 'line_delimiter:\\x0d\\x0a\\x3b', "enclose:'", 'exec_mem_limit:4096']);
    assert.equal(multi.json.Status, 'Success', multi.body);
    assert.equal(multi.json.NumberLoadedRows, 3000, multi.body);
    assert.deepEqual(await rows('SELECT name FROM f.t WHERE k = 2999'), [['n||2999\r\n;x']]);
  });

  test('trim_double_quotes, skip_lines, csv_with_names and csv_with_names_and_types', async () => {
    await conn.query('TRUNCATE TABLE f.t');
    const trimmed = await curlLoad(url('t'), file('trim.csv', '"1","one","1.5"\n2,"two,x",2\n'), ['column_separator:,', 'trim_double_quotes:true', 'max_filter_ratio:0.5']);
    assert.equal(trimmed.json.NumberLoadedRows, 1, trimmed.body);
    assert.deepEqual(await rows('SELECT k, name, v FROM f.t ORDER BY k'), [['1', 'one', '1.5']]);
    const kept = await curlLoad(url('t'), file('keep.csv', '8,"eight",8\n'), ['column_separator:,']);
    assert.equal(kept.json.NumberLoadedRows, 1, kept.body);
    assert.deepEqual(await rows('SELECT name FROM f.t WHERE k = 8'), [['"eight"']], 'without trim_double_quotes the quotes are data');
    await conn.query('TRUNCATE TABLE f.t');
    const skipped = await curlLoad(url('t'), file('skip.csv', 'garbage line\nanother one\n10,ten,10\n11,eleven,11\n'), ['column_separator:,', 'skip_lines:2']);
    assert.equal(skipped.json.Status, 'Success', skipped.body);
    assert.equal(skipped.json.NumberTotalRows, 2, skipped.body);
    const typed = await curlLoad(url('t'), file('typed.csv', 'k,name,v\nint,varchar(40),double\n12,twelve,12\n'), ['column_separator:,', 'format:csv_with_names_and_types']);
    assert.equal(typed.json.NumberTotalRows, 1, typed.body);
    const named = await curlLoad(url('t'), file('named.csv', 'k,name,v\n13,thirteen,13\n'), ['column_separator:,', 'format:csv_with_names', 'skip_lines:5']);
    assert.equal(named.json.NumberTotalRows, 1, named.body);
    assert.match(String(named.json.Message), /^OK; warnings: skip_lines: no effect with format csv_with_names/, named.body);
    assert.deepEqual(await rows('SELECT k FROM f.t ORDER BY k'), [['10'], ['11'], ['12'], ['13']]);
  });

  test('JSON: json_root, num_as_string, fuzzy_parse', async () => {
    await conn.query('TRUNCATE TABLE f.j');
    const rooted = await curlLoad(url('j'), file('root.json', '{"meta": {"n": 2}, "data": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]}'), ['format:json', 'json_root:$.data', 'strip_outer_array:true']);
    assert.equal(rooted.json.Status, 'Success', rooted.body);
    assert.equal(rooted.json.NumberLoadedRows, 2, rooted.body);
    const byLine = await curlLoad(url('j'), file('root-lines.json', '{"item": {"id": 3, "name": "c"}}\n{"other": 1}\n'), ['format:json', 'read_json_by_line:true', 'json_root:$.item', 'max_filter_ratio:0.5']);
    assert.equal(byLine.json.NumberLoadedRows, 1, byLine.body);
    assert.match(await fetch(String(byLine.json.ErrorURL)).then((reply) => reply.text()), /Reason: JSON Root not found\./);
    assert.deepEqual(await rows('SELECT id, name FROM f.j ORDER BY id'), [['1', 'a'], ['2', 'b'], ['3', 'c']]);
    // Numbers through a double lose digits; num_as_string keeps the exact text.
    const exact = '{"id": 9007199254740993, "amount": 123456789012345678.123456789, "name": "big"}\n';
    await conn.query('TRUNCATE TABLE f.j');
    await curlLoad(url('j'), file('num.json', exact), ['format:json', 'read_json_by_line:true']);
    await curlLoad(url('j'), file('num2.json', exact.replace('big', 'exact')), ['format:json', 'read_json_by_line:true', 'num_as_string:true']);
    const loaded = await rows('SELECT id, CAST(amount AS CHAR), name FROM f.j ORDER BY name');
    assert.deepEqual(loaded.find((row) => row[2] === 'exact'), ['9007199254740993', '123456789012345678.123456789', 'exact']);
    assert.notDeepEqual(loaded.find((row) => row[2] === 'big'), ['9007199254740993', '123456789012345678.123456789', 'big']);
    // fuzzy_parse takes values at the first row's key positions: a row with its keys in another order misreads.
    await conn.query('TRUNCATE TABLE f.j');
    const body = file('fuzzy.json', '[{"id": 1, "name": "a"}, {"name": "b", "id": 2}, {"id": 3, "name": "c"}]');
    const strict = await curlLoad(url('j'), body, ['format:json', 'strip_outer_array:true']);
    assert.equal(strict.json.NumberLoadedRows, 3, strict.body);
    await conn.query('TRUNCATE TABLE f.j');
    const fuzzy = await curlLoad(url('j'), body, ['format:json', 'strip_outer_array:true', 'fuzzy_parse:true', 'max_filter_ratio:0.5']);
    assert.equal(fuzzy.json.NumberLoadedRows, 2, fuzzy.body);
    assert.equal(fuzzy.json.NumberFilteredRows, 1, fuzzy.body);
    assert.deepEqual(await rows('SELECT id, name FROM f.j ORDER BY id'), [['1', 'a'], ['3', 'c']]);
  });

  test('merge_type MERGE deletes the rows its delete condition selects and upserts the others', async () => {
    await conn.query("INSERT INTO f.u VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    const merged = await curlLoad(url('u'), file('merge.csv', '1,x\n2,del\n4,new\n9,del\n'), ['column_separator:,', 'merge_type:MERGE', "delete:v = 'del'", 'label:merge_1']);
    assert.equal(merged.json.Status, 'Success', merged.body);
    assert.equal(merged.json.NumberLoadedRows, 4, merged.body);
    assert.deepEqual(await rows('SELECT k, v FROM f.u ORDER BY k'), [['1', 'x'], ['3', 'c'], ['4', 'new']]);
    // The delete condition may read a source column that is not stored.
    const bySource = await curlLoad(url('u'), file('merge2.csv', '3,c,1\n5,e,0\n'), ['column_separator:,', 'columns: k, v, op', 'merge_type:MERGE', 'delete: op = 1']);
    assert.equal(bySource.json.Status, 'Success', bySource.body);
    assert.deepEqual(await rows('SELECT k, v FROM f.u ORDER BY k'), [['1', 'x'], ['4', 'new'], ['5', 'e']]);
    // Refused where Doris refuses it, and where Galene does not have it yet; nothing changes.
    const dup = await curlLoad(url('t'), file('m.csv', '1,a,1\n'), ['column_separator:,', 'merge_type:MERGE', 'delete:k = 1']);
    assert.match(String(dup.json.Message), /load by MERGE or DELETE is only supported in unique tables\./);
    const twoPc = await curlLoad(url('u'), file('m2.csv', '1,y\n'), ['column_separator:,', 'merge_type:MERGE', 'delete:k = 1', 'two_phase_commit:true']);
    assert.match(String(twoPc.json.Message), /two_phase_commit is not supported with merge_type MERGE/);
    const badCondition = await curlLoad(url('u'), file('m3.csv', '1,y\n'), ['column_separator:,', 'merge_type:MERGE', 'delete:nosuch = 1']);
    assert.match(String(badCondition.json.Message), /Invalid delete 'nosuch = 1'/);
    assert.deepEqual(await rows('SELECT k, v FROM f.u ORDER BY k'), [['1', 'x'], ['4', 'new'], ['5', 'e']]);
    // MERGE loads survive a restart.
    conn.destroy();
    await server.stop();
    server = await startGalene({ dataDir: server.dataDir });
    conn = await connect(server.ports.query_port);
    url = (table) => `http://127.0.0.1:${server.ports.http_port}/api/f/${table}/_stream_load`;
    assert.deepEqual(await rows('SELECT k, v FROM f.u ORDER BY k'), [['1', 'x'], ['4', 'new'], ['5', 'e']]);
  });

  test('hidden_columns: __DORIS_DELETE_SIGN__ deletes keys, __DORIS_SEQUENCE_COL__ is the sequence', async () => {
    await conn.query('TRUNCATE TABLE f.u');
    await conn.query("INSERT INTO f.u VALUES (1, 'a'), (2, 'b')");
    const hidden = await curlLoad(url('u'), file('sign.csv', '1,gone,1\n3,c,0\n'), ['column_separator:,', 'hidden_columns:__DORIS_DELETE_SIGN__']);
    assert.equal(hidden.json.Status, 'Success', hidden.body);
    assert.deepEqual(await rows('SELECT k, v FROM f.u ORDER BY k'), [['2', 'b'], ['3', 'c']]);
    const named = await curlLoad(url('u'), file('sign2.csv', '0,2,x\n'), ['column_separator:,', 'columns: __DORIS_DELETE_SIGN__, k, v']);
    assert.equal(named.json.Status, 'Success', named.body);
    assert.deepEqual(await rows('SELECT k, v FROM f.u ORDER BY k'), [['2', 'x'], ['3', 'c']]);
    const onDup = await curlLoad(url('t'), file('sign3.csv', '1,a,1,1\n'), ['column_separator:,', 'hidden_columns:__DORIS_DELETE_SIGN__']);
    assert.match(String(onDup.json.Message), /__DORIS_DELETE_SIGN__ is only loaded into unique tables/, onDup.body);
    // The sequence column by its hidden name: a row with a smaller sequence value does not replace.
    const first = await curlLoad(url('s'), file('seq1.csv', '1,a,10\n'), ['column_separator:,', 'columns: k, v, __DORIS_SEQUENCE_COL__']);
    assert.equal(first.json.Status, 'Success', first.body);
    await curlLoad(url('s'), file('seq2.csv', '1,b,5\n'), ['column_separator:,', 'columns: k, v, __DORIS_SEQUENCE_COL__']);
    assert.deepEqual(await rows('SELECT k, v, seq FROM f.s'), [['1', 'a', '10']]);
    const both = await curlLoad(url('s'), file('seq3.csv', '1,c,20,1\n'), ['column_separator:,', 'hidden_columns:__DORIS_SEQUENCE_COL__']);
    assert.equal(both.json.Status, 'Success', both.body);
    assert.match(String(both.json.Message), /warnings: __DORIS_SEQUENCE_COL__: not stored: the sequence column seq is loaded from its own field/);
    assert.deepEqual(await rows('SELECT k, v, seq FROM f.s'), [['1', 'c', '20']]);
    const noSeq = await curlLoad(url('u'), file('seq4.csv', '1,a,1\n'), ['column_separator:,', 'hidden_columns:__DORIS_SEQUENCE_COL__']);
    assert.match(String(noSeq.json.Message), /there is no sequence column in the table/, noSeq.body);
  });

  test('timeout: a load still reading its body when it passes is aborted with Doris\'s message', async () => {
    const before = await count(conn, 'f.t');
    const res = await httpPut(server.ports.webserver_port, '/api/f/t/_stream_load', { column_separator: ',', timeout: '1', label: 'slow_1', 'Transfer-Encoding': 'chunked' }, async (req) => {
      req.write('100,slow,1\n');
      await sleep(2500);
      req.write('101,late,1\n');
    });
    assert.equal(res.json.Status, 'Fail', res.body);
    assert.match(String(res.json.Message), /^\[TIMEOUT\]timeout by txn manager/, res.body);
    assert.equal(await count(conn, 'f.t'), before);
    const [txn] = await rows("SHOW TRANSACTION FROM f WHERE LABEL = 'slow_1'");
    assert.equal(txn[3], 'ABORTED');
  });
});
