/**
 * Inverted-index files through a real server (in this process, driven through mysql2 and curl; compactions
 * run by hand): Stream Load, INSERT and compaction give every segment one file per inverted index,
 * recorded on the segment, whose answers equal a brute force over the segment's own rows; a merge-on-write
 * compaction indexes only the visible rows; CREATE INDEX + BUILD INDEX builds files for existing segments
 * (SHOW BUILD INDEX shows the job); DROP INDEX removes records and files.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { CompactionScheduler, DEFAULT_COMPACTION_POLICY } from '../../src/be/compaction';
import { getRaw } from '../../src/common/column';
import { Config } from '../../src/common/config';
import { NO_PROFILE } from '../../src/common/profile';
import { buildJobsIdle } from '../../src/fe/statements/build-index';
import { RunningGalene, startGalene } from '../../src/fe/galene-server';
import type { SegmentRecord } from '../../src/meta/meta-store';
import type { InvertedQuery } from '../../src/storage/inverted';
import { InvertedIndexReader } from '../../src/storage/inverted';
import { analyze, matchesTokens, matchQuery, parseInvertedProperties, type MatchOp } from '../../src/storage/inverted';
import { makeDataDir } from '../helpers/galene-process';
import { connect, queryRecords, queryRows } from '../helpers/mysql-client';
import { curlLoad } from '../stream-load/helpers';
import { textRows } from './inverted-corpus';

let server: RunningGalene;
let conn: Connection;
let dataDir: string;
let compaction: CompactionScheduler;

before(async () => {
  dataDir = makeDataDir('galene-inverted-load-');
  server = await startGalene(new Config({ data_dir: dataDir, query_port: 0, http_port: 0, webserver_port: 0, brpc_port: 0, disable_auto_compaction: true }));
  compaction = new CompactionScheduler(server.frontend.catalog, server.frontend.backend, { ...DEFAULT_COMPACTION_POLICY, retiredFileGraceMs: 0 });
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE invload');
  await conn.query('USE invload');
});

after(async () => {
  compaction?.stop();
  await conn?.end();
  await server?.stop();
});

const ENGLISH_PROPS = { parser: 'english', support_phrase: 'true' };
const ENGLISH = parseInvertedProperties(ENGLISH_PROPS);
const objectFile = (key: string): string => path.join(dataDir, 'objects', key);
const segmentsOf = (table: string): SegmentRecord[] => server.frontend.catalog.getTable('invload', table).rowsets.flatMap((rowset) => rowset.segments);
const sqlText = (value: string | null): string => (value === null ? 'NULL' : `'${value.replace(/'/g, "''")}'`);

async function compactAll(table: string): Promise<void> {
  const state = server.frontend.catalog.getTable('invload', table);
  for (const tablet of state.tablets) {
    const rowsets = server.frontend.catalog.getTable('invload', table).rowsets.filter((rowset) => rowset.tabletId === tablet.id);
    if (rowsets.length > 1) await compaction.compactTablet(server.frontend.catalog.getTable('invload', table), tablet.id, rowsets);
  }
}

/** Every segment has a file for `index`; its answers equal a brute force over the segment's own `column`. */
async function checkSegments(table: string, index: string, column: string, queries: readonly InvertedQuery[], matches: (q: InvertedQuery, value: unknown) => boolean): Promise<number> {
  let rows = 0;
  for (const segment of segmentsOf(table)) {
    const record = (segment.indexes ?? []).find((candidate) => candidate.name === index);
    assert.ok(record, `segment ${segment.key} has an ${index} record`);
    assert.equal(record.kind, 'inverted');
    assert.equal(fs.statSync(objectFile(record.key)).size, record.size);
    const reader = await InvertedIndexReader.open(server.frontend.backend.fileCache, record.key, NO_PROFILE, { knownSize: record.size });
    assert.equal(reader.numRows, segment.numRows);
    const values = await (await server.frontend.backend.openSegment(segment, NO_PROFILE)).readColumn(column, null, NO_PROFILE);
    for (const q of queries) {
      const expected: number[] = [];
      for (let row = 0; row < values.length; row++) if (matches(q, getRaw(values, row))) expected.push(row);
      assert.deepEqual([...(await reader.query(q, { maxExpansions: 1e6 })).toArray()], expected, `${segment.key} ${JSON.stringify(q)}`);
    }
    rows += segment.numRows;
  }
  return rows;
}

const TEXT_QUERIES: InvertedQuery[] = [
  { op: 'match_any', text: 'data olap' },
  { op: 'match_all', text: 'index query' },
  { op: 'match_phrase', text: 'data base' },
  { op: 'match_phrase', text: 'log error ~2+' },
  { op: 'match_phrase_prefix', text: 'search ve' },
  { op: 'is_null' },
];
const textMatches = (q: InvertedQuery, value: unknown): boolean => {
  if (q.op === 'is_null') return value === null;
  if (value === null || !('text' in q)) return false;
  const op = q.op as MatchOp;
  return matchesTokens(op, matchQuery(op, q.text, ENGLISH), analyze(value as string, ENGLISH));
};
const tagMatches = (q: InvertedQuery, value: unknown): boolean => (q.op === '=' ? value === q.value : q.op === 'is_not_null' ? value !== null : false);

test('Stream Load, INSERT and compaction: every segment has its inverted files, answering like a brute force over its rows', async () => {
  await conn.query(`CREATE TABLE docs (id INT NOT NULL, body STRING NULL, tag VARCHAR(40) NULL,
    INDEX ft (body) USING INVERTED PROPERTIES("parser"="english", "support_phrase"="true") COMMENT 'full text',
    INDEX tg (tag) USING INVERTED) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2`);
  const bodies = textRows(3000, 5);
  const tags = textRows(3000, 6, { maxWords: 1 });
  const csv = path.join(dataDir, 'docs.csv');
  fs.writeFileSync(csv, bodies.slice(0, 2000).map((body, row) => `${row}|${body ?? '\\N'}|${tags[row] ?? '\\N'}`).join('\n') + '\n');
  const load = await curlLoad(`http://127.0.0.1:${server.ports.webserver_port}/api/invload/docs/_stream_load`, csv, ['column_separator:|']);
  assert.equal(load.json.Status, 'Success', load.body);
  for (let start = 2000; start < 3000; start += 500) {
    await conn.query(`INSERT INTO docs VALUES ${bodies.slice(start, start + 500).map((body, idx) => `(${start + idx}, ${sqlText(body)}, ${sqlText(tags[start + idx])})`).join(',')}`);
  }
  const before = segmentsOf('docs');
  assert.ok(before.length >= 4, `${before.length} segments`);
  assert.equal(await checkSegments('docs', 'ft', 'body', TEXT_QUERIES, textMatches), 3000);
  assert.equal(await checkSegments('docs', 'tg', 'tag', [{ op: '=', value: 'data' }, { op: 'is_not_null' }], tagMatches), 3000);
  const oldFiles = before.flatMap((segment) => (segment.indexes ?? []).map((record) => objectFile(record.key)));
  assert.equal(oldFiles.length, before.length * 2);

  await compactAll('docs');
  const after = segmentsOf('docs');
  assert.ok(after.length < before.length);
  assert.equal(await checkSegments('docs', 'ft', 'body', TEXT_QUERIES, textMatches), 3000);
  assert.equal(await checkSegments('docs', 'tg', 'tag', [{ op: '=', value: 'w5x' }], tagMatches), 3000);
  for (let attempt = 0; attempt < 100 && oldFiles.some((file) => fs.existsSync(file)); attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(oldFiles.filter((file) => fs.existsSync(file)), [], 'the compacted inputs\' index files are deleted');
  assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM docs'), [['3000']]);
});

test('a merge-on-write compaction indexes only the visible rows (replaced and deleted rows are not in the file)', async () => {
  await conn.query(`CREATE TABLE mow (id INT NOT NULL, body STRING NULL, INDEX ft (body) USING INVERTED PROPERTIES("parser"="english", "support_phrase"="true"))
    UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES("enable_unique_key_merge_on_write"="true")`);
  const first = textRows(600, 8, { nullRate: 0 });
  await conn.query(`INSERT INTO mow VALUES ${first.map((body, row) => `(${row}, ${sqlText(body)})`).join(',')}`);
  await conn.query(`INSERT INTO mow VALUES ${first.slice(0, 200).map((_, row) => `(${row}, 'replaced ticket text')`).join(',')}`);
  await conn.query('DELETE FROM mow WHERE id >= 500');
  await compactAll('mow');
  const [segment, ...others] = segmentsOf('mow');
  assert.equal(others.length, 0);
  assert.equal(segment.numRows, 500);
  assert.equal(await checkSegments('mow', 'ft', 'body', [...TEXT_QUERIES, { op: 'match_all', text: 'replaced ticket' }], textMatches), 500);
  const record = segment.indexes!.find((candidate) => candidate.name === 'ft')!;
  const reader = await InvertedIndexReader.open(server.frontend.backend.fileCache, record.key, NO_PROFILE);
  assert.equal(reader.docCount, 500);
  assert.equal((await reader.query({ op: 'match_phrase', text: 'replaced ticket text' })).size, 200);
});

test('CREATE INDEX + BUILD INDEX builds inverted files for existing segments; DROP INDEX removes them', async () => {
  await conn.query('CREATE TABLE late (id INT NOT NULL, body STRING NULL, n INT NULL) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1');
  const bodies = textRows(900, 31);
  for (let start = 0; start < 900; start += 300) {
    await conn.query(`INSERT INTO late VALUES ${bodies.slice(start, start + 300).map((body, idx) => `(${start + idx}, ${sqlText(body)}, ${(start + idx) % 37})`).join(',')}`);
  }
  await conn.query(`CREATE INDEX ft ON late (body) USING INVERTED PROPERTIES("parser"="english", "support_phrase"="true")`);
  await conn.query('ALTER TABLE late ADD INDEX nn (n) USING INVERTED');
  assert.ok(segmentsOf('late').every((segment) => (segment.indexes ?? []).length === 0), 'CREATE INDEX changes metadata only');
  await conn.query('BUILD INDEX ft ON late');
  await conn.query('BUILD INDEX nn ON late');
  await buildJobsIdle(server.frontend);
  const jobs = await queryRecords(conn, 'SHOW BUILD INDEX WHERE TableName = "late"');
  assert.deepEqual(jobs.map((job) => job.State), ['FINISHED', 'FINISHED'], JSON.stringify(jobs));
  assert.match(String(jobs[0].AlterInvertedIndexes), /ADD INDEX ft \(`body`\) USING INVERTED/);
  assert.equal(await checkSegments('late', 'ft', 'body', TEXT_QUERIES, textMatches), 900);
  const numberQueries: InvertedQuery[] = [{ op: '=', value: 5 }, { op: '<', value: 3 }, { op: '>=', value: 30 }, { op: 'in', values: [1, 2, 36] }];
  const numberMatches = (q: InvertedQuery, value: unknown): boolean => {
    if (value === null) return false;
    const num = Number(value);
    if (q.op === '=') return num === q.value;
    if (q.op === '<') return num < Number(q.value);
    if (q.op === '>=') return num >= Number(q.value);
    return q.op === 'in' && q.values.includes(num);
  };
  assert.equal(await checkSegments('late', 'nn', 'n', numberQueries, numberMatches), 900);
  // New loads get the files at flush.
  await conn.query(`INSERT INTO late VALUES (5000, 'olap data base', 1)`);
  assert.equal(await checkSegments('late', 'ft', 'body', TEXT_QUERIES, textMatches), 901);

  const files = segmentsOf('late').flatMap((segment) => (segment.indexes ?? []).filter((record) => record.name === 'ft').map((record) => objectFile(record.key)));
  assert.equal(files.length, 4);
  await conn.query('DROP INDEX ft ON late');
  assert.ok(segmentsOf('late').every((segment) => !(segment.indexes ?? []).some((record) => record.name === 'ft')), 'the records are purged');
  for (let attempt = 0; attempt < 100 && files.some((file) => fs.existsSync(file)); attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(files.filter((file) => fs.existsSync(file)), [], 'the files are deleted');
  assert.ok(segmentsOf('late').every((segment) => (segment.indexes ?? []).some((record) => record.name === 'nn')), 'the other index stays');
});
