/**
 * Index predicates over a merge-on-write UNIQUE KEY table (server in this process, compactions run by
 * hand): replaced rows (delete bitmap) and rows removed by DELETE never come back from the index; the
 * answers equal the row-by-row ones and a brute force over the table's current rows after loads, updates,
 * deletes and a compaction (whose segment gets its own index file); and a segment loaded before CREATE
 * INDEX is filtered exactly until BUILD INDEX gives it a file.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { CompactionScheduler, DEFAULT_COMPACTION_POLICY } from '../../src/be/compaction';
import { Config } from '../../src/common/config';
import { RunningGalene, startGalene } from '../../src/fe/galene-server';
import { makeDataDir } from '../helpers/galene-process';
import { connect, lastQueryProfile, queryRows } from '../helpers/mysql-client';

let server: RunningGalene;
let conn: Connection;
let compaction: CompactionScheduler;

before(async () => {
  server = await startGalene(new Config({ data_dir: makeDataDir('galene-tscan-mow-'), query_port: 0, http_port: 0, webserver_port: 0, brpc_port: 0, disable_auto_compaction: true }));
  compaction = new CompactionScheduler(server.frontend.catalog, server.frontend.backend, { ...DEFAULT_COMPACTION_POLICY, retiredFileGraceMs: 0 });
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE tscanmow');
  await conn.query('USE tscanmow');
});

after(async () => {
  compaction?.stop();
  await conn?.end();
  await server?.stop();
});

interface Row {
  readonly tag: string | null;
  readonly n: number;
}

const TAGS = ['red', 'green', 'blue', null] as const;
/** The table's current rows by key: what every query must see. */
const current = new Map<number, Row>();

async function load(keys: readonly number[], version: number): Promise<void> {
  const values = keys.map((key) => {
    const row: Row = { tag: TAGS[(key + version) % TAGS.length], n: (key * 7 + version) % 50 };
    current.set(key, row);
    return `(${key}, ${row.tag === null ? 'NULL' : `'${row.tag}'`}, ${row.n})`;
  });
  await conn.query(`INSERT INTO mow VALUES ${values.join(',')}`);
}

const WHERES: { where: string; keep: (row: Row) => boolean }[] = [
  { where: "tag = 'red'", keep: (row) => row.tag === 'red' },
  { where: "tag != 'red'", keep: (row) => row.tag !== null && row.tag !== 'red' },
  { where: 'tag IS NULL', keep: (row) => row.tag === null },
  { where: 'n < 10', keep: (row) => row.n < 10 },
  { where: "NOT (tag IN ('red', 'blue') OR n >= 40)", keep: (row) => row.tag !== null && row.tag !== 'red' && row.tag !== 'blue' && row.n < 40 },
];

async function checkAll(label: string): Promise<Map<string, string>> {
  let profile = new Map<string, string>();
  for (const { where, keep } of WHERES) {
    const expected = [...current].filter(([, row]) => keep(row)).map(([key]) => String(key)).sort((a, b) => Number(a) - Number(b));
    const sql = `SELECT id FROM mow WHERE ${where} ORDER BY id`;
    assert.deepEqual((await queryRows(conn, sql)).map(([id]) => id), expected, `${label}: ${where}`);
    profile = await lastQueryProfile(conn);
    await conn.query('SET enable_inverted_index_query = false');
    assert.deepEqual((await queryRows(conn, sql)).map(([id]) => id), expected, `${label}: ${where} (row by row)`);
    await conn.query('SET enable_inverted_index_query = true');
  }
  return profile;
}

const counter = (profile: Map<string, string>, name: string): number => Number(profile.get(name) ?? 0);

test('merge-on-write UNIQUE KEY: updates, DELETE and compaction; index answers equal the row-by-row ones', async () => {
  await conn.query(`CREATE TABLE mow (id INT NOT NULL, tag VARCHAR(8), n INT, INDEX idx_tag (tag) USING INVERTED, INDEX idx_n (n) USING INVERTED)
    UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("enable_unique_key_merge_on_write" = "true")`);
  assert.match((await queryRows(conn, "EXPLAIN SELECT id FROM mow WHERE tag = 'red'")).map(([line]) => line).join('\n'), /inverted index predicates: tag = 'red'/);
  await load(Array.from({ length: 600 }, (_v, key) => key), 1);
  await load(Array.from({ length: 200 }, (_v, key) => key * 3), 2); // replaces 200 keys: their old rows are in the delete bitmap
  await load(Array.from({ length: 100 }, (_v, key) => 600 + key), 3);
  await conn.query('DELETE FROM mow WHERE id % 10 = 7');
  for (const key of [...current.keys()]) if (key % 10 === 7) current.delete(key);
  const before = await checkAll('before compaction');
  assert.equal(counter(before, 'InvertedIndexSegmentsAnswered'), 3, 'every load wrote its index files');
  assert.ok(counter(before, 'RowsDeleted') > 0, 'replaced and deleted rows are excluded before the index rows');
  const state = server.frontend.catalog.getTable('tscanmow', 'mow');
  await compaction.compactTablet(state, state.tablets[0].id, state.rowsets);
  assert.equal(server.frontend.catalog.getTable('tscanmow', 'mow').rowsets.flatMap((rowset) => rowset.segments).length, 1);
  const compacted = await checkAll('after compaction');
  assert.deepEqual([counter(compacted, 'InvertedIndexSegmentsAnswered'), counter(compacted, 'InvertedIndexSegmentsFallback')], [1, 0], 'the compacted segment has its own files');
  await load([5, 6, 7], 4); // a new segment after the compaction, 7 comes back
  const later = await checkAll('after a new load');
  assert.equal(counter(later, 'InvertedIndexSegmentsAnswered'), 2);
  await conn.query("DELETE FROM mow WHERE tag = 'blue'");
  for (const [key, row] of [...current]) if (row.tag === 'blue') current.delete(key);
  await checkAll('after a DELETE on an indexed column');
});
