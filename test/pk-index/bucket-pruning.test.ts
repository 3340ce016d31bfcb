import { test } from 'node:test';
import assert from 'node:assert/strict';
import { vectorFromRaw } from '../../src/common/column';
import type { ScanPredicate } from '../../src/common/scan-predicate';
import { Types, type DataType } from '../../src/common/types';
import { computeBuckets } from '../../src/load/bucket-hash';
import type { ColumnSchema, TableSchema } from '../../src/meta/schema';
import { pinnedTuples, prunedBuckets } from '../../src/storage/bucket-pruning';

const column = (name: string, type: DataType, uniqueId: number): ColumnSchema => ({ name, type, nullable: false, isKey: uniqueId < 2, aggregation: null, defaultValue: null, comment: '', uniqueId });

const SCHEMA: TableSchema = {
  id: 1,
  databaseName: 'db',
  name: 't',
  columns: [column('k', Types.BIGINT, 0), column('s', Types.varchar(8), 1), column('v', Types.INT, 2)],
  keysType: 'UNIQUE',
  keyColumns: ['k', 's'],
  indexes: [],
  distribution: { type: 'HASH', columns: ['k', 's'], buckets: 16 },
  properties: { enable_unique_key_merge_on_write: 'true' },
  comment: '',
  schemaVersion: 1,
  createTime: 0,
};

/** The bucket a row with these distribution values is written to (the loads' hash). */
function loadBucket(k: bigint, s: string, buckets = 16): number {
  return computeBuckets([vectorFromRaw(Types.BIGINT, [k]), vectorFromRaw(Types.varchar(8), [s])], 1, buckets)[0];
}

test('equalities on every distribution column name the buckets the loads hash those values to', () => {
  for (let key = 0n; key < 50n; key++) {
    const predicates: ScanPredicate[] = [{ column: 'K', op: '=', value: key }, { column: 's', op: '=', value: `x${key}` }, { column: 'v', op: '>', value: 3 }];
    assert.deepEqual(prunedBuckets(SCHEMA, 16, predicates), [loadBucket(key, `x${key}`)]);
  }
  // A number for the BIGINT column hashes as that integer.
  assert.deepEqual(prunedBuckets(SCHEMA, 16, [{ column: 'k', op: '=', value: 7 }, { column: 's', op: '=', value: 'a' }]), [loadBucket(7n, 'a')]);
});

test('IN lists combine; intersections and NULLs narrow; anything unpinned reads every tablet', () => {
  const both = prunedBuckets(SCHEMA, 16, [{ column: 'k', op: 'in', values: [1n, 2n] }, { column: 's', op: 'in', values: ['a', 'b'] }]);
  const expected = [...new Set([loadBucket(1n, 'a'), loadBucket(1n, 'b'), loadBucket(2n, 'a'), loadBucket(2n, 'b')])].sort((a, b) => a - b);
  assert.deepEqual(both, expected);
  assert.deepEqual(prunedBuckets(SCHEMA, 16, [{ column: 'k', op: 'in', values: [1n, 2n, null] }, { column: 'k', op: '=', value: 2n }, { column: 's', op: '=', value: 'a' }]), [loadBucket(2n, 'a')]);
  assert.deepEqual(prunedBuckets(SCHEMA, 16, [{ column: 'k', op: '=', value: 1n }, { column: 'k', op: '=', value: 2n }, { column: 's', op: '=', value: 'a' }]), [], 'k = 1 AND k = 2 matches nothing');
  assert.equal(prunedBuckets(SCHEMA, 16, [{ column: 'k', op: '=', value: 1n }]), null, 's is not pinned');
  assert.equal(prunedBuckets(SCHEMA, 16, [{ column: 'k', op: '>=', value: 1n }, { column: 's', op: '=', value: 'a' }]), null, 'a range does not pin');
  assert.equal(prunedBuckets(SCHEMA, 1, [{ column: 'k', op: '=', value: 1n }, { column: 's', op: '=', value: 'a' }]), null, 'one bucket');
  assert.equal(prunedBuckets({ ...SCHEMA, distribution: { type: 'RANDOM', columns: [], buckets: 16 } }, 16, [{ column: 'k', op: '=', value: 1n }]), null, 'RANDOM distribution');
});

test('values the column type cannot hold exactly, or too many combinations, do not prune', () => {
  assert.equal(prunedBuckets(SCHEMA, 16, [{ column: 'k', op: '=', value: 1.5 }, { column: 's', op: '=', value: 'a' }]), null);
  assert.equal(prunedBuckets(SCHEMA, 16, [{ column: 'k', op: '=', value: 'one' }, { column: 's', op: '=', value: 'a' }]), null);
  const many = Array.from({ length: 100 }, (_, idx) => BigInt(idx));
  const strings = Array.from({ length: 100 }, (_, idx) => `s${idx}`);
  assert.equal(prunedBuckets(SCHEMA, 16, [{ column: 'k', op: 'in', values: many }, { column: 's', op: 'in', values: strings }]), null);
  const tuples = pinnedTuples(SCHEMA, ['k', 's'], [{ column: 'k', op: 'in', values: [1n, 2n] }, { column: 's', op: 'in', values: ['a', 'b', 'c'] }]);
  assert.equal(tuples?.[0].length, 6);
});
