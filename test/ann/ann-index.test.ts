// The per-segment HNSW index layer (src/storage/ann): recall against brute force on seeded Gaussian-mixture
// data, filtered search at 50/10/1/0.1% allowed, range search, ef per query, file round trip (path, bytes,
// the FileCache), corruption, the build worker keeping the event loop free, and Doris's parameter messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { groundTruth, mixtureDataSet, recallAtK } from '../../bench/lib/vector-data';
import { GaleneError } from '../../src/common/errors';
import { NO_PROFILE } from '../../src/common/profile';
import { InPlaceFileCache } from '../../src/io/in-place-file-cache';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { RemoteLikeObjectStore } from '../../src/io/remote-like-store';
import { createFileCache } from '../../src/io/create-file-cache';
import type { AnnIndexParams, AnnMetric, VectorSource } from '../../src/storage/ann';
import { AnnBuilder, AnnIndexReader, AnnSegmentSearcher, buildAnnFileSync, parseAnnProperties, readAnnFileHeader } from '../../src/storage/ann';
import { dotProduct, l2Squared } from '../../src/common/vector-distance';
import { segmentIndexKey } from '../../src/storage/segment-format';

const DIM = 48;
const ROWS = 20_000;
const QUERIES = 60;
// Cluster centres spread about as wide as the clusters (separation 1), like real embeddings. With strongly
// separated islands (separation 2) and Doris's default ef_construction 40, about one query in 60 lands in
// a cluster the graph does not reach (ef_construction 128 fixes it): docs/vector-index.md.
const { base, queries } = mixtureDataSet(ROWS, QUERIES, DIM, 7, { separation: 1 });
const query = (queryIdx: number): Float32Array => queries.subarray(queryIdx * DIM, (queryIdx + 1) * DIM);

function tempDir(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `galene-ann-${name}-`));
}

/** Doris's defaults: max_degree 32, ef_construction 40. */
const params = (metric: AnnMetric, quantizer: 'flat' | 'sq8' = 'flat'): AnnIndexParams => parseAnnProperties({ index_type: 'hnsw', metric_type: metric, dim: String(DIM), quantizer });

/** The segment's vectors in memory, counting what was read; every row comes in three uneven chunks (pages). */
function memorySource(vectors: Float32Array, dim: number): VectorSource & { rowsRead: number } {
  const source = {
    rowsRead: 0,
    async read(rows: Int32Array | null): Promise<Float32Array[]> {
      if (!rows) {
        const count = vectors.length / dim;
        source.rowsRead += count;
        const cuts = [0, Math.floor(count / 7), Math.floor((count * 4) / 7), count];
        return cuts.slice(1).map((end, idx) => vectors.subarray(cuts[idx] * dim, end * dim));
      }
      source.rowsRead += rows.length;
      const out = new Float32Array(rows.length * dim);
      for (let idx = 0; idx < rows.length; idx++) out.set(vectors.subarray(rows[idx] * dim, (rows[idx] + 1) * dim), idx * dim);
      return [out];
    },
  };
  return source;
}

const dir = tempDir('shared');
const l2File = path.join(dir, 'l2.idx');
const ipFile = path.join(dir, 'ip.idx');
buildAnnFileSync(l2File, { params: params('l2_distance'), vectors: base });
buildAnnFileSync(ipFile, { params: params('inner_product'), vectors: base });

function trueDistance(metric: AnnMetric, row: number, q: Float32Array): number {
  return metric === 'l2_distance' ? Math.sqrt(l2Squared(base, row * DIM, q, 0, DIM)) : dotProduct(base, row * DIM, q, 0, DIM);
}

for (const metric of ['l2_distance', 'inner_product'] as const) {
  test(`${metric}: recall@10 >= 0.95 at the default parameters, Doris distances`, async () => {
    const reader = await AnnIndexReader.openFile(metric === 'l2_distance' ? l2File : ipFile);
    const searcher = new AnnSegmentSearcher(reader.params, ROWS, reader, memorySource(base, DIM));
    const truth = groundTruth(metric, base, queries, DIM, 10);
    const results: Int32Array[] = [];
    for (let queryIdx = 0; queryIdx < QUERIES; queryIdx++) {
      const result = await searcher.search(query(queryIdx), 10);
      assert.equal(result.path, 'index');
      assert.equal(result.rows.length, 10);
      for (let idx = 0; idx < 10; idx++) {
        const expected = trueDistance(metric, result.rows[idx], query(queryIdx));
        assert.ok(Math.abs(result.distances![idx] - expected) <= 1e-3 * Math.max(1, Math.abs(expected)), `distance ${result.distances![idx]} vs ${expected}`);
        if (idx > 0) {
          if (metric === 'l2_distance') assert.ok(result.distances![idx] >= result.distances![idx - 1]);
          else assert.ok(result.distances![idx] <= result.distances![idx - 1], 'inner product: larger first');
        }
      }
      results.push(result.rows);
    }
    const recall = recallAtK(results, truth, 10);
    assert.ok(recall >= 0.95, `recall@10 ${recall}`);
    reader.close();
  });
}

test('ef per query: a larger hnsw_ef_search never lowers recall@100, and reaches 0.95', async () => {
  const reader = await AnnIndexReader.openFile(l2File);
  const searcher = new AnnSegmentSearcher(reader.params, ROWS, reader, memorySource(base, DIM));
  const truth = groundTruth('l2_distance', base, queries, DIM, 100);
  const recalls: number[] = [];
  for (const ef of [16, 100, 400]) {
    const results: Int32Array[] = [];
    for (let queryIdx = 0; queryIdx < QUERIES; queryIdx++) results.push((await searcher.search(query(queryIdx), 100, { ef })).rows);
    recalls.push(recallAtK(results, truth, 100));
  }
  assert.ok(recalls[1] >= recalls[0] - 0.005 && recalls[2] >= recalls[1] - 0.005, `recalls ${recalls}`);
  assert.ok(recalls[2] >= 0.95, `recall@100 at ef 400: ${recalls[2]}`);
  reader.close();
});

for (const exactMaxRows of [undefined, 64]) {
  test(`filtered TopN at 50/10/1/0.1% allowed: never fewer than k rows, recall >= 0.95 (exactMaxRows ${exactMaxRows ?? 'default'})`, async () => {
    const reader = await AnnIndexReader.openFile(l2File);
    const source = memorySource(base, DIM);
    const searcher = new AnnSegmentSearcher(reader.params, ROWS, reader, source, { exactMaxRows });
    const paths = new Set<string>();
    for (const fraction of [0.5, 0.1, 0.01, 0.001]) {
      // A pseudo-random subset (not correlated with clusters), as a bitmap and as a predicate.
      const bitmap = new Uint8Array((ROWS + 7) >> 3);
      let allowedCount = 0;
      for (let row = 0; row < ROWS; row++) {
        if (((row * 2654435761) >>> 0) / 4294967296 < fraction) {
          bitmap[row >> 3] |= 1 << (row & 7);
          allowedCount++;
        }
      }
      const allowed = (row: number): boolean => (bitmap[row >> 3] & (1 << (row & 7))) !== 0;
      const k = 10;
      const truth = groundTruth('l2_distance', base, queries, DIM, k, allowed);
      for (const form of [bitmap, allowed]) {
        const results: Int32Array[] = [];
        for (let queryIdx = 0; queryIdx < QUERIES; queryIdx++) {
          const result = await searcher.search(query(queryIdx), k, { allowed: form });
          paths.add(result.path);
          assert.equal(result.rows.length, Math.min(k, allowedCount), `${fraction}: rows returned`);
          for (const row of result.rows) assert.ok(allowed(row), `row ${row} is not allowed`);
          results.push(result.rows);
        }
        const recall = recallAtK(results, truth, k);
        assert.ok(recall >= 0.95, `${fraction * 100}% allowed (${typeof form}): recall ${recall}`);
      }
    }
    assert.ok(paths.has('index') && paths.has('exact'), `both paths taken: ${[...paths]}`);
    reader.close();
  });
}

test('an index file built for another metric is not used: the segment is searched exactly', async () => {
  const reader = await AnnIndexReader.openFile(ipFile);
  const searcher = new AnnSegmentSearcher(params('l2_distance'), ROWS, reader, memorySource(base, DIM));
  const exact = new AnnSegmentSearcher(params('l2_distance'), ROWS, null, memorySource(base, DIM));
  const result = await searcher.search(query(1), 10);
  assert.equal(result.path, 'exact');
  assert.deepEqual([...result.rows], [...(await exact.search(query(1), 10)).rows]);
  reader.close();
});

test('a filter keeping fewer than k rows returns exactly those rows', async () => {
  const reader = await AnnIndexReader.openFile(l2File);
  const searcher = new AnnSegmentSearcher(reader.params, ROWS, reader, memorySource(base, DIM), { exactMaxRows: 0 });
  const allowedRows = new Set([5, 777, 19_999]);
  const result = await searcher.search(query(0), 10, { allowed: (row) => allowedRows.has(row) });
  assert.deepEqual([...result.rows].sort((a, b) => a - b), [5, 777, 19_999]);
  reader.close();
});

test('range search: exact path equals brute force; index path returns only rows inside the radius with true distances', async () => {
  const reader = await AnnIndexReader.openFile(l2File);
  const exactSearcher = new AnnSegmentSearcher(reader.params, ROWS, null, memorySource(base, DIM));
  const indexSearcher = new AnnSegmentSearcher(reader.params, ROWS, reader, memorySource(base, DIM));
  const topNGot: Record<string, Int32Array[]> = {};
  const topNTruth: Record<string, Int32Array[]> = {};
  for (let queryIdx = 0; queryIdx < 10; queryIdx++) {
    const q = query(queryIdx);
    const all = Array.from({ length: ROWS }, (_, row) => Math.fround(Math.sqrt(l2Squared(base, row * DIM, q, 0, DIM))));
    const sorted = [...all].sort((a, b) => a - b);
    const radius = (sorted[150] + sorted[151]) / 2; // about 150 rows inside
    for (const op of ['<', '<=', '>', '>='] as const) {
      const holds = (d: number): boolean => (op === '<' ? d < radius : op === '<=' ? d <= radius : op === '>' ? d > radius : d >= radius);
      const expected = all.flatMap((d, row) => (holds(d) ? [row] : []));
      const exact = await exactSearcher.search(q, Infinity, { radius: { op, value: radius } });
      assert.equal(exact.path, 'exact', `exact path ${op}`);
      assert.deepEqual([...exact.rows].sort((a, b) => a - b), expected, `exact ${op}`);
      for (let idx = 0; idx < exact.rows.length; idx++) assert.equal(exact.distances![idx], all[exact.rows[idx]], `exact distance ${op}`);

      const approx = await indexSearcher.search(q, Infinity, { radius: { op, value: radius } });
      const expectedSet = new Set(expected);
      let found = 0;
      for (const row of approx.rows) if (expectedSet.has(row)) found++;
      const near = op === '<' || op === '<=';
      if (near) {
        assert.equal(approx.path, 'index', `near path ${op} (${approx.indexCandidates} candidates)`);
        assert.equal(found, approx.rows.length, 'every returned row lies inside the radius');
        for (let idx = 0; idx < approx.rows.length; idx++) assert.ok(Math.abs(approx.distances![idx] - all[approx.rows[idx]]) < 1e-3);
      } else {
        // far side: the complement of the index's near set, without distances (Doris's Sql3/Sql4)
        assert.equal(approx.path, 'index-complement', `far path ${op} (${approx.indexCandidates} candidates)`);
        assert.equal(approx.distances, null, 'far: no distances');
      }
      assert.ok(found / expected.length >= 0.95, `${op} recall ${found / expected.length}`);
      assert.ok(found / approx.rows.length >= 0.99, `${op} precision ${found / approx.rows.length}`);

      // range + TopN: the k nearest rows that satisfy the radius
      const topN = await indexSearcher.search(q, 20, { radius: { op, value: radius } });
      const exactTopN = await exactSearcher.search(q, 20, { radius: { op, value: radius } });
      assert.equal(topN.rows.length, 20, `${op} TopN rows (${topN.path})`);
      for (const row of topN.rows) assert.ok(holds(all[row]), `${op} TopN row ${row} outside the radius`);
      (topNGot[op] ??= []).push(topN.rows);
      (topNTruth[op] ??= []).push(exactTopN.rows);
    }
  }
  for (const op of Object.keys(topNGot)) assert.ok(recallAtK(topNGot[op], topNTruth[op], 20) >= 0.95, `${op} TopN recall ${recallAtK(topNGot[op], topNTruth[op], 20)}`);
  reader.close();
});

test('segments without an index file are searched exactly (every row read once)', async () => {
  const small = base.subarray(0, 500 * DIM);
  const source = memorySource(small, DIM);
  const searcher = new AnnSegmentSearcher(params('l2_distance'), 500, null, source);
  const result = await searcher.search(query(1), 10);
  assert.equal(result.path, 'exact');
  assert.deepEqual([...result.rows], [...groundTruth('l2_distance', small, query(1), DIM, 10)[0]]);
  assert.equal(source.rowsRead, 500);
  const filtered = await searcher.search(query(1), 10, { allowed: (row) => row % 100 === 0 });
  assert.equal(filtered.rows.length, 5);
  assert.equal(source.rowsRead, 505, 'only the allowed rows are read');
});

test('file round trip: path, bytes and the FileCache (local and remote stores) answer the same; header fields', async () => {
  const root = tempDir('store');
  const key = segmentIndexKey('data/10001/r1_0.dat', 'idx_emb');
  const local = new LocalObjectStore(root);
  const rowIds = Int32Array.from({ length: 3000 }, (_, idx) => idx * 2); // every other row has a vector
  const vectors = new Float32Array(3000 * DIM);
  for (let idx = 0; idx < 3000; idx++) vectors.set(base.subarray(rowIds[idx] * DIM, (rowIds[idx] + 1) * DIM), idx * DIM);
  fs.mkdirSync(path.dirname(local.localPath(key)), { recursive: true });
  const header = buildAnnFileSync(local.localPath(key), { params: params('inner_product', 'sq8'), vectors, rowIds, rowCount: 6000 });
  assert.deepEqual(await local.list('data/'), [key]);
  const onDisk = await readAnnFileHeader(local.localPath(key));
  assert.deepEqual(onDisk, header);
  assert.deepEqual(onDisk.params, { metric: 'inner_product', dim: DIM, maxDegree: 32, efConstruction: 40, quantizer: 'sq8' });
  assert.equal(onDisk.rowCount, 6000);
  assert.equal(onDisk.vectorCount, 3000);

  const bytes = fs.readFileSync(local.localPath(key));
  const remote = new RemoteLikeObjectStore(new LocalObjectStore(root));
  const remoteCache = await createFileCache(remote, { paths: [{ path: tempDir('cache'), totalSize: 64 << 20, indexPercent: 5, normalPercent: 95 }] });
  const localCache = new InPlaceFileCache(local);
  const readers = [
    await AnnIndexReader.openFile(local.localPath(key), { verify: true }),
    await AnnIndexReader.fromBytes(bytes),
    await AnnIndexReader.open(localCache, key, NO_PROFILE, { localPath: local.localPath(key) }),
    await AnnIndexReader.open(remoteCache, key, NO_PROFILE),
  ];
  const answers = readers.map((reader) => reader.searchIndex(query(3), 10, 64));
  for (const answer of answers) assert.deepEqual(answer, answers[0]);
  for (const row of answers[0].rows) assert.equal(row % 2, 0, 'row ids are the ordinals given');
  for (const reader of readers) reader.close();
  await remoteCache.close();
  await localCache.close();
  local.close();
  remote.close?.();

  // A flipped byte in the payload or trailer is a CORRUPTION error naming the file, not a wrong answer.
  const damaged = Buffer.from(bytes);
  damaged[100] ^= 0xff;
  await assert.rejects(AnnIndexReader.fromBytes(damaged, { what: key }), (err: GaleneError) => err.code === 'CORRUPTION' && err.message.includes(key));
  const badTrailer = Buffer.from(bytes);
  badTrailer[badTrailer.length - 60] ^= 0x01;
  await assert.rejects(AnnIndexReader.fromBytes(badTrailer), (err: GaleneError) => err.code === 'CORRUPTION');
});

test('AnnBuilder builds in a worker thread: the event loop keeps ticking; the file answers like a synchronous build', async () => {
  const builder = new AnnBuilder();
  // buildObject: in place on a local store, built aside and put (one atomic object) on a remote one
  const remoteRoot = tempDir('remote');
  const remote = new RemoteLikeObjectStore(new LocalObjectStore(remoteRoot));
  const small = { params: params('l2_distance'), vectors: base.subarray(0, 1000 * DIM) };
  const objectKey = 'data/7/r9_0.idx_v.idx';
  assert.equal((await builder.buildObject(remote, objectKey, small)).vectorCount, 1000);
  assert.deepEqual(await remote.list('data/'), [objectKey]);
  const local = new LocalObjectStore(tempDir('local'));
  await builder.buildObject(local, objectKey, small);
  assert.deepEqual(fs.readFileSync(local.localPath(objectKey)).subarray(-64), (await remote.get(objectKey)).subarray(-64), 'same trailer');
  local.close();
  remote.close?.();
  const target = path.join(tempDir('worker'), 'w.idx');
  let maxGap = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 5);
  const started = performance.now();
  const header = await builder.build(target, { params: params('l2_distance'), vectors: base });
  const buildMs = performance.now() - started;
  clearInterval(timer);
  await builder.close();
  assert.equal(header.vectorCount, ROWS);
  assert.ok(maxGap < Math.max(100, buildMs / 4), `event loop stalled ${maxGap.toFixed(0)} ms during a ${buildMs.toFixed(0)} ms build`);
  const reader = await AnnIndexReader.openFile(target);
  const reference = await AnnIndexReader.openFile(l2File);
  assert.ok(recallAtK([reader.searchIndex(query(0), 10, 200).rows], [reference.searchIndex(query(0), 10, 200).rows], 10) >= 0.9);
  reader.close();
  reference.close();
  // bad input is rejected before the worker starts; nothing is written
  const bad = path.join(tempDir('bad'), 'x.idx');
  assert.throws(() => builder.build(bad, { params: params('l2_distance'), vectors: new Float32Array(DIM + 1) }), /whole number/);
  assert.equal(fs.existsSync(bad), false);
});

test("bad parameters are rejected with Doris's messages", () => {
  const fails = (props: Record<string, string>, message: string): void => {
    assert.throws(
      () => parseAnnProperties(props),
      (err: GaleneError) => err instanceof GaleneError && err.errno === 1105 && err.message === `errCode = 2, detailMessage = ${message}`,
      JSON.stringify(props),
    );
  };
  const ok = { index_type: 'hnsw', metric_type: 'l2_distance', dim: '8' };
  fails({ ...ok, dim: '0' }, 'dim of ann index must be a positive integer');
  fails({ ...ok, dim: '-4' }, 'dim of ann index must be a positive integer');
  fails({ ...ok, dim: 'x' }, 'dim of ann index must be a positive integer');
  fails({ index_type: 'hnsw', metric_type: 'l2_distance' }, 'dim of ann index must be specified');
  fails({ ...ok, metric_type: 'cosine_distance' }, 'only support ann index with metric l2_distance or inner_product');
  fails({ ...ok, metric_type: 'cosine' }, 'only support ann index with metric l2_distance or inner_product');
  fails({ ...ok, metric_type: 'l1_distance' }, 'only support ann index with metric l2_distance or inner_product');
  fails({ metric_type: 'l2_distance', dim: '8' }, 'index_type of ann index be specified.');
  fails({ index_type: 'hnsw', dim: '8' }, 'metric_type of ann index must be specified.');
  fails({ ...ok, nlist: '8' }, 'unknown ann index property: nlist');
  fails({ ...ok, max_degree: '0' }, 'max_degree of ann index must be a positive integer');
  assert.deepEqual(parseAnnProperties({ ...ok, MAX_DEGREE: '48', ef_construction: '100', quantizer: 'SQ8' }), { metric: 'l2_distance', dim: 8, maxDegree: 48, efConstruction: 100, quantizer: 'sq8' });
  // a query of the wrong dimension is an error, not a wrong answer
  const searcher = new AnnSegmentSearcher(params('l2_distance'), 10, null, memorySource(new Float32Array(10 * DIM), DIM));
  return assert.rejects(searcher.search(new Float32Array(DIM - 1), 5), /dimensions/);
});
