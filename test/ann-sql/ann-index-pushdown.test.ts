/**
 * The ann_index_pushdown rule on its own (no server): which query shapes it rewrites into a scan with an
 * ANN search (TableScanNode.ann), what the search asks (k, range, allowed-row filter, distance column),
 * and the shapes it leaves to exact evaluation.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Types } from '../../src/common/types';
import type { PhysicalNode } from '../../src/exec/plan/physical-plan';
import type { IndexSchema, TableSchema } from '../../src/meta/schema';
import { makeDb, planWithIndexes, scanOf } from '../exec-plan/helpers';

const db = makeDb({ t: { columns: [{ name: 'id', type: Types.INT }, { name: 'tag', type: Types.varchar(10) }, { name: 'embedding', type: Types.array(Types.FLOAT) }], rows: [] } });

function index(metric: string): IndexSchema {
  return { name: `idx_${metric}`, columns: ['embedding'], indexType: 'ANN', properties: { index_type: 'hnsw', metric_type: metric, dim: '2' }, comment: '' };
}

function plan(sql: string, options: { indexes?: IndexSchema[]; keysType?: TableSchema['keysType']; properties?: Record<string, string>; disabled?: string[] } = {}): { root: PhysicalNode; text: string } {
  return planWithIndexes(db, sql, { ...options, indexes: options.indexes ?? [index('l2_distance')] });
}

const Q = '[1, 2]';
const L2 = `l2_distance_approximate(embedding, ${Q})`;

test('TopN: ORDER BY the distance LIMIT n OFFSET m asks each segment for n + m rows; index-only', () => {
  const { root, text } = plan(`SELECT id, ${L2} AS d FROM t ORDER BY d LIMIT 10 OFFSET 5`);
  const scan = scanOf(root);
  assert.equal(scan.ann?.limit, 15);
  assert.equal(scan.ann?.range, null);
  assert.equal(scan.ann?.distance, true);
  assert.deepEqual(scan.columns, ['id'], 'the vector column is not read');
  assert.deepEqual(scan.output.map((column) => column.name), ['id', '__ann_distance']);
  assert.match(text, /TOP-N #\d+\n\s+order by: d ASC NULLS FIRST\n\s+limit: 10\n\s+offset: 5/, 'the TopN above merges the segments');
  assert.match(text, /exprs: id AS id, __ann_distance AS d/);
  assert.match(text, /ann top-n: k=15 ASC per segment\n\s+index-only: true, distance column: from the index/);
});

test('filters become the allowed-row filter over the columns they read; the FILTER disappears', () => {
  const { root, text } = plan(`SELECT id FROM t WHERE tag = 'a' AND id > 3 ORDER BY ${L2} LIMIT 4`);
  const scan = scanOf(root);
  assert.deepEqual(scan.ann?.filterColumns, ['id', 'tag']);
  assert.doesNotMatch(text, /FILTER/);
  assert.match(text, /pushed predicates: .*tag = 'a'/, 'zone maps and the short key still prune');
  assert.match(text, /ann allowed-row filter: \(\(tag = 'a'\) AND \(id > 3\)\)/);
});

test('range: either side, near and far, with and without TopN', () => {
  const near = scanOf(plan(`SELECT id FROM t WHERE ${L2} <= 2.5`).root);
  assert.deepEqual([near.ann?.range?.op, near.ann?.limit, near.ann?.distance], ['<=', null, false]);
  const flipped = scanOf(plan(`SELECT id FROM t WHERE 2.5 > ${L2}`).root);
  assert.equal(flipped.ann?.range?.op, '<');
  const far = plan(`SELECT id, ${L2} FROM t WHERE ${L2} > 2.5`);
  assert.match(far.text, /ann range: l2_distance_approximate > 2\.5 \(rows from the index complement, no distances\)\n\s+index-only: false, distance column: computed from the vectors/);
  const both = scanOf(plan(`SELECT id FROM t WHERE ${L2} > 1 ORDER BY ${L2} LIMIT 3`).root);
  assert.deepEqual([both.ann?.range?.op, both.ann?.limit], ['>', 3]);
  // A second range conjunct over the distance needs the exact value: no pushdown.
  assert.doesNotMatch(plan(`SELECT id FROM t WHERE ${L2} > 1 AND ${L2} < 3`).text, /ann index/);
  // ORDER BY another column keeps its TopN over the range search (the seed's Sql2).
  const sql2 = plan(`SELECT id FROM t WHERE ${L2} <= 2 ORDER BY id LIMIT 3`);
  assert.match(sql2.text, /TOP-N #\d+\n\s+order by: id ASC/);
  assert.equal(scanOf(sql2.root).ann?.limit, null);
});

test('inner_product needs DESC and an inner_product index; the metric must match', () => {
  const ip = `inner_product_approximate(embedding, ${Q})`;
  const desc = scanOf(plan(`SELECT id FROM t ORDER BY ${ip} DESC LIMIT 3`, { indexes: [index('inner_product')] }).root);
  assert.equal(desc.ann?.metric, 'inner_product');
  assert.equal(desc.ann?.limit, 3);
  assert.equal(scanOf(plan(`SELECT id FROM t ORDER BY ${ip} LIMIT 3`, { indexes: [index('inner_product')] }).root).ann, undefined, 'ASC: farthest first, not the index order');
  assert.equal(scanOf(plan(`SELECT id FROM t ORDER BY ${ip} DESC LIMIT 3`).root).ann, undefined, 'an l2 index cannot answer inner_product');
  assert.equal(scanOf(plan(`SELECT id FROM t ORDER BY ${L2} DESC LIMIT 3`).root).ann, undefined);
  assert.equal(scanOf(plan(`SELECT id FROM t ORDER BY l2_distance(embedding, ${Q}) LIMIT 3`).root).ann, undefined, 'the exact function never uses the index');
});

test('declines: a conjunct over the distance, merge-on-read tables, extra sort keys, no index, skipped by name', () => {
  assert.equal(scanOf(plan(`SELECT id FROM t WHERE ${L2} < 3 AND abs(${L2} + 10) > 10 ORDER BY ${L2} LIMIT 3`).root).ann, undefined, 'Sql9');
  assert.equal(scanOf(plan(`SELECT id FROM t ORDER BY ${L2} LIMIT 3`, { keysType: 'UNIQUE' }).root).ann, undefined, 'merge-on-read UNIQUE KEY');
  assert.equal(scanOf(plan(`SELECT id FROM t ORDER BY ${L2} LIMIT 3`, { keysType: 'UNIQUE', properties: { enable_unique_key_merge_on_write: 'true' } }).root).ann?.limit, 3, 'merge-on-write UNIQUE KEY');
  assert.equal(scanOf(plan(`SELECT id FROM t ORDER BY ${L2} LIMIT 3`, { keysType: 'AGGREGATE' }).root).ann, undefined);
  assert.equal(scanOf(plan(`SELECT id FROM t ORDER BY ${L2}, id LIMIT 3`).root).ann, undefined);
  assert.equal(scanOf(plan(`SELECT id FROM t ORDER BY ${L2}`).root).ann, undefined, 'no LIMIT, no range: nothing to push');
  assert.equal(scanOf(plan(`SELECT id FROM t ORDER BY ${L2} LIMIT 3`, { indexes: [] }).root).ann, undefined);
  assert.equal(scanOf(plan(`SELECT id FROM t ORDER BY ${L2} LIMIT 3`, { disabled: ['ann_index_pushdown'] }).root).ann, undefined);
  // Selecting the vector keeps it in the scan (read by row ordinal for the final rows only).
  const withVector = scanOf(plan(`SELECT id, embedding FROM t ORDER BY ${L2} LIMIT 3`).root);
  assert.deepEqual(withVector.columns, ['id', 'embedding']);
  assert.match(plan(`SELECT id, embedding FROM t ORDER BY ${L2} LIMIT 3`).text, /index-only: false/);
});

test('an aggregate over a range search reads only what it aggregates: COUNT(*) reads no column', () => {
  const { root, text } = plan(`SELECT count(*) FROM t WHERE ${L2} < 2`);
  const scan = scanOf(root);
  assert.deepEqual(scan.columns, []);
  assert.equal(scan.ann?.range?.op, '<');
  assert.match(text, /index-only: true/);
  const grouped = plan(`SELECT tag, max(${L2}) FROM t WHERE ${L2} <= 2 GROUP BY tag`);
  assert.deepEqual(scanOf(grouped.root).columns, ['tag']);
  assert.equal(scanOf(grouped.root).ann?.distance, true);
  assert.match(grouped.text, /max\(__ann_distance\)/);
});
