import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Vector } from '../../src/common/column';
import { takeRows, vectorFromRaw } from '../../src/common/column';
import { NO_PROFILE, QueryProfile } from '../../src/common/profile';
import type { DataType } from '../../src/common/types';
import { Types } from '../../src/common/types';
import type { FileCache } from '../../src/io/file-cache';
import { createFileCache } from '../../src/io/create-file-cache';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { RemoteLikeObjectStore } from '../../src/io/remote-like-store';
import { PageCache, parsePageCacheLimit } from '../../src/storage/page-cache';
import { RowRanges } from '../../src/storage/row-ranges';
import { segmentIndexKey } from '../../src/storage/segment-format';
import { SegmentReader } from '../../src/storage/segment-reader';
import type { SegmentColumn } from '../../src/storage/segment-writer';
import { writeSegment } from '../../src/storage/segment-writer';
import { comparable, randomVector } from './test-data';

function tempDir(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `galene-${name}-`));
}

const ROWS = 5000;

/** A sorted key (k: INT ascending, k2: VARCHAR) and one column of every type, with NULLs. */
function sampleTable(): { columns: SegmentColumn[]; data: Vector[] } {
  const specs: [string, DataType, Parameters<typeof randomVector>[3], number][] = [
    ['b', Types.BOOLEAN, 'random', 0.1],
    ['t', Types.TINYINT, 'random', 0.1],
    ['s', Types.SMALLINT, 'small-range', 0],
    ['d', Types.DATE, 'small-range', 0.05],
    ['big', Types.BIGINT, 'random', 0.1],
    ['li', Types.LARGEINT, 'extremes', 0.1],
    ['f', Types.FLOAT, 'random', 0],
    ['dbl', Types.DOUBLE, 'random', 0.2],
    ['price', Types.decimal(15, 2), 'random', 0],
    ['wide', Types.decimal(38, 10), 'random', 0.1],
    ['ts', Types.DATETIME, 'small-range', 0],
    ['city', Types.varchar(20), 'runs', 0.1],
    ['note', Types.STRING, 'extremes', 0.1],
    ['nul', Types.INT, 'random', 1],
  ];
  const key = vectorFromRaw(
    Types.INT,
    Array.from({ length: ROWS }, (_v, rowIdx) => Math.floor(rowIdx / 2)),
  );
  const key2 = vectorFromRaw(
    Types.varchar(20),
    Array.from({ length: ROWS }, (_v, rowIdx) => `v${rowIdx % 2}`),
  );
  const columns: SegmentColumn[] = [
    { name: 'k', type: Types.INT, uniqueId: 0 },
    { name: 'k2', type: Types.varchar(20), uniqueId: 1 },
  ];
  const data: Vector[] = [key, key2];
  specs.forEach(([name, type, shape, nullRate], specIdx) => {
    columns.push({ name, type, uniqueId: specIdx + 2 });
    data.push(randomVector(type, ROWS, 100 + specIdx, shape, nullRate));
  });
  return { columns, data };
}

async function writeAndOpen(store: LocalObjectStore | RemoteLikeObjectStore, cache: FileCache, key: string, columns: SegmentColumn[], data: Vector[], options: Partial<Parameters<typeof writeSegment>[2]> = {}) {
  const parts = await writeSegment(columns, data, { compression: 'LZ4', numShortKeyColumns: 2, pageRowLimit: 512, ...options });
  await store.put(key, parts);
  const pageCache = new PageCache(64 * 1024 * 1024);
  const reader = await SegmentReader.open(await cache.open(key, NO_PROFILE), { pageCache, profile: NO_PROFILE });
  return { reader, pageCache, size: parts.reduce((sum, part) => sum + part.length, 0) };
}

test('segment round trip: every type, nulls, all codecs', async () => {
  const store = new LocalObjectStore(tempDir('seg'));
  const cache = await createFileCache(store);
  const { columns, data } = sampleTable();
  for (const compression of ['LZ4', 'ZSTD', 'NONE'] as const) {
    const key = `data/1/r_${compression}_0.dat`;
    const { reader } = await writeAndOpen(store, cache, key, columns, data, { compression });
    assert.equal(reader.numRows, ROWS);
    assert.deepEqual(reader.columns.map((column) => column.name), columns.map((column) => column.name));
    assert.equal(reader.footer.compression, compression);
    for (let colIdx = 0; colIdx < columns.length; colIdx++) {
      const profile = new QueryProfile('q', '', 'u', 'd');
      const vec = await reader.readColumn(columns[colIdx].name, null, profile);
      assert.deepEqual(comparable(vec), comparable(data[colIdx]), `${compression} column ${columns[colIdx].name}`);
      assert.ok(profile.get('PagesRead') >= 1);
    }
    // Low-cardinality strings come back as dictionary codes.
    assert.equal((await reader.readColumn('city', null, NO_PROFILE)).kind, 'dict');
    assert.equal((await reader.readColumn('note', null, NO_PROFILE)).kind, 'string');
  }
  // Empty segment.
  const empty = await writeAndOpen(store, cache, 'data/1/empty.dat', [{ name: 'a', type: Types.INT, uniqueId: 0 }], [vectorFromRaw(Types.INT, [])], { numShortKeyColumns: 1 });
  assert.equal(empty.reader.numRows, 0);
  assert.equal((await empty.reader.readColumn('a', null, NO_PROFILE)).length, 0);
  assert.equal(segmentIndexKey('data/1/r_0.dat', 'idx_body'), 'data/1/r_0.idx_body.idx');
  await cache.close();
  store.close();
});

test('ranges and late materialization read only the pages they need', async () => {
  const store = new LocalObjectStore(tempDir('seg-ranges'));
  const cache = await createFileCache(store);
  const { columns, data } = sampleTable();
  const { reader, pageCache } = await writeAndOpen(store, cache, 'data/2/r_0.dat', columns, data);
  const ranges = RowRanges.of([[10, 20], [1500, 1600], [4990, 5000]]);
  const profile = new QueryProfile('q', '', 'u', 'd');
  const picked = await reader.readColumn('price', ranges, profile);
  const expectedIds = [...Array.from({ length: 10 }, (_v, idx) => 10 + idx), ...Array.from({ length: 100 }, (_v, idx) => 1500 + idx), ...Array.from({ length: 10 }, (_v, idx) => 4990 + idx)];
  const priceIdx = columns.findIndex((column) => column.name === 'price');
  assert.deepEqual(comparable(picked), comparable(takeRows(data[priceIdx], expectedIds)));
  assert.equal(profile.get('PagesRead'), 4, 'pages of 512 rows: 0, 2, 3 and 9');
  assert.equal(profile.columnStats.get('price')!.rows, 120);
  // Warm: page cache, no file reads.
  const warm = new QueryProfile('q2', '', 'u', 'd');
  await reader.readColumn('price', ranges, warm);
  assert.equal(warm.get('PagesRead'), 0);
  assert.equal(warm.get('PageCacheHits'), 4);
  assert.ok(pageCache.stats().entries >= 4);
  // readRows, unsorted, across pages and types.
  const rowIds = Int32Array.from([4999, 3, 700, 3, 2500]);
  for (const name of ['city', 'note', 'wide', 'big', 'li', 'b']) {
    const colIdx = columns.findIndex((column) => column.name === name);
    assert.deepEqual(comparable(await reader.readRows(name, rowIds, NO_PROFILE)), comparable(takeRows(data[colIdx], rowIds)), name);
  }
  const lateProfile = new QueryProfile('q3', '', 'u', 'd');
  await reader.readRows('ts', Int32Array.from([5, 6, 4000]), lateProfile);
  assert.equal(lateProfile.get('PagesRead'), 2);
  await cache.close();
  store.close();
});

test('pruning by zone maps and the short-key index', async () => {
  const store = new LocalObjectStore(tempDir('seg-prune'));
  const cache = await createFileCache(store);
  const { columns, data } = sampleTable();
  const { reader } = await writeAndOpen(store, cache, 'data/3/r_0.dat', columns, data);
  const profile = new QueryProfile('q', '', 'u', 'd');
  // k = 1000 -> rows 2000, 2001: zone maps keep one 512-row page, the short key one 1024-row block.
  const eq = await reader.pruneRows([{ column: 'k', op: '=', value: 1000 }], profile);
  assert.ok(eq.count() <= 512 && eq.overlaps(2000, 2002), eq.toString());
  assert.equal(profile.get('ShortKeyLookups'), 1);
  assert.ok(profile.get('RowsPrunedByShortKey') >= ROWS - 1024);
  assert.ok(profile.get('PagesPruned') >= 9);
  // Key prefix + range on the second key column.
  const both = await reader.pruneRows([{ column: 'k', op: '=', value: 1000 }, { column: 'k2', op: '>=', value: 'v1' }], NO_PROFILE);
  assert.ok(both.overlaps(2001, 2002));
  // Range on the first key column: k in [100, 200) -> rows 200..399.
  const range = await reader.pruneRows([{ column: 'k', op: '>=', value: 100 }, { column: 'k', op: '<', value: 200 }], NO_PROFILE);
  assert.ok(range.overlaps(200, 400) && range.count() <= 1024, range.toString());
  const inList = await reader.pruneRows([{ column: 'k', op: 'in', values: [5, 2400] }], NO_PROFILE);
  assert.ok(inList.overlaps(10, 11) && inList.overlaps(4800, 4801) && inList.count() <= 1024, inList.toString());
  // Nothing matches.
  assert.ok((await reader.pruneRows([{ column: 'k', op: '>', value: 1e9 }], NO_PROFILE)).isEmpty());
  assert.ok((await reader.pruneRows([{ column: 'nul', op: 'isnotnull' }], NO_PROFILE)).isEmpty());
  assert.equal((await reader.pruneRows([{ column: 'nul', op: 'isnull' }], NO_PROFILE)).count(), ROWS);
  // Strings: 'city' values are city_0..city_6; nothing is above 'zzz'.
  assert.ok((await reader.pruneRows([{ column: 'city', op: '>', value: 'zzz' }], NO_PROFILE)).isEmpty());
  assert.equal((await reader.pruneRows([{ column: 'city', op: '=', value: 'city_3' }], NO_PROFILE)).count(), ROWS);
  // Every pruned result still holds every matching row (checked against the data).
  const dateIdx = columns.findIndex((column) => column.name === 'd');
  const dates = data[dateIdx];
  const kept = await reader.pruneRows([{ column: 'd', op: '<=', value: 19010 }], NO_PROFILE);
  for (let rowIdx = 0; rowIdx < ROWS; rowIdx++) {
    const value = dates.nulls?.[rowIdx] ? null : (dates as { values: Int32Array }).values[rowIdx];
    if (value !== null && value <= 19010) assert.ok(kept.overlaps(rowIdx, rowIdx + 1), `row ${rowIdx} kept`);
  }
  const zones = await reader.zoneMaps('k');
  assert.equal(zones.length, Math.ceil(ROWS / 512));
  assert.deepEqual([zones[1].firstRow, zones[1].min, zones[1].max, zones[1].nullCount], [512, 256, 511, 0]);
  assert.equal((await reader.zoneMaps('nul'))[0].allNull, true);
  await cache.close();
  store.close();
});

test('corruption: flipped data byte, flipped footer byte, truncation -> CORRUPTION naming the file', async () => {
  const root = tempDir('seg-corrupt');
  const store = new LocalObjectStore(root);
  const { columns, data } = sampleTable();
  const parts = await writeSegment(columns, data, { compression: 'LZ4', numShortKeyColumns: 1, pageRowLimit: 512 });
  const bytes = Buffer.concat(parts);
  const names = ['data/9/page.dat', 'data/9/footer.dat', 'data/9/trunc.dat'];
  const pageFlip = Buffer.from(bytes);
  pageFlip[100] ^= 0x40; // inside the first page of column k
  const footerFlip = Buffer.from(bytes);
  footerFlip[bytes.length - 20] ^= 0x01;
  await store.put(names[0], pageFlip);
  await store.put(names[1], footerFlip);
  await store.put(names[2], bytes.subarray(0, bytes.length - 5));
  const cache = await createFileCache(store);
  const open = async (key: string) => SegmentReader.open(await cache.open(key, NO_PROFILE), { pageCache: new PageCache(1 << 20), profile: NO_PROFILE });
  const reader = await open(names[0]);
  await assert.rejects(reader.readColumn('k', null, NO_PROFILE), (err: Error & { code?: string }) => err.code === 'CORRUPTION' && err.message.includes('data/9/page.dat') && /checksum/.test(err.message));
  await assert.rejects(open(names[1]), (err: Error & { code?: string }) => err.code === 'CORRUPTION' && err.message.includes('data/9/footer.dat'));
  await assert.rejects(open(names[2]), (err: Error & { code?: string }) => err.code === 'CORRUPTION' && err.message.includes('data/9/trunc.dat'));
  await cache.close();
  store.close();
});

test('over the block cache with a remote store: one tail read, then hits; restart still hits', async () => {
  const remote = new RemoteLikeObjectStore(new LocalObjectStore(tempDir('seg-remote')));
  const cacheDir = tempDir('seg-remote-cache');
  const cacheOptions = { paths: [{ path: cacheDir, totalSize: 64 * 1024 * 1024, indexPercent: 5, normalPercent: 95 }], blockSize: 16384 };
  const { columns, data } = sampleTable();
  const parts = await writeSegment(columns, data, { compression: 'LZ4', numShortKeyColumns: 2, pageRowLimit: 1024 });
  const size = parts.reduce((sum, part) => sum + part.length, 0);
  await remote.put('data/5/r_0.dat', parts);
  const cache = await createFileCache(remote, cacheOptions);
  remote.resetCounters();
  const cold = new QueryProfile('cold', '', 'u', 'd');
  const reader = await SegmentReader.open(await cache.open('data/5/r_0.dat', cold, size), { pageCache: new PageCache(0), profile: cold });
  assert.equal(remote.getRequests, 1, 'open is one ranged read of the tail');
  const all = await reader.readColumn('price', null, cold);
  assert.equal(all.length, ROWS);
  assert.ok(cold.get('FileCacheMisses') > 0 && cold.get('ObjectStoreRequests') > 0);
  await cache.flush();
  remote.resetCounters();
  const warm = new QueryProfile('warm', '', 'u', 'd');
  const reader2 = await SegmentReader.open(await cache.open('data/5/r_0.dat', warm, size), { pageCache: new PageCache(0), profile: warm });
  await reader2.readColumn('price', null, warm);
  assert.equal(remote.requests, 0);
  assert.equal(warm.get('ObjectStoreRequests'), 0);
  assert.ok(warm.get('FileCacheHits') > 0);
  await cache.close();
  const restarted = await createFileCache(remote, cacheOptions);
  const again = new QueryProfile('again', '', 'u', 'd');
  const reader3 = await SegmentReader.open(await restarted.open('data/5/r_0.dat', again, size), { pageCache: new PageCache(0), profile: again });
  const priceIdx = columns.findIndex((column) => column.name === 'price');
  assert.deepEqual(comparable(await reader3.readColumn('price', null, again)), comparable(data[priceIdx]));
  assert.equal(remote.requests, 0, 'restart kept the blocks');
  await restarted.close();
  remote.close();
});

test('page cache: LRU by bytes, limit parsing', () => {
  const cache = new PageCache(8000);
  const page = (rows: number): Vector => vectorFromRaw(Types.INT, Array.from({ length: rows }, (_v, idx) => idx));
  cache.put('f:0', page(100)); // ~464 bytes
  cache.put('f:1', page(100));
  assert.ok(cache.get('f:0') !== undefined);
  for (let pageIdx = 2; pageIdx < 30; pageIdx++) cache.put(`f:${pageIdx}`, page(100));
  assert.ok(cache.stats().usedBytes <= 8000);
  assert.equal(cache.get('f:1'), undefined);
  cache.invalidateFile('f');
  assert.equal(cache.stats().entries, 0);
  assert.equal(parsePageCacheLimit('20%', 1000), 200);
  assert.equal(parsePageCacheLimit('1073741824'), 1073741824);
  assert.equal(parsePageCacheLimit('2g'), 2 * 1024 ** 3);
  assert.throws(() => parsePageCacheLimit('lots'), /storage_page_cache_limit/);
  assert.throws(() => parsePageCacheLimit('150%'), /storage_page_cache_limit/);
});

test('row ranges: normalise, intersect, union, count', () => {
  const a = RowRanges.of([[5, 10], [0, 3], [9, 12], [20, 20]]);
  assert.equal(a.toString(), '[0,3) [5,12)');
  const b = RowRanges.of([[2, 6], [11, 30]]);
  assert.equal(a.intersect(b).toString(), '[2,3) [5,6) [11,12)');
  assert.equal(a.union(b).toString(), '[0,30)');
  assert.equal(a.count(), 10);
  assert.ok(a.overlaps(11, 15) && !a.overlaps(3, 5));
  assert.equal(RowRanges.fromRowIds(Int32Array.from([1, 2, 2, 3, 7])).toString(), '[1,4) [7,8)');
  assert.ok(RowRanges.all(0).isEmpty());
});
