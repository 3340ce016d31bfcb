/**
 * A BE over a remote-shaped store (RemoteLikeObjectStore: every request counted) reading a table through
 * its block cache, in process: a cold scan fills index (footer, short-key) and normal (page) blocks and
 * counts Doris's profile counters; a warm scan makes no request; a query with disable_file_cache goes to
 * the store; compaction's merge on a cold BE fills only the disposable queue; and a restarted BE finds
 * the blocks in the queue order they had (the persisted LRU).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { Backend } from '../../src/be/backend';
import { mergeTabletRowsets } from '../../src/be/compaction-merge';
import { vectorFromRaw } from '../../src/common/column';
import { Config } from '../../src/common/config';
import { fileCacheQueryPolicy, QueryProfile } from '../../src/common/profile';
import { Types } from '../../src/common/types';
import { makeTableSchema } from '../../src/exec/memory-table';
import type { VaultFileCache } from '../../src/io/vault-file-cache';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { RemoteLikeObjectStore } from '../../src/io/remote-like-store';
import type { TableState } from '../../src/meta/catalog';
import { writeSegment } from '../../src/storage/segment-writer';
import { BARE_CATALOG } from '../helpers/bare-catalog';

const ROWS = 30_000;

async function scanAll(backend: Backend, table: TableState, profile: QueryProfile): Promise<number> {
  let rows = 0;
  for await (const batch of backend.openTable(table).scan({ columns: ['id', 'name'], predicates: [], limit: null, profile })) rows += batch.length;
  return rows;
}

test('a BE reads a remote table through its block cache: queues, counters, skip, compaction, restart', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-fc-be-'));
  const remote = new RemoteLikeObjectStore(new LocalObjectStore(path.join(root, 'objects')));
  const schema = { ...makeTableSchema('db', 'users', [{ name: 'id', type: Types.BIGINT }, { name: 'name', type: Types.varchar(16) }]), keyColumns: ['id'] };
  const ids = Array.from({ length: ROWS }, (_v, rowIdx) => BigInt(rowIdx));
  const names = ids.map((id) => `user-${id % 977n}`);
  const columns = schema.columns.map((column) => ({ name: column.name, type: column.type, uniqueId: column.uniqueId }));
  const parts = await writeSegment(columns, [vectorFromRaw(Types.BIGINT, ids), vectorFromRaw(Types.varchar(16), names)], { compression: 'LZ4', numShortKeyColumns: 1, pageRowLimit: 2048 });
  const key = 'data/11/1_0.dat';
  await remote.put(key, parts);
  const segment = { key, numRows: ROWS, size: parts.reduce((sum, part) => sum + part.length, 0) };
  const table: TableState = {
    schema,
    dbId: 1,
    tablets: [{ id: 11, tableId: schema.id, bucket: 0 }],
    rowsets: [{ id: 1, tabletId: 11, tableId: schema.id, txnId: 1, version: 2, segments: [segment], numRows: ROWS, dataSize: segment.size, createTime: 0 }],
    visibleVersion: 2,
  };
  // 4 KiB blocks so that the segment spans many.
  const config = (cacheDir: string) => new Config({ data_dir: root, scan_thread_num: 0, file_cache_each_block_size: 4096, file_cache_path: JSON.stringify([{ path: path.join(root, cacheDir), total_size: 64 << 20 }]) });

  let backend = await Backend.open(config('cache'), BARE_CATALOG, remote);
  try {
    const typesHeld = () => new Set((backend.fileCache as VaultFileCache).block.cachedBlocks().map((block) => block.type));
    const cold = new QueryProfile('cold', '', 'u', 'd');
    assert.equal(await scanAll(backend, table, cold), ROWS);
    await backend.fileCache.flush();
    assert.deepEqual([...typesHeld()].sort(), ['index', 'normal']);
    for (const name of ['NumRemoteIOTotal', 'BytesScannedFromRemote', 'BytesWriteIntoCache', 'RemoteIOUseTimer', 'WriteCacheIOUseTimer']) assert.ok(cold.get(name) > 0, name);
    assert.equal(cold.get('BytesScannedFromRemote'), cold.get('BytesWriteIntoCache'), 'every fetched block was stored');

    remote.resetCounters();
    backend.pageCache.clear();
    const warm = new QueryProfile('warm', '', 'u', 'd');
    assert.equal(await scanAll(backend, table, warm), ROWS);
    assert.equal(remote.requests, 0, 'a warm scan makes no request');
    assert.ok(warm.get('NumLocalIOTotal') > 0 && warm.get('LocalIOUseTimer') > 0);
    assert.equal(warm.get('NumRemoteIOTotal'), 0);

    backend.pageCache.clear();
    const skip = new QueryProfile('skip', '', 'u', 'd');
    skip.fileCache = fileCacheQueryPolicy(true, -1, -1);
    assert.equal(await scanAll(backend, table, skip), ROWS);
    assert.ok(skip.get('NumSkipCacheIOTotal') > 0 && remote.getRequests > 0, 'disable_file_cache reads the store');
    assert.equal(skip.get('BytesWriteIntoCache'), 0);

    // Restart: the blocks are there, each queue in the order it had.
    const order = (backend.fileCache as VaultFileCache).block.blocks.queueOrder('normal');
    assert.ok(order.length > 4);
    await backend.close();
    backend = await Backend.open(config('cache'), BARE_CATALOG, remote);
    assert.deepEqual((backend.fileCache as VaultFileCache).block.blocks.queueOrder('normal'), order);
    await backend.close();

    // Compaction on a cold BE: its reads fill the disposable queue only.
    backend = await Backend.open(config('cache-compaction'), BARE_CATALOG, remote);
    await mergeTabletRowsets(table, backend.fileCache, remote, 99);
    await backend.fileCache.flush();
    assert.deepEqual([...typesHeld()], ['disposable']);
  } finally {
    await backend.close();
  }
});
