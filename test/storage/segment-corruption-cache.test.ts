/**
 * A segment read through the block cache of a remote store whose bytes fail their checksum: the error
 * names the file, the reader tells its owner (onDamage: drop it from the reader cache) and the file's
 * cached blocks are dropped (RandomAccessFile.discard), so after the object is repaired a new reader
 * reads it whole from the store and gets the right values — the damaged copy is never served again.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { vectorFromRaw } from '../../src/common/column';
import { NO_PROFILE } from '../../src/common/profile';
import { Types } from '../../src/common/types';
import { createFileCache } from '../../src/io/create-file-cache';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { RemoteLikeObjectStore } from '../../src/io/remote-like-store';
import { PageCache } from '../../src/storage/page-cache';
import { SegmentReader } from '../../src/storage/segment-reader';
import { writeSegment } from '../../src/storage/segment-writer';

const tempDir = (name: string): string => fs.mkdtempSync(path.join(os.tmpdir(), `galene-${name}-`));

test('a checksum failure drops the cached blocks and the reader; the repaired object reads right', async () => {
  const ROWS = 4000;
  const values = Array.from({ length: ROWS }, (_v, idx) => idx * 3);
  const parts = await writeSegment([{ name: 'v', type: Types.INT, uniqueId: 1 }], [vectorFromRaw(Types.INT, values)], { compression: 'LZ4', numShortKeyColumns: 0, pageRowLimit: 1024 });
  const original = Buffer.concat(parts);
  const damaged = Buffer.from(original);
  damaged[64] ^= 0xff; // inside the first data page
  const remote = new RemoteLikeObjectStore(new LocalObjectStore(tempDir('corrupt-remote')));
  const cache = await createFileCache(remote, { paths: [{ path: tempDir('corrupt-cache'), totalSize: 16 * 1024 * 1024, indexPercent: 5, normalPercent: 95 }], blockSize: 4096 });
  const key = 'data/7/1_0.dat';
  await remote.put(key, damaged);
  let damage = 0;
  const open = async (): Promise<SegmentReader> => SegmentReader.open(await cache.open(key, NO_PROFILE, original.length), { pageCache: new PageCache(1 << 20), profile: NO_PROFILE, onDamage: () => damage++ });

  const reader = await open();
  await assert.rejects(reader.readColumn('v', null, NO_PROFILE), (err: Error & { code?: string }) => err.code === 'CORRUPTION' && err.message.includes(`[CORRUPTION] ${key}: `));
  assert.equal(damage, 1, 'the owner was told to drop the reader');
  await cache.flush();
  assert.equal(cache.cachedBlocks!().length, 0, 'no block of the damaged object stays cached');

  await remote.put(key, original);
  const repaired = await open();
  const read = await repaired.readColumn('v', null, NO_PROFILE);
  assert.deepEqual(Array.from((read as { values: Int32Array }).values), values);
  await cache.close();
  remote.close();
});
