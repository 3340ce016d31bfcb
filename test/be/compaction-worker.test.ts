import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { CompactionWorkerClient } from '../../src/be/compaction-worker-client';
import { Types } from '../../src/common/types';
import { makeTableSchema } from '../../src/exec/memory-table';
import type { TableState } from '../../src/meta/catalog';

test('compaction worker: a failed merge is an error, not a crash; the worker keeps serving', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-compaction-worker-'));
  const client = new CompactionWorkerClient(root);
  const schema = { ...makeTableSchema('db', 't', [{ name: 'k', type: Types.INT }]), keyColumns: ['k'] };
  const table: TableState = { schema, dbId: 1, tablets: [{ id: 7, tableId: schema.id, bucket: 0 }], rowsets: [], visibleVersion: 1 };
  try {
    const missing: TableState = { ...table, rowsets: [{ id: 1, tabletId: 7, tableId: schema.id, txnId: 1, version: 2, segments: [{ key: 'data/7/1_0.dat', numRows: 10, size: 100 }], numRows: 10, dataSize: 100, createTime: 0 }] };
    await assert.rejects(client.merge(missing, 99), /compaction failed.*data\/7\/1_0\.dat/);
    const empty = await client.merge(table, 100);
    assert.deepEqual(empty.rowsets, []);
    assert.deepEqual(empty.objectKeys, []);
  } finally {
    await client.close();
  }
});
