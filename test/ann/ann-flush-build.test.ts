/**
 * A table with an ANN index gets one index file per segment as its loads flush: a segment of at least
 * `ann_index_build_min_segment_rows` rows (default 10,000) has a readable HNSW file beside it whose
 * nearest neighbours are the rows' own vectors; a small segment has none. Index files are removed with
 * the table.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Connection } from 'mysql2/promise';
import { startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect } from '../helpers/mysql-client';
import { storedObjectFile, storedObjectKeys } from '../helpers/storage-matrix';
import { AnnIndexReader } from '../../src/storage/ann';

let server: GaleneProcess;
let conn: Connection;

before(async () => {
  server = await startGalene();
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE annflush');
  await conn.query('USE annflush');
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

/** Index objects the server stored (local directory or the matrix's bucket), as keys. */
const indexFiles = async (): Promise<string[]> => (await storedObjectKeys(server.dataDir)).filter((key) => key.endsWith('.idx'));

/** Row i's vector: distinct, deterministic. */
const vectorOf = (row: number): number[] => [Math.sin(row), Math.cos(row * 0.7), (row % 97) / 97, (row % 13) / 13];

test('flush builds an ANN file per large segment; small segments get none; DROP TABLE removes them', async () => {
  await conn.query(`CREATE TABLE docs (id INT NOT NULL, embedding ARRAY<FLOAT> NOT NULL,
    INDEX ann_idx (embedding) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="l2_distance", "dim"="4"))
    DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1`);
  await conn.query(`INSERT INTO docs VALUES ${Array.from({ length: 50 }, (_, row) => `(${row}, [${vectorOf(row).join(',')}])`).join(',')}`);
  assert.deepEqual(await indexFiles(), [], 'a 50-row segment is searched exactly: no index file');
  const rows = 12_000;
  await conn.query(`INSERT INTO docs VALUES ${Array.from({ length: rows }, (_, idx) => `(${1000 + idx}, [${vectorOf(1000 + idx).join(',')}])`).join(',')}`);
  const files = await indexFiles();
  assert.equal(files.length, 1, files.join(', '));
  assert.match(path.basename(files[0]), /\.ann_idx\.idx$/);
  const reader = await AnnIndexReader.openFile(await storedObjectFile(server.dataDir, files[0]), { verify: true });
  try {
    assert.equal(reader.header.vectorCount, rows);
    assert.equal(reader.params.dim, 4);
    // Segment rows are sorted by id: row ordinal r holds id 1000 + r.
    for (const ordinal of [0, 777, 11_999]) {
      const hits = reader.searchIndex(Float32Array.from(vectorOf(1000 + ordinal)), 1, 64);
      assert.equal(hits.rows[0], ordinal);
    }
  } finally {
    reader.close();
  }
  await conn.query('DROP TABLE docs FORCE');
  for (let attempt = 0; attempt < 50 && (await indexFiles()).length > 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(await indexFiles(), []);
});
