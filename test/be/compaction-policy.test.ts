import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_COMPACTION_POLICY, pickRowsets } from '../../src/be/compaction';
import type { RowsetRecord } from '../../src/meta/meta-store';

const rowset = (id: number, version: number, dataSize: number): RowsetRecord => ({ id, tabletId: 1, tableId: 1, txnId: id, version, segments: [], numRows: dataSize / 10, dataSize, createTime: 0 });

test('size-tiered cumulative compaction: few rowsets, each byte rewritten O(log n) times', () => {
  let rowsets: RowsetRecord[] = [];
  let nextId = 1;
  let rewritten = 0;
  const loadBytes = 100 * 1024;
  const loads = 2000;
  for (let load = 1; load <= loads; load++) {
    rowsets.push(rowset(nextId++, load, loadBytes));
    for (let choice = pickRowsets(rowsets, DEFAULT_COMPACTION_POLICY); choice; choice = pickRowsets(rowsets, DEFAULT_COMPACTION_POLICY)) {
      const merged = choice.rowsets.reduce((sum, input) => sum + input.dataSize, 0);
      rewritten += merged;
      const first = rowsets.indexOf(choice.rowsets[0]);
      // Consecutive in version order: the merged rowset takes the newest version of the run.
      assert.deepEqual(rowsets.slice(first, first + choice.rowsets.length), choice.rowsets);
      rowsets.splice(first, choice.rowsets.length, rowset(nextId++, choice.rowsets[choice.rowsets.length - 1].version, merged));
    }
    assert.ok(rowsets.length <= DEFAULT_COMPACTION_POLICY.baseMaxRowsets, `rowsets stay bounded (${rowsets.length})`);
  }
  const amplification = rewritten / (loads * loadBytes);
  assert.ok(amplification < 8, `write amplification ${amplification.toFixed(2)} stays logarithmic`);
  assert.ok(amplification > 1, 'compaction did run');
});
