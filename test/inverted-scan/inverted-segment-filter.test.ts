/**
 * be/inverted-segment-filter.ts against a brute force: random AND / OR / NOT trees of index leaves over a
 * real segment (nullable string and int columns), answered (a) from index readers — here a reader that
 * answers each query from the column values, so the test checks the set algebra in three-valued logic,
 * `!=` / NOT IN / IS NOT NULL derived from `=` / IN / IS NULL, and the intersection with the scan's rows —
 * and (b) exactly from the column values (a segment without the file), both equal to the rows a
 * row-by-row SQL evaluation keeps.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { vectorFromRaw, type RawValue } from '../../src/common/column';
import { mulberry32 } from '../../src/common/prng';
import { QueryProfile } from '../../src/common/profile';
import { Types } from '../../src/common/types';
import { applyInvertedFilter, type InvertedRowsReader } from '../../src/be/inverted-segment-filter';
import type { BoundExpr } from '../../src/exec/bound-expr';
import { ensureFunctionsRegistered } from '../../src/exec/expr/functions/all-functions';
import type { InvertedFilter, InvertedFilterNode } from '../../src/exec/plan/fragment-spec';
import { createFileCache } from '../../src/io/create-file-cache';
import { LocalObjectStore } from '../../src/io/local-object-store';
import type { ColumnSchema } from '../../src/meta/schema';
import type { InvertedQuery } from '../../src/storage/inverted/inverted-query';
import { PageCache } from '../../src/storage/page-cache';
import { RowRanges } from '../../src/storage/row-ranges';
import { SegmentReader } from '../../src/storage/segment-reader';
import { writeSegment } from '../../src/storage/segment-writer';

const ROWS = 3000;
const WORDS = ['a', 'b', 'c', 'd'];

type Tri = boolean | null;
type Leaf = { column: 0 | 1; query: InvertedQuery };
type Tree = { kind: 'leaf'; leaf: Leaf } | { kind: 'and' | 'or'; args: Tree[] } | { kind: 'not'; arg: Tree };

const rand = mulberry32(12);
const tags: (string | null)[] = Array.from({ length: ROWS }, () => (rand() < 0.15 ? null : WORDS[Math.floor(rand() * WORDS.length)]));
const nums: (number | null)[] = Array.from({ length: ROWS }, () => (rand() < 0.1 ? null : Math.floor(rand() * 20)));
const valuesOf = (column: 0 | 1): (RawValue | null)[] => (column === 0 ? tags : nums);

function leafTruth(leaf: Leaf, row: number): Tri {
  const value = valuesOf(leaf.column)[row];
  const query = leaf.query;
  if (query.op === 'is_null') return value === null;
  if (query.op === 'is_not_null') return value !== null;
  if (value === null) return null;
  switch (query.op) {
    case '=':
      return value === query.value;
    case '!=':
      return value !== query.value;
    case '<':
      return value! < query.value!;
    case '>=':
      return value! >= query.value!;
    case 'in':
      return query.values.includes(value);
    case 'not_in':
      return !query.values.includes(value);
    default:
      throw new Error(`unexpected ${query.op}`);
  }
}

function truth(tree: Tree, row: number): Tri {
  switch (tree.kind) {
    case 'leaf':
      return leafTruth(tree.leaf, row);
    case 'not': {
      const value = truth(tree.arg, row);
      return value === null ? null : !value;
    }
    case 'and': {
      const values = tree.args.map((arg) => truth(arg, row));
      return values.includes(false) ? false : values.includes(null) ? null : true;
    }
    case 'or': {
      const values = tree.args.map((arg) => truth(arg, row));
      return values.includes(true) ? true : values.includes(null) ? null : false;
    }
  }
}

function randomLeaf(): Leaf {
  const column = rand() < 0.5 ? 0 : 1;
  const value = (): RawValue => (column === 0 ? WORDS[Math.floor(rand() * WORDS.length)] : Math.floor(rand() * 20));
  const ops = ['=', '!=', '<', '>=', 'in', 'not_in', 'is_null', 'is_not_null'] as const;
  const op = ops[Math.floor(rand() * ops.length)];
  if (op === 'in' || op === 'not_in') return { column, query: { op, values: [value(), value()] } };
  if (op === 'is_null' || op === 'is_not_null') return { column, query: { op } };
  return { column, query: { op, value: value() } };
}

function randomTree(depth: number): Tree {
  if (depth === 0 || rand() < 0.3) return { kind: 'leaf', leaf: randomLeaf() };
  const pick = rand();
  if (pick < 0.25) return { kind: 'not', arg: randomTree(depth - 1) };
  return { kind: pick < 0.6 ? 'and' : 'or', args: [randomTree(depth - 1), randomTree(depth - 1), ...(rand() < 0.3 ? [randomTree(depth - 1)] : [])] };
}

const COLUMN_TYPES = [Types.STRING, Types.INT];
const COLUMN_NAMES = ['tag', 'n'];
const lit = (column: 0 | 1, value: RawValue): BoundExpr => ({ kind: 'literal', type: COLUMN_TYPES[column], value });
const col = (column: 0 | 1): BoundExpr => ({ kind: 'column', index: column, type: COLUMN_TYPES[column], name: COLUMN_NAMES[column] });
const call = (name: string, ...args: BoundExpr[]): BoundExpr => ({ kind: 'call', name, args, type: Types.BOOLEAN });
const CALLS: Record<string, string> = { '=': 'eq', '!=': 'ne', '<': 'lt', '>=': 'ge' };

/** The leaf as the SQL expression a segment without the file evaluates. */
function leafExpr(leaf: Leaf): BoundExpr {
  const query = leaf.query;
  switch (query.op) {
    case 'is_null':
    case 'is_not_null':
      return { kind: 'isnull', operand: col(leaf.column), negated: query.op === 'is_not_null', type: Types.BOOLEAN };
    case 'in':
    case 'not_in':
      return { kind: 'in', operand: col(leaf.column), list: query.values.map((value) => lit(leaf.column, value)), negated: query.op === 'not_in', type: Types.BOOLEAN };
    default:
      return call(CALLS[query.op], col(leaf.column), lit(leaf.column, (query as { value: RawValue }).value));
  }
}

function treeExpr(tree: Tree): BoundExpr {
  if (tree.kind === 'leaf') return leafExpr(tree.leaf);
  if (tree.kind === 'not') return { kind: 'not', args: [treeExpr(tree.arg)], type: Types.BOOLEAN };
  return { kind: tree.kind, args: tree.args.map(treeExpr), type: Types.BOOLEAN };
}

function filterNode(tree: Tree): InvertedFilterNode {
  if (tree.kind === 'leaf') return { kind: 'leaf', indexName: `idx_${COLUMN_NAMES[tree.leaf.column]}`, column: COLUMN_NAMES[tree.leaf.column], query: tree.leaf.query };
  if (tree.kind === 'not') return { kind: 'not', arg: filterNode(tree.arg) };
  return { kind: tree.kind, args: tree.args.map(filterNode) };
}

/** An index reader answering from the values; asked only what a reader answers (`=`, IN, ranges, IS NULL). */
function valueReader(column: 0 | 1, asked: string[]): InvertedRowsReader {
  return {
    async query(query) {
      asked.push(query.op);
      const rows: number[] = [];
      for (let row = 0; row < ROWS; row++) if (leafTruth({ column, query }, row) === true) rows.push(row);
      return { toArray: () => Uint32Array.from(rows) };
    },
  };
}

test('index answers and the exact fallback equal a brute force, for random AND / OR / NOT trees', async () => {
  ensureFunctionsRegistered();
  const store = new LocalObjectStore(fs.mkdtempSync(path.join(os.tmpdir(), 'galene-invfilter-')));
  const cache = await createFileCache(store);
  const columns: ColumnSchema[] = [
    { name: 'tag', type: Types.STRING, nullable: true, uniqueId: 1, isKey: false } as unknown as ColumnSchema,
    { name: 'n', type: Types.INT, nullable: true, uniqueId: 2, isKey: false } as unknown as ColumnSchema,
  ];
  const parts = await writeSegment(
    columns.map((column) => ({ name: column.name, type: column.type, uniqueId: column.uniqueId })),
    [vectorFromRaw(Types.STRING, tags), vectorFromRaw(Types.INT, nums)],
    { compression: 'LZ4', numShortKeyColumns: 0, pageRowLimit: 500 },
  );
  await store.put('data/1/s_0.dat', parts);
  const reader = await SegmentReader.open(await cache.open('data/1/s_0.dat', new QueryProfile('t', '', '', '')), { pageCache: new PageCache(1 << 24), profile: new QueryProfile('t', '', '', '') });
  const asked: string[] = [];
  const readers = [valueReader(0, asked), valueReader(1, asked)];
  const records = [
    { name: 'idx_tag', kind: 'inverted' as const, key: 'data/1/s_0.idx_tag.idx', size: 1 },
    { name: 'idx_n', kind: 'inverted' as const, key: 'data/1/s_0.idx_n.idx', size: 1 },
  ];
  const open = async (record: { name: string }): Promise<InvertedRowsReader> => readers[record.name === 'idx_tag' ? 0 : 1];
  for (let caseIdx = 0; caseIdx < 300; caseIdx++) {
    const tree = randomTree(3);
    const filter: InvertedFilter = { predicate: filterNode(tree), filterColumns: columns, filter: treeExpr(tree), exactOnly: false, maxExpansions: 50 };
    const ranges = caseIdx % 3 === 0 ? null : RowRanges.of([[Math.floor(rand() * 1000), 1000 + Math.floor(rand() * 1000)], [2200, 2200 + Math.floor(rand() * 800)]]);
    const scanned = ranges ?? RowRanges.all(ROWS);
    const expected: number[] = [];
    for (let rangeIdx = 0; rangeIdx < scanned.rangeCount; rangeIdx++) for (let row = scanned.start(rangeIdx); row < scanned.end(rangeIdx); row++) if (truth(tree, row) === true) expected.push(row);
    const profile = new QueryProfile('t', '', '', '');
    const byIndex = await applyInvertedFilter(reader, ranges, filter, { records, open }, profile);
    const exact = await applyInvertedFilter(reader, ranges, filter, { records: undefined, open: null }, profile);
    const rowsOf = (out: RowRanges): number[] => out.toPairs().flatMap(([start, end]) => Array.from({ length: end - start }, (_v, idx) => start + idx));
    assert.deepEqual(rowsOf(byIndex), expected, `index: ${JSON.stringify(tree)}`);
    assert.deepEqual(rowsOf(exact), expected, `exact: ${JSON.stringify(tree)}`);
    assert.equal(profile.get('InvertedIndexSegmentsAnswered'), 1);
    assert.equal(profile.get('InvertedIndexSegmentsFallback'), 1);
    // A missing file for one of the indexes: the whole predicate is evaluated exactly.
    const partial = await applyInvertedFilter(reader, ranges, filter, { records: records.slice(0, 1), open }, profile);
    assert.deepEqual(rowsOf(partial), expected, `one file missing: ${JSON.stringify(tree)}`);
  }
  assert.ok(!asked.includes('!=') && !asked.includes('not_in') && !asked.includes('is_not_null'), 'derived ops come from =, IN, IS NULL');
  assert.ok(asked.includes('is_null') && asked.includes('='));
  await cache.close();
  store.close();
});
