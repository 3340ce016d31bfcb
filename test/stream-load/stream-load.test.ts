/**
 * Stream Load over real HTTP: curl through the FE redirect and straight to the BE, every header, labels,
 * filtering with ErrorURL, two-phase commit, bad input, chunked and 100-continue bodies, multi-batch loads
 * visible atomically, and a client that disconnects mid-body.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { GaleneProcess, makeDataDir, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { count, curlGet, curlLoad, httpPut, segmentFiles, sleep } from './helpers';

describe('Stream Load', () => {
  let server: GaleneProcess;
  let conn: Connection;
  let feUrl: (table: string) => string;
  let beUrl: (table: string) => string;
  const files = makeDataDir('galene-sl-files-');
  const file = (name: string, content: string | Buffer): string => {
    const full = path.join(files, name);
    fs.writeFileSync(full, content);
    return full;
  };
  const tables = ['sl.t', 'sl.j', 'sl.u', 'sl.big'];

  before(async () => {
    server = await startGalene();
    conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE sl');
    await conn.query('CREATE TABLE sl.t (k INT NOT NULL, name VARCHAR(8), v DOUBLE, d DATE) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 3');
    await conn.query('CREATE TABLE sl.j (id BIGINT NOT NULL, city VARCHAR(20), score DECIMAL(10,2)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2');
    await conn.query('CREATE TABLE sl.u (k INT NOT NULL, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
    await conn.query('CREATE TABLE sl.big (id INT NOT NULL, payload VARCHAR(64)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2');
    feUrl = (table) => `http://127.0.0.1:${server.ports.http_port}/api/sl/${table}/_stream_load`;
    beUrl = (table) => `http://127.0.0.1:${server.ports.webserver_port}/api/sl/${table}/_stream_load`;
  });

  after(async () => {
    conn?.destroy();
    await server?.stop();
  });

  test('curl through the FE redirect loads CSV; a retry with the same label writes nothing', async () => {
    const csv = file('a.csv', '1,one,1.5,2024-01-02\n2,two,2.5,2024-02-03\n');
    const first = await curlLoad(feUrl('t'), csv, ['label:retry_1', 'column_separator:,']);
    assert.equal(first.status, 200);
    assert.equal(first.json.Status, 'Success', first.body);
    assert.equal(first.json.Label, 'retry_1');
    assert.equal(first.json.TwoPhaseCommit, 'false');
    assert.equal(first.json.NumberTotalRows, 2);
    assert.equal(first.json.NumberLoadedRows, 2);
    assert.equal(first.json.NumberFilteredRows, 0);
    assert.equal(first.json.LoadBytes, fs.statSync(csv).size);
    for (const field of ['TxnId', 'Comment', 'Message', 'NumberUnselectedRows', 'LoadTimeMs', 'BeginTxnTimeMs', 'StreamLoadPutTimeMs', 'ReadDataTimeMs', 'WriteDataTimeMs', 'CommitAndPublishTimeMs']) assert.ok(field in first.json, field);
    assert.deepEqual(await queryRows(conn, 'SELECT k, name, v, d FROM sl.t ORDER BY k'), [
      ['1', 'one', '1.5', '2024-01-02'],
      ['2', 'two', '2.5', '2024-02-03'],
    ]);
    const retry = await curlLoad(feUrl('t'), csv, ['label:retry_1', 'column_separator:,']);
    assert.equal(retry.json.Status, 'Label Already Exists');
    assert.equal(retry.json.ExistingJobStatus, 'FINISHED');
    assert.equal(retry.json.TxnId, first.json.TxnId);
    assert.equal(await count(conn, 'sl.t'), 2);
    // SHOW LOAD / SHOW TRANSACTION see the job.
    const loads = await queryRows(conn, "SHOW LOAD FROM sl WHERE LABEL = 'retry_1'");
    assert.equal(loads.length, 1);
    assert.equal(loads[0][2], 'FINISHED');
    assert.equal(loads[0][4], 'STREAM_LOAD');
    const txns = await queryRows(conn, `SHOW TRANSACTION FROM sl WHERE ID = ${first.json.TxnId}`);
    assert.equal(txns[0][1], 'retry_1');
    assert.equal(txns[0][3], 'VISIBLE');
    // A load without a label gets a generated one.
    const unlabeled = await curlLoad(beUrl('t'), file('b.csv', '3,three,3,2024-03-04\n'), ['column_separator:,']);
    assert.equal(unlabeled.json.Status, 'Success');
    assert.match(String(unlabeled.json.Label), /^[0-9a-f-]{36}$/);
  });

  test('bad or missing credentials: 401 and nothing written', async () => {
    await conn.query("CREATE USER 'loader'@'%' IDENTIFIED BY 'secret'");
    const before = await count(conn, 'sl.t');
    const csv = file('auth.csv', '100,x,1,2024-01-01\n');
    for (const auth of ['root:wrong', null, 'nobody:', 'loader:nope']) {
      const res = await curlLoad(feUrl('t'), csv, ['column_separator:,'], auth);
      assert.equal(res.status, 401, `auth ${auth}`);
      const direct = await curlLoad(beUrl('t'), csv, ['column_separator:,'], auth);
      assert.equal(direct.status, 401, `auth ${auth} on the BE`);
    }
    assert.equal(await count(conn, 'sl.t'), before);
    await conn.query("GRANT LOAD_PRIV ON sl.t TO 'loader'@'%'");
    const ok = await curlLoad(feUrl('t'), csv, ['column_separator:,', 'label:by_loader'], 'loader:secret');
    assert.equal(ok.json.Status, 'Success', ok.body);
    assert.equal(await count(conn, 'sl.t'), before + 1);
  });

  test('max_filter_ratio: over the ratio writes nothing; under it loads the good rows; ErrorURL lists the bad ones', async () => {
    await conn.query('TRUNCATE TABLE sl.t');
    const csv = file('bad.csv', ['1|ok|1|2024-01-01', '2|waytoolongname|2|2024-01-01', 'x|bad key|3|2024-01-01', '4|short', '5|fine|5|2024-01-05'].join('\n') + '\n');
    const failed = await curlLoad(beUrl('t'), csv, ['column_separator:|', 'label:ratio_fail']);
    assert.equal(failed.json.Status, 'Fail');
    assert.equal(failed.json.Message, '[DATA_QUALITY_ERROR]too many filtered rows');
    assert.equal(failed.json.NumberTotalRows, 5);
    assert.equal(failed.json.NumberFilteredRows, 3);
    assert.equal(await count(conn, 'sl.t'), 0);
    const log = await curlGet(String(failed.json.ErrorURL));
    assert.equal(log.status, 200);
    assert.match(log.body, /Line: 2; Reason: column_name\[name\], the length of input is longer than schema.*Src line: \[2\|waytoolongname/);
    assert.match(log.body, /Line: 3; Reason: column\(k\) value is incorrect.*Src line: \[x\|bad key/);
    assert.match(log.body, /Line: 4; Reason: actual column number in csv file is less than schema column number/);
    // The failed label is free again (its transaction aborted).
    const passed = await curlLoad(beUrl('t'), csv, ['column_separator:|', 'label:ratio_fail', 'max_filter_ratio:0.6']);
    assert.equal(passed.json.Status, 'Success', passed.body);
    assert.equal(passed.json.NumberLoadedRows, 2);
    assert.equal(passed.json.NumberFilteredRows, 3);
    assert.ok(String(passed.json.ErrorURL).includes('/api/_load_error_log?file='));
    assert.deepEqual(await queryRows(conn, 'SELECT k FROM sl.t ORDER BY k'), [['1'], ['5']]);
    assert.equal((await curlGet(`http://127.0.0.1:${server.ports.webserver_port}/api/_load_error_log?file=../../etc/passwd`)).status, 404);
  });

  test('separators, delimiters, columns mapping, derived columns, where, csv_with_names, strict_mode', async () => {
    await conn.query('TRUNCATE TABLE sl.t');
    // Hex separator, custom multi-byte line delimiter, reorder + skip + derived.
    const body = file('map.csv', 'A\x011\x01skip\x0110\x01x;;B\x012\x01skip\x0120\x01y;;C\x013\x01skip\x0130\x01z;;');
    const res = await curlLoad(beUrl('t'), body, ['column_separator:\\x01', 'line_delimiter:;;', "columns: name, k, junk, tmp, tag, v = tmp * 2 + 1, d = '2024-05-06'", 'where: k != 2']);
    assert.equal(res.json.Status, 'Success', res.body);
    assert.equal(res.json.NumberTotalRows, 3);
    assert.equal(res.json.NumberUnselectedRows, 1);
    assert.equal(res.json.NumberLoadedRows, 2);
    assert.deepEqual(await queryRows(conn, 'SELECT k, name, v, d FROM sl.t ORDER BY k'), [
      ['1', 'A', '21', '2024-05-06'],
      ['3', 'C', '61', '2024-05-06'],
    ]);
    // csv_with_names skips the header line; tab is the default separator.
    const named = await curlLoad(beUrl('t'), file('named.csv', 'k\tname\tv\td\n7\tseven\t7\t2024-07-07\n'), ['format:csv_with_names']);
    assert.equal(named.json.NumberTotalRows, 1, named.body);
    assert.equal(await count(conn, 'sl.t'), 3);
    // strict_mode: a bad number into a nullable column is NULL by default, a filtered row in strict mode.
    const loose = await curlLoad(beUrl('t'), file('loose.csv', '8,eight,notanumber,2024-08-08\n'), ['column_separator:,']);
    assert.equal(loose.json.NumberLoadedRows, 1, loose.body);
    assert.deepEqual(await queryRows(conn, 'SELECT v FROM sl.t WHERE k = 8'), [[null]]);
    const strict = await curlLoad(beUrl('t'), file('strict.csv', '9,nine,notanumber,2024-09-09\n'), ['column_separator:,', 'strict_mode:true']);
    assert.equal(strict.json.Status, 'Fail');
    assert.equal(strict.json.NumberFilteredRows, 1);
    // \N is NULL; an empty line is skipped.
    const nulls = await curlLoad(beUrl('t'), file('nulls.csv', '10,\\N,\\N,\\N\n\n'), ['column_separator:,']);
    assert.equal(nulls.json.NumberTotalRows, 1, nulls.body);
    assert.deepEqual(await queryRows(conn, 'SELECT name, v, d FROM sl.t WHERE k = 10'), [[null, null, null]]);
    // where over a source-only column.
    const whereSrc = await curlLoad(beUrl('t'), file('ws.csv', '11,keep\n12,drop\n'), ['column_separator:,', 'columns: k, flag, name = flag', "where: flag = 'keep'"]);
    assert.equal(whereSrc.json.NumberLoadedRows, 1, whereSrc.body);
    assert.equal(whereSrc.json.NumberUnselectedRows, 1);
  });

  test('JSON: one object per line, a streamed outer array, jsonpaths', async () => {
    const lines = file('a.json', '{"id": 1, "city": "Oslo", "score": 1.25}\n{"ID": 2, "City": "Rome"}\n{broken\n');
    const byLine = await curlLoad(beUrl('j'), lines, ['format:json', 'read_json_by_line:true', 'max_filter_ratio:0.5']);
    assert.equal(byLine.json.Status, 'Success', byLine.body);
    assert.equal(byLine.json.NumberTotalRows, 3);
    assert.equal(byLine.json.NumberFilteredRows, 1);
    const log = await curlGet(String(byLine.json.ErrorURL));
    assert.match(log.body, /Line: 3; Reason: Parse json data failed/);
    const array = file('b.json', JSON.stringify(Array.from({ length: 500 }, (_v, idx) => ({ id: 100 + idx, city: `c"${idx}]}`, score: `${idx}.5` }))));
    const stripped = await curlLoad(beUrl('j'), array, ['format:json', 'strip_outer_array:true', 'exec_mem_limit:4096']);
    assert.equal(stripped.json.Status, 'Success', stripped.body);
    assert.equal(stripped.json.NumberLoadedRows, 500);
    assert.deepEqual(await queryRows(conn, 'SELECT city, score FROM sl.j WHERE id = 599'), [['c"499]}', '499.50']]);
    const noStrip = await curlLoad(beUrl('j'), array, ['format:json']);
    assert.equal(noStrip.json.Status, 'Fail');
    assert.match(String(noStrip.json.Message), /strip_outer_array/);
    const paths = file('c.json', '{"a": {"id": 7}, "b": ["x", "Paris"], "s": 3}\n');
    const withPaths = await curlLoad(beUrl('j'), paths, ['format:json', 'read_json_by_line:true', 'jsonpaths:["$.a.id", "$.b[1]", "$.s"]', 'columns: id, city, score']);
    assert.equal(withPaths.json.Status, 'Success', withPaths.body);
    assert.deepEqual(await queryRows(conn, 'SELECT city, score FROM sl.j WHERE id = 7'), [['Paris', '3.00']]);
  });

  test('two_phase_commit: invisible until committed; abort drops it; 2PC by label', async () => {
    const before = await count(conn, 'sl.j');
    const csv = file('tp.csv', '900,a,1\n901,b,2\n');
    const prepared = await curlLoad(feUrl('j'), csv, ['column_separator:,', 'two_phase_commit:true', 'label:tp_1']);
    assert.equal(prepared.json.Status, 'Success', prepared.body);
    assert.equal(prepared.json.TwoPhaseCommit, 'true');
    assert.equal(await count(conn, 'sl.j'), before);
    const retry = await curlLoad(feUrl('j'), csv, ['column_separator:,', 'two_phase_commit:true', 'label:tp_1']);
    assert.equal(retry.json.Status, 'Label Already Exists');
    assert.equal(retry.json.ExistingJobStatus, 'RUNNING');
    const commit = await httpPut(server.ports.http_port, '/api/sl/_stream_load_2pc', { txn_id: String(prepared.json.TxnId), txn_operation: 'commit' }, async () => undefined);
    assert.equal(commit.json.status, 'Success', commit.body);
    assert.equal(await count(conn, 'sl.j'), before + 2);
    const again = await httpPut(server.ports.http_port, '/api/sl/_stream_load_2pc', { txn_id: String(prepared.json.TxnId), txn_operation: 'abort' }, async () => undefined);
    assert.equal(again.json.status, 'Fail');
    const second = await curlLoad(beUrl('j'), file('tp2.csv', '902,c,3\n'), ['column_separator:,', 'two_phase_commit:true', 'label:tp_2']);
    const abort = await httpPut(server.ports.webserver_port, '/api/sl/_stream_load_2pc', { label: 'tp_2', txn_operation: 'abort' }, async () => undefined);
    assert.equal(abort.json.status, 'Success', abort.body);
    assert.equal(await count(conn, 'sl.j'), before + 2);
    const [txn] = await queryRows(conn, `SHOW TRANSACTION FROM sl WHERE ID = ${second.json.TxnId}`);
    assert.equal(txn[3], 'ABORTED');
    const bad = await httpPut(server.ports.webserver_port, '/api/sl/_stream_load_2pc', { txn_id: '1', txn_operation: 'merge' }, async () => undefined);
    assert.equal(bad.json.status, 'Fail');
  });

  test('partial_columns and sequence_col are validated (their behaviour: test/table-models)', async () => {
    const csv = file('u.csv', '1,1\n');
    const notUnique = await curlLoad(beUrl('t'), csv, ['column_separator:,', 'partial_columns:true']);
    assert.equal(notUnique.json.Status, 'Fail');
    assert.match(String(notUnique.json.Message), /Only unique key merge on write support partial update/);
    const partialNoKey = await curlLoad(beUrl('u'), csv, ['column_separator:,', 'partial_columns:true', 'columns:v']);
    assert.match(String(partialNoKey.json.Message), /Partial update should include all key columns, missing: k/);
    const seq = await curlLoad(beUrl('u'), csv, ['column_separator:,', 'function_column.sequence_col:v']);
    assert.match(String(seq.json.Message), /There is no sequence column in the table/);
    const seqBad = await curlLoad(beUrl('u'), csv, ['column_separator:,', 'sequence_col:nope']);
    assert.match(String(seqBad.json.Message), /INVALID_ARGUMENT/);
    assert.equal(await count(conn, 'sl.u'), 0);
  });

  test('chunked bodies and Expect: 100-continue work; a refused 100-continue request never uploads', async () => {
    const csv = file('chunk.csv', Array.from({ length: 1000 }, (_v, idx) => `${idx},n${idx}`).join('\n') + '\n');
    const chunked = await curlLoad(feUrl('big'), csv, ['column_separator:,', 'Transfer-Encoding: chunked', 'label:chunked_1']);
    assert.equal(chunked.json.Status, 'Success', chunked.body);
    assert.equal(chunked.json.NumberLoadedRows, 1000);
    const expect = await curlLoad(feUrl('big'), csv, ['column_separator:,', 'Expect: 100-continue', 'label:expect_1']);
    assert.equal(expect.json.Status, 'Success', expect.body);
    assert.equal(await count(conn, 'sl.big'), 2000);
    // Node client with Expect: the body is written only on 'continue'; a bad label is refused before it.
    let sentBody = false;
    const refused = await httpPut(server.ports.webserver_port, '/api/sl/big/_stream_load', { Expect: '100-continue', label: 'bad label!', 'Content-Length': '4' }, (req) => {
      req.on('continue', () => {
        sentBody = true;
        req.write('1,a\n');
      });
      return new Promise((resolve) => req.on('response', () => resolve()));
    });
    assert.equal(refused.json.Status, 'Fail');
    assert.match(String(refused.json.Message), /Label format error/);
    assert.equal(sentBody, false);
  });

  test('a load larger than one flush is one transaction: invisible while running, all visible at the end', async () => {
    await conn.query('TRUNCATE TABLE sl.big');
    const rowsPerPart = 20_000;
    const parts = 5;
    let midLoadCount = -1;
    const res = await httpPut(server.ports.webserver_port, '/api/sl/big/_stream_load', { column_separator: ',', exec_mem_limit: '65536', label: 'multi_1', 'Transfer-Encoding': 'chunked' }, async (req) => {
      for (let partIdx = 0; partIdx < parts; partIdx++) {
        const lines: string[] = [];
        for (let rowIdx = 0; rowIdx < rowsPerPart; rowIdx++) lines.push(`${partIdx * rowsPerPart + rowIdx},payload-${rowIdx}`);
        req.write(lines.join('\n') + '\n');
        await sleep(150);
        if (partIdx === parts - 2) midLoadCount = await count(conn, 'sl.big');
      }
    });
    assert.equal(res.json.Status, 'Success', res.body);
    assert.equal(res.json.NumberLoadedRows, rowsPerPart * parts);
    assert.equal(midLoadCount, 0, 'nothing visible before the load ends');
    const [[total, distinct]] = await queryRows(conn, 'SELECT count(*), count(DISTINCT id) FROM sl.big');
    assert.equal(Number(total), rowsPerPart * parts);
    assert.equal(Number(distinct), rowsPerPart * parts);
    const tablets = await queryRows(conn, 'SHOW TABLETS FROM sl.big');
    assert.ok(tablets.some((row) => Number(row[5]) > 1), 'several flushes wrote several segments per tablet');
    assert.ok(tablets.every((row) => Number(row[2]) <= 1), 'one rowset (version) per tablet for the whole load');
  });

  test('a client that disconnects mid-body leaves nothing visible and no objects behind', async () => {
    const before = await count(conn, 'sl.big');
    await assert.rejects(
      httpPut(server.ports.webserver_port, '/api/sl/big/_stream_load', { column_separator: ',', exec_mem_limit: '65536', label: 'gone_1', 'Transfer-Encoding': 'chunked' }, async (req) => {
        for (let partIdx = 0; partIdx < 4; partIdx++) {
          req.write(Array.from({ length: 10_000 }, (_v, idx) => `${1_000_000 + partIdx * 10_000 + idx},x`).join('\n') + '\n');
          await sleep(100);
        }
        req.destroy();
        throw new Error('client went away');
      }),
    );
    let txn: (string | null)[] | undefined;
    for (let attempt = 0; attempt < 50 && txn?.[3] !== 'ABORTED'; attempt++) {
      await sleep(100);
      [txn] = await queryRows(conn, "SHOW TRANSACTION FROM sl WHERE LABEL = 'gone_1'");
    }
    assert.equal(txn?.[3], 'ABORTED');
    assert.equal(await count(conn, 'sl.big'), before);
    const segments = await segmentFiles(conn, server.dataDir, tables);
    assert.equal(segments.onDisk, segments.referenced, 'no orphan segment objects');
    // The label can be used again.
    const retry = await curlLoad(beUrl('big'), file('gone.csv', '2000000,back\n'), ['column_separator:,', 'label:gone_1']);
    assert.equal(retry.json.Status, 'Success', retry.body);
  });

  test('bad input never crashes the server', async () => {
    const csv = file('ok.csv', '1,a\n');
    const cases: [string[], RegExp][] = [
      [['label:has space'], /Label format error/],
      [['column_separator:\\xZZ'], /Invalid column separator/],
      [['max_filter_ratio:2'], /Invalid max_filter_ratio/],
      [['timeout:-1'], /Invalid timeout/],
      [['format:parquet'], /not supported yet/],
      [['format:xml'], /unknown data format/],
      [['strip_outer_array:maybe'], /Invalid strip_outer_array/],
      [['columns: id, v = ('], /Invalid columns/],
      [['columns: id, v = nosuch + 1'], /Unknown column 'v'|Unknown column 'nosuch'/],
      [['where: id >'], /Invalid where/],
      [['jsonpaths:{"a":1}', 'format:json'], /Invalid jsonpaths/],
    ];
    for (const [headers, message] of cases) {
      const res = await curlLoad(beUrl('big'), csv, headers);
      assert.equal(res.json.Status, 'Fail', headers.join(' '));
      assert.match(String(res.json.Message), message, headers.join(' '));
    }
    assert.match(String((await curlLoad(beUrl('nosuch'), csv, [])).json.Message), /unknown table, tableName=nosuch/);
    assert.match(String((await curlLoad(`http://127.0.0.1:${server.ports.webserver_port}/api/nodb/t/_stream_load`, csv, [])).json.Message), /unknown databases, dbName=nodb/);
    assert.equal((await curlLoad(beUrl('big'), csv, [], 'root:', ['-X', 'POST'])).status, 405);
    // Invalid UTF-8 rows are filtered; a line longer than the buffer limit fails the load.
    const invalid = await curlLoad(beUrl('big'), file('utf.csv', Buffer.concat([Buffer.from('3000000,ok\n3000001,'), Buffer.from([0xff, 0xfe]), Buffer.from('\n')])), ['column_separator:,', 'max_filter_ratio:0.5']);
    assert.equal(invalid.json.NumberFilteredRows, 1, invalid.body);
    const huge = await curlLoad(beUrl('big'), file('huge.csv', '1,' + 'y'.repeat(3 << 20)), ['column_separator:,', 'exec_mem_limit:65536']);
    assert.equal(huge.json.Status, 'Fail');
    assert.match(String(huge.json.Message), /longer than the load buffer limit/);
    const badJson = await curlLoad(beUrl('j'), file('bad.json', '[{"id": 1}, {"id": '), ['format:json', 'strip_outer_array:true']);
    assert.equal(badJson.json.Status, 'Fail');
    // Still serving.
    const ok = await curlLoad(beUrl('big'), csv, ['column_separator:,']);
    assert.equal(ok.json.Status, 'Success');
  });
});
