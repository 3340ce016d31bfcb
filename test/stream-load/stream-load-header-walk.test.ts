/**
 * Every Stream Load header Galene knows — the one table STREAM_LOAD_HEADERS in
 * src/fe/stream-load-headers.ts — walked with real curl against a real server: an honoured header shows
 * its effect, a warned one loads with its warning in the answer's Message, a refused one fails naming
 * it and changes nothing. A header added to the table without a case here fails this test, and so does
 * one missing from docs/stream-load.md's header table.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { STREAM_LOAD_HEADERS } from '../../src/fe/stream-load-headers';
import { GaleneProcess, makeDataDir, PROJECT_ROOT, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { CurlResult, curlLoad, httpPut, sleep } from './helpers';

type Rows = (string | null)[][];

interface WalkContext {
  readonly rows: (sql: string) => Promise<Rows>;
  /** Load into the case's table again with other headers (and the same body unless given). */
  readonly load: (headers: string[], body?: string | Buffer) => Promise<CurlResult>;
}

interface HeaderCase {
  readonly table: 't' | 'g' | 'u' | 'j' | 's' | 'p';
  readonly headers: readonly string[];
  readonly body: string | Buffer;
  /** SQL run after the table was emptied, before the load. */
  readonly setup?: string;
  /** Instead of one curl load (a header whose effect needs a slow client). */
  readonly run?: (ctx: { port: number; table: string }) => Promise<CurlResult>;
  /** The header's effect (honoured headers); warned and refused headers are checked by the walk itself. */
  readonly effect?: (res: CurlResult, ctx: WalkContext) => Promise<void>;
}

const csv = (headers: string[] = []): string[] => ['column_separator:,', ...headers];
const success = (res: CurlResult): void => assert.equal(res.json.Status, 'Success', res.body);

/** compute_group and its older name: the one group loads, another is refused. */
function computeGroupCase(name: string): HeaderCase {
  return {
    table: 't',
    headers: csv([`${name}:default_compute_group`]),
    body: '1,a,1\n',
    effect: async (_res, ctx) => assert.match(String((await ctx.load(csv([`${name}:other`]))).json.Message), new RegExp(`header ${name} is not supported yet`)),
  };
}

/** The sequence column header and its short name: the table's column orders the rows, another is refused. */
function sequenceCase(name: string, wrongColumn: string): HeaderCase {
  return {
    table: 's',
    setup: "INSERT INTO w.s VALUES (1, 'a', 10)",
    headers: csv([`${name}:seq`]),
    body: '1,b,5\n2,c,1\n',
    effect: async (_res, ctx) => {
      assert.deepEqual(await ctx.rows('SELECT k, v FROM w.s ORDER BY k'), [['1', 'a'], ['2', 'c']], 'a smaller sequence value does not replace');
      assert.match(String((await ctx.load(csv([`${name}:${wrongColumn}`]))).json.Message), /is not the sequence column seq/);
    },
  };
}

const CASES: Record<string, HeaderCase> = {
  label: { table: 't', headers: csv(['label:walk_label']), body: '1,a,1\n', effect: async (res) => assert.equal(res.json.Label, 'walk_label') },
  format: { table: 'j', headers: ['format:json'], body: '{"id": 1, "name": "a"}', effect: async (res, ctx) => assert.deepEqual(await ctx.rows('SELECT id, name FROM w.j'), [['1', 'a']]) },
  column_separator: { table: 't', headers: ['column_separator:|'], body: '1|a|1\n', effect: async (_res, ctx) => assert.deepEqual(await ctx.rows('SELECT k, name FROM w.t'), [['1', 'a']]) },
  line_delimiter: { table: 't', headers: csv(['line_delimiter:;;']), body: '1,a,1;;2,b,2', effect: async (_res, ctx) => assert.deepEqual(await ctx.rows('SELECT k FROM w.t ORDER BY k'), [['1'], ['2']]) },
  enclose: { table: 't', headers: csv(['enclose:"']), body: '1,"a,b",1\n', effect: async (_res, ctx) => assert.deepEqual(await ctx.rows('SELECT name FROM w.t'), [['a,b']]) },
  escape: { table: 't', headers: csv(['enclose:"', 'escape:\\\\']), body: '1,"a\\"b",1\n', effect: async (_res, ctx) => assert.deepEqual(await ctx.rows('SELECT name FROM w.t'), [['a"b']]) },
  trim_double_quotes: { table: 't', headers: csv(['trim_double_quotes:true']), body: '1,"a",1\n', effect: async (_res, ctx) => assert.deepEqual(await ctx.rows('SELECT name FROM w.t'), [['a']]) },
  skip_lines: { table: 't', headers: csv(['skip_lines:1']), body: 'not a row\n1,a,1\n', effect: async (res) => assert.equal(res.json.NumberTotalRows, 1, res.body) },
  compress_type: { table: 't', headers: csv(['compress_type:gz']), body: zlib.gzipSync('1,gz,1\n'), effect: async (_res, ctx) => assert.deepEqual(await ctx.rows('SELECT name FROM w.t'), [['gz']]) },
  columns: { table: 't', headers: csv(['columns: name, k, v']), body: 'a,1,1\n', effect: async (_res, ctx) => assert.deepEqual(await ctx.rows('SELECT k, name FROM w.t'), [['1', 'a']]) },
  where: { table: 't', headers: csv(['where: k > 1']), body: '1,a,1\n2,b,2\n', effect: async (res) => assert.equal(res.json.NumberUnselectedRows, 1, res.body) },
  max_filter_ratio: { table: 't', headers: csv(['max_filter_ratio:0.5']), body: '1,a,1\nbad\n', effect: async (res) => assert.equal(res.json.NumberFilteredRows, 1, res.body) },
  partitions: { table: 't', headers: csv(['partitions:p1']), body: '1,a,1\n' },
  temporary_partitions: { table: 't', headers: csv(['temporary_partitions:tp1']), body: '1,a,1\n' },
  timeout: {
    table: 't',
    headers: ['timeout:1'],
    body: '',
    run: async ({ port, table }) =>
      httpPut(port, `/api/w/${table}/_stream_load`, { column_separator: ',', timeout: '1', 'Transfer-Encoding': 'chunked' }, async (req) => {
        req.write('1,a,1\n');
        await sleep(1800);
      }).then((res) => ({ status: res.status, body: res.body, json: res.json })),
    effect: async (res, ctx) => {
      assert.match(String(res.json.Message), /^\[TIMEOUT\]timeout by txn manager/, res.body);
      assert.deepEqual(await ctx.rows('SELECT count(*) FROM w.t'), [['0']]);
    },
  },
  strict_mode: { table: 't', headers: csv(['strict_mode:true']), body: '1,a,notanumber\n', effect: async (res) => assert.equal(res.json.NumberFilteredRows, 1, res.body) },
  timezone: { table: 't', headers: csv(['timezone:Asia/Shanghai']), body: '1,a,1\n' },
  time_zone: { table: 't', headers: csv(['time_zone:+08:00']), body: '1,a,1\n' },
  exec_mem_limit: {
    table: 't',
    headers: csv(['exec_mem_limit:4096']),
    body: Array.from({ length: 30_000 }, (_v, idx) => `${idx},name-${idx},${idx}`).join('\n') + '\n',
    effect: async (_res, ctx) => {
      const tablets = await ctx.rows('SHOW TABLETS FROM w.t');
      assert.ok(tablets.some((row) => Number(row[5]) > 1), 'buffers of 4096 bytes wrote several segments per tablet');
    },
  },
  jsonpaths: { table: 'j', headers: ['format:json', 'jsonpaths:["$.a.id", "$.b"]', 'columns: id, name'], body: '{"a": {"id": 5}, "b": "x"}', effect: async (_res, ctx) => assert.deepEqual(await ctx.rows('SELECT id, name FROM w.j'), [['5', 'x']]) },
  json_root: { table: 'j', headers: ['format:json', 'json_root:$.r'], body: '{"r": {"id": 6, "name": "y"}}', effect: async (_res, ctx) => assert.deepEqual(await ctx.rows('SELECT id, name FROM w.j'), [['6', 'y']]) },
  strip_outer_array: { table: 'j', headers: ['format:json', 'strip_outer_array:true'], body: '[{"id": 1}, {"id": 2}]', effect: async (res) => assert.equal(res.json.NumberLoadedRows, 2, res.body) },
  read_json_by_line: { table: 'j', headers: ['format:json', 'read_json_by_line:true', 'max_filter_ratio:0.5'], body: '{"id": 1}\n{broken\n{"id": 3}\n', effect: async (res) => assert.equal(res.json.NumberLoadedRows, 2, res.body) },
  fuzzy_parse: {
    table: 'j',
    headers: ['format:json', 'strip_outer_array:true', 'fuzzy_parse:true', 'max_filter_ratio:0.5'],
    body: '[{"id": 1, "name": "a"}, {"name": "b", "id": 2}]',
    effect: async (res) => assert.equal(res.json.NumberFilteredRows, 1, `values at the first row's key positions: ${res.body}`),
  },
  num_as_string: { table: 'j', headers: ['format:json', 'num_as_string:true'], body: '{"id": 9007199254740993}', effect: async (_res, ctx) => assert.deepEqual(await ctx.rows('SELECT id FROM w.j'), [['9007199254740993']]) },
  merge_type: { table: 'u', setup: "INSERT INTO w.u VALUES (1, 'a'), (2, 'b')", headers: csv(['merge_type:DELETE']), body: '1,x\n', effect: async (_res, ctx) => assert.deepEqual(await ctx.rows('SELECT k, v FROM w.u'), [['2', 'b']]) },
  delete: {
    table: 'u',
    setup: "INSERT INTO w.u VALUES (1, 'a')",
    headers: csv(['merge_type:MERGE', "delete: v = 'd'"]),
    body: '1,d\n2,b\n',
    effect: async (_res, ctx) => assert.deepEqual(await ctx.rows('SELECT k, v FROM w.u'), [['2', 'b']]),
  },
  'function_column.sequence_col': sequenceCase('function_column.sequence_col', 'v'),
  sequence_col: sequenceCase('sequence_col', 'k'),
  hidden_columns: { table: 'u', setup: "INSERT INTO w.u VALUES (1, 'a')", headers: csv(['hidden_columns:__DORIS_DELETE_SIGN__']), body: '1,a,1\n2,b,0\n', effect: async (_res, ctx) => assert.deepEqual(await ctx.rows('SELECT k, v FROM w.u'), [['2', 'b']]) },
  partial_columns: { table: 'p', setup: 'INSERT INTO w.p VALUES (1, 10, 20)', headers: csv(['partial_columns:true', 'columns: k, a']), body: '1,11\n', effect: async (_res, ctx) => assert.deepEqual(await ctx.rows('SELECT k, a, b FROM w.p'), [['1', '11', '20']]) },
  unique_key_update_mode: {
    table: 'p',
    setup: 'INSERT INTO w.p VALUES (1, 10, 20)',
    headers: csv(['unique_key_update_mode:UPDATE_FIXED_COLUMNS', 'columns: k, a']),
    body: '1,12\n',
    effect: async (_res, ctx) => assert.deepEqual(await ctx.rows('SELECT k, a, b FROM w.p'), [['1', '12', '20']]),
  },
  partial_update_new_key_behavior: {
    table: 'p',
    headers: csv(['partial_columns:true', 'columns: k, a', 'partial_update_new_key_behavior:APPEND']),
    body: '2,5\n',
    effect: async (_res, ctx) => {
      assert.deepEqual(await ctx.rows('SELECT k, a, b FROM w.p'), [['2', '5', null]]);
      assert.match(String((await ctx.load(csv(['partial_columns:true', 'columns: k, a', 'partial_update_new_key_behavior:ERROR']))).json.Message), /header partial_update_new_key_behavior is not supported yet/);
    },
  },
  two_phase_commit: {
    table: 't',
    headers: csv(['two_phase_commit:true']),
    body: '1,a,1\n',
    effect: async (res, ctx) => {
      assert.equal(res.json.TwoPhaseCommit, 'true');
      assert.deepEqual(await ctx.rows('SELECT count(*) FROM w.t'), [['0']]);
    },
  },
  comment: { table: 't', headers: csv(['comment:nightly']), body: '1,a,1\n', effect: async (res) => assert.equal(res.json.Comment, 'nightly') },
  group_commit: { table: 'g', headers: csv(['group_commit:async_mode']), body: '1,a,1\n', effect: async (res) => assert.equal(res.json.GroupCommit, true, res.body) },
  compute_group: computeGroupCase('compute_group'),
  cloud_cluster: computeGroupCase('cloud_cluster'),
  negative: { table: 't', headers: csv(['negative:true']), body: '1,a,1\n' },
  send_batch_parallelism: { table: 't', headers: csv(['send_batch_parallelism:2']), body: '1,a,1\n' },
  load_to_single_tablet: { table: 't', headers: csv(['load_to_single_tablet:true']), body: '1,a,1\n' },
  memtable_on_sink_node: { table: 't', headers: csv(['memtable_on_sink_node:true']), body: '1,a,1\n' },
  enable_profile: { table: 't', headers: csv(['enable_profile:true']), body: '1,a,1\n' },
  txn_id: { table: 't', headers: csv(['txn_id:5']), body: '1,a,1\n' },
  txn_operation: { table: 't', headers: csv(['txn_operation:commit']), body: '1,a,1\n' },
};

describe('Stream Load: every header Galene accepts is honoured, warned about or refused', () => {
  let server: GaleneProcess;
  let conn: Connection;
  const files = makeDataDir('galene-slw-files-');

  before(async () => {
    server = await startGalene();
    conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE w');
    await conn.query('CREATE TABLE w.t (k INT NOT NULL, name VARCHAR(40), v DOUBLE) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
    await conn.query('CREATE TABLE w.g (k INT NOT NULL, name VARCHAR(40), v DOUBLE) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
    await conn.query('CREATE TABLE w.u (k INT NOT NULL, v VARCHAR(20)) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
    await conn.query('CREATE TABLE w.j (id BIGINT NOT NULL, amount DECIMAL(27,9), name VARCHAR(20)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2');
    await conn.query("CREATE TABLE w.s (k INT NOT NULL, v VARCHAR(20), seq INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ('function_column.sequence_col' = 'seq')");
    await conn.query('CREATE TABLE w.p (k INT NOT NULL, a INT, b INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
  });

  after(async () => {
    conn?.destroy();
    await server?.stop();
  });

  test('the cases here are exactly the headers of STREAM_LOAD_HEADERS, and docs/stream-load.md lists each', () => {
    assert.deepEqual(Object.keys(CASES).sort(), Object.keys(STREAM_LOAD_HEADERS).sort());
    const docs = fs.readFileSync(path.join(PROJECT_ROOT, 'docs', 'stream-load.md'), 'utf8');
    for (const name of Object.keys(STREAM_LOAD_HEADERS)) assert.match(docs, new RegExp(`^\\| \`${name.replace('.', '\\.')}\` \\|`, 'm'), `docs/stream-load.md has a row for ${name}`);
  });

  for (const [name, spec] of Object.entries(STREAM_LOAD_HEADERS)) {
    test(`${name} (${spec.handling})`, async () => {
      const walk = CASES[name];
      assert.ok(walk, `a case for ${name}`);
      assert.ok(walk.headers.some((line) => line.startsWith(`${name}:`)), `the case sends ${name}`);
      const table = `w.${walk.table}`;
      await conn.query(`TRUNCATE TABLE ${table}`);
      if (walk.setup) await conn.query(walk.setup);
      const before = JSON.stringify(await queryRows(conn, `SELECT * FROM ${table} ORDER BY 1`));
      const bodyFile = path.join(files, `${name}.body`);
      const url = `http://127.0.0.1:${server.ports.http_port}/api/w/${walk.table}/_stream_load`;
      const load = (headers: string[], body: string | Buffer = walk.body): Promise<CurlResult> => {
        fs.writeFileSync(bodyFile, body);
        return curlLoad(url, bodyFile, headers);
      };
      const res = walk.run ? await walk.run({ port: server.ports.webserver_port, table: walk.table }) : await load([...walk.headers]);
      const ctx: WalkContext = { rows: (sql) => queryRows(conn, sql), load };
      if (spec.handling === 'refused') {
        assert.equal(res.json.Status, 'Fail', res.body);
        assert.match(String(res.json.Message), new RegExp(`^\\[INVALID_ARGUMENT\\]Stream Load header ${name} is not supported yet`), res.body);
        assert.equal(JSON.stringify(await queryRows(conn, `SELECT * FROM ${table} ORDER BY 1`)), before, 'a refused load changes nothing');
        return;
      }
      if (spec.handling === 'warned') {
        success(res);
        assert.match(String(res.json.Message), new RegExp(`^OK; warnings: (.*; )?${name}: no effect`), res.body);
        return;
      }
      assert.ok(walk.effect, `an honoured header's case checks its effect: ${name}`);
      if (walk.run === undefined && name !== 'strict_mode') success(res);
      assert.doesNotMatch(String(res.json.Message), new RegExp(`warnings: .*${name.replace('.', '\\.')}:`), `${name} is honoured without a warning`);
      await walk.effect(res, ctx);
    });
  }
});
