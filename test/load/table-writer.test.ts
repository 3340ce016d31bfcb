/**
 * writeTableRows puts a tablet's segment while it encodes the next one. These check what that must not
 * change: every segment lands under its key with the rows of its bucket, and when a put fails the call
 * reports that failure only after every put settled, leaving none of its objects behind.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { vectorFromRaw } from '../../src/common/column';
import { GaleneError } from '../../src/common/errors';
import { Types } from '../../src/common/types';
import { LocalObjectStore } from '../../src/io/local-object-store';
import type { ObjectStore } from '../../src/io/object-store';
import { writeTableRows } from '../../src/load/table-writer';
import type { TableState } from '../../src/meta/catalog';
import type { ColumnSchema, TableSchema } from '../../src/meta/schema';

const column = (name: string, type: ColumnSchema['type'], uniqueId: number): ColumnSchema => ({ name, type, nullable: true, isKey: uniqueId === 0, aggregation: null, defaultValue: null, comment: '', uniqueId });
const schema: TableSchema = {
  id: 1, databaseName: 'd', name: 't', columns: [column('k', Types.INT, 0), column('v', Types.STRING, 1)], keysType: 'DUPLICATE', keyColumns: ['k'],
  indexes: [], distribution: { type: 'HASH', columns: ['k'], buckets: 4 }, properties: {}, comment: '', schemaVersion: 1, createTime: 0,
};
const table: TableState = { schema, dbId: 1, tablets: [0, 1, 2, 3].map((bucket) => ({ id: 100 + bucket, tableId: 1, bucket })), rowsets: [], visibleVersion: 1 };
const keys = Array.from({ length: 1000 }, (_unused, rowIdx) => (rowIdx * 7919) % 1000);
const batch = { length: keys.length, columns: [vectorFromRaw(Types.INT, keys), vectorFromRaw(Types.STRING, keys.map((key) => `v${key}`))] };

function tempStore(): LocalObjectStore {
  return new LocalObjectStore(fs.mkdtempSync(path.join(os.tmpdir(), 'galene-writer-')));
}

test('every bucket gets its segment and every row lands once', async () => {
  const store = tempStore();
  const written = await writeTableRows(store, table, batch, 7);
  assert.equal(written.rowsets.reduce((sum, rowset) => sum + rowset.numRows, 0), keys.length);
  assert.deepEqual(await store.list('data/'), [...written.objectKeys].sort());
  for (const rowset of written.rowsets) {
    for (const segment of rowset.segments) assert.equal((await store.head(segment.key))?.size, segment.size);
  }
  fs.rmSync(store.root, { recursive: true, force: true });
});

test('a failing put fails the call after the others settled and leaves no object behind', async () => {
  for (let failAt = 1; failAt <= 4; failAt++) {
    const inner = tempStore();
    let puts = 0;
    let running = 0;
    const store: ObjectStore = {
      kind: 'local',
      put: async (key, data) => {
        const putIdx = ++puts;
        running++;
        try {
          await new Promise((resolve) => setTimeout(resolve, 5 * (5 - putIdx)));
          if (putIdx === failAt) throw new GaleneError('IO_ERROR', [`injected failure of put ${putIdx}`]);
          await inner.put(key, data);
        } finally {
          running--;
        }
      },
      get: (key, range) => inner.get(key, range),
      head: (key) => inner.head(key),
      list: (prefix) => inner.list(prefix),
      delete: (key) => inner.delete(key),
      localPath: (key) => inner.localPath(key),
    };
    await assert.rejects(writeTableRows(store, table, batch, 8), (err: unknown) => err instanceof GaleneError && err.message.includes(`put ${failAt}`));
    assert.equal(running, 0, 'a put was still running when the call failed');
    assert.deepEqual(await inner.list('data/'), [], `objects left after put ${failAt} failed`);
    fs.rmSync(inner.root, { recursive: true, force: true });
  }
});
