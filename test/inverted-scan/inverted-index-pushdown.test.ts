/**
 * The inverted_index_pushdown rule on its own (no server): which conjuncts move into the scan
 * (TableScanNode.inverted) as index predicates, the exact form kept for segments without a file, the
 * columns the scan then no longer reads, the shapes it leaves to the Filter, and a hybrid search where the
 * ANN rule builds its search over the scan the inverted rule made.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Types } from '../../src/common/types';
import type { PhysicalNode } from '../../src/exec/plan/physical-plan';
import type { IndexSchema, TableSchema } from '../../src/meta/schema';
import { makeDb, planWithIndexes, scanOf } from '../exec-plan/helpers';

const COLUMNS = { id: Types.INT, tag: Types.varchar(10), body: Types.STRING, n: Types.INT, arr: Types.array(Types.STRING), embedding: Types.array(Types.FLOAT) };
const db = makeDb({ t: { columns: Object.entries(COLUMNS).map(([name, type]) => ({ name, type })), rows: [] } });

const inverted = (column: string, properties: Record<string, string> = {}): IndexSchema => ({ name: `idx_${column}`, columns: [column], indexType: 'INVERTED', properties, comment: '' });
const ANN: IndexSchema = { name: 'idx_emb', columns: ['embedding'], indexType: 'ANN', properties: { index_type: 'hnsw', metric_type: 'l2_distance', dim: '2' }, comment: '' };
const INDEXES = [inverted('tag'), inverted('n'), inverted('arr'), inverted('body', { parser: 'english' }), ANN];

function plan(sql: string, options: { indexes?: IndexSchema[]; keysType?: TableSchema['keysType']; properties?: Record<string, string>; disabled?: string[] } = {}): { root: PhysicalNode; text: string } {
  return planWithIndexes(db, sql, { ...options, indexes: options.indexes ?? INDEXES });
}

test('indexable conjuncts move into the scan; the Filter keeps the rest; a column only they read is not read', () => {
  const { root, text } = plan("SELECT id FROM t WHERE tag = 'a' AND n BETWEEN 3 AND 7 AND id % 2 = 0");
  const scan = scanOf(root);
  assert.deepEqual(scan.columns, ['id']);
  assert.deepEqual(scan.inverted?.filterColumns, ['tag', 'n']);
  assert.equal(scan.inverted?.predicate.kind, 'and');
  assert.match(text, /inverted index predicates: tag = 'a' AND n >= 3 AND n <= 7\n/);
  assert.match(text, /predicate: \(\(id % 2\) = 0\)/);
  // COUNT(*) with only index predicates reads no column.
  const counted = scanOf(plan("SELECT count(*) FROM t WHERE tag IN ('a', 'b') OR n IS NULL").root);
  assert.deepEqual(counted.columns, []);
  assert.deepEqual(counted.inverted?.predicate, {
    kind: 'or',
    args: [
      { kind: 'leaf', indexName: 'idx_tag', column: 'tag', op: 'in', operands: [{ kind: 'literal', type: Types.varchar(10), value: 'a' }, { kind: 'literal', type: Types.varchar(10), value: 'b' }] },
      { kind: 'leaf', indexName: 'idx_n', column: 'n', op: 'is_null', operands: [] },
    ],
  });
});

test('what stays in the Filter', () => {
  const cases = [
    "upper(tag) = 'A'", // a function of the column
    "tag = 'a' OR id = 1", // OR with a leaf no index answers
    'n = 1.5', // no exact value in the column's type
    'n IN (1, NULL)', // NULL in the list
    "body = 'x'", // comparison on a tokenized (english) index
    "NOT array_contains(arr, 'x')", // NULL elements make FALSE and NULL differ
    'id = 3', // no index
  ];
  for (const where of cases) assert.equal(scanOf(plan(`SELECT id FROM t WHERE ${where}`).root).inverted, undefined, where);
  // IS NULL is answered by any inverted index (its null bitmap), comparisons only without a parser.
  assert.ok(scanOf(plan('SELECT id FROM t WHERE body IS NOT NULL').root).inverted);
  assert.ok(scanOf(plan("SELECT id FROM t WHERE array_contains(arr, 'x')").root).inverted);
  assert.ok(scanOf(plan("SELECT id FROM t WHERE NOT (tag != 'a' AND n NOT IN (1, 2))").root).inverted);
});

test('table models: merge-on-read declines, merge-on-write pushes; the rule is skippable by name', () => {
  const sql = "SELECT id FROM t WHERE tag = 'a'";
  assert.equal(scanOf(plan(sql, { keysType: 'UNIQUE' }).root).inverted, undefined);
  assert.equal(scanOf(plan(sql, { keysType: 'AGGREGATE' }).root).inverted, undefined);
  assert.ok(scanOf(plan(sql, { keysType: 'UNIQUE', properties: { enable_unique_key_merge_on_write: 'true' } }).root).inverted);
  assert.equal(scanOf(plan(sql, { disabled: ['inverted_index_pushdown'] }).root).inverted, undefined);
});

test('hybrid search: the ANN search runs over the scan with the index predicate; neither column is read', () => {
  const { root, text } = plan("SELECT id FROM t WHERE tag = 'olap' ORDER BY l2_distance_approximate(embedding, [1, 2]) LIMIT 5");
  const scan = scanOf(root);
  assert.ok(scan.ann);
  assert.ok(scan.inverted);
  assert.equal(scan.ann.filter, null, 'the text predicate is not part of the row-by-row allowed-row filter');
  assert.ok(!scan.columns.includes('tag') && !scan.columns.includes('embedding'));
  assert.match(text, /inverted index predicates: tag = 'olap'\n(.*\n)*\s+ann top-n: k=5 ASC per segment\n\s+index-only: true/);
  // With a residual predicate on another column, that one stays the allowed-row filter.
  const mixed = scanOf(plan("SELECT id FROM t WHERE tag = 'olap' AND id > 3 ORDER BY l2_distance_approximate(embedding, [1, 2]) LIMIT 5").root);
  assert.deepEqual(mixed.ann?.filterColumns, ['id']);
  assert.ok(mixed.inverted);
});
