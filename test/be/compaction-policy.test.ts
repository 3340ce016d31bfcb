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

/** 1M rows of 128-dim vectors (~530 bytes a row) in Stream Loads of 49,152 rows, as bench/vector.ts loads them. */
function annLoads(annTable: boolean): { rowsets: RowsetRecord[]; amplification: number } {
  const rowBytes = 530;
  const loadRows = 49_152;
  const annRowset = (id: number, version: number, numRows: number): RowsetRecord => ({ ...rowset(id, version, numRows * rowBytes), numRows });
  const rowsets: RowsetRecord[] = [];
  let nextId = 1;
  let rewrittenRows = 0;
  let loaded = 0;
  for (let load = 1; loaded < 1_000_000; load++) {
    const numRows = Math.min(loadRows, 1_000_000 - loaded);
    loaded += numRows;
    rowsets.push(annRowset(nextId++, load, numRows));
    for (let choice = pickRowsets(rowsets, DEFAULT_COMPACTION_POLICY, annTable); choice; choice = pickRowsets(rowsets, DEFAULT_COMPACTION_POLICY, annTable)) {
      const merged = choice.rowsets.reduce((sum, input) => sum + input.numRows, 0);
      rewrittenRows += merged;
      const first = rowsets.indexOf(choice.rowsets[0]);
      assert.deepEqual(rowsets.slice(first, first + choice.rowsets.length), choice.rowsets);
      rowsets.splice(first, choice.rowsets.length, annRowset(nextId++, choice.rowsets[choice.rowsets.length - 1].version, merged));
    }
  }
  return { rowsets, amplification: rewrittenRows / loaded };
}

test('tables with an ANN index keep merging past 64 MiB: few segments to search, each row re-indexed a few times', () => {
  const plain = annLoads(false);
  const ann = annLoads(true);
  // Without the ANN rule a 1M x 128 table stops at 245,760-row rowsets (125 MiB each, past 64 MiB).
  assert.deepEqual(plain.rowsets.map((r) => r.numRows), [245_760, 245_760, 245_760, 245_760, 16_960]);
  assert.ok(ann.rowsets.length <= 3, `ANN policy: ${ann.rowsets.map((r) => r.numRows).join(', ')}`);
  assert.ok(Math.max(...ann.rowsets.map((r) => r.numRows)) >= 700_000, 'most rows end in one large rowset');
  assert.ok(ann.amplification <= 3, `index rebuilds per row ${ann.amplification.toFixed(2)}`);
  // Rowsets past annSmallRowsetRows (and 64 MiB) are left alone: no rebuild of a large index per few loads.
  assert.equal(pickRowsets([{ ...rowset(1, 1, 600 << 20), numRows: 1_000_000 }, { ...rowset(2, 2, 600 << 20), numRows: 1_000_000 }, { ...rowset(3, 3, 600 << 20), numRows: 1_000_000 }, { ...rowset(4, 4, 600 << 20), numRows: 1_000_000 }], DEFAULT_COMPACTION_POLICY, true), null);
});
