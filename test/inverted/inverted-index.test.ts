// The per-segment inverted index (src/storage/inverted): every query op on generated segments (Zipf-ish
// words, NULLs, numbers, arrays) against a brute-force evaluation over the same rows with the same
// analyzer and row-level semantics; BM25 statistics; the file round trip through the FileCache (local and
// remote-like stores, the worker build); corrupt and truncated files are errors naming the file.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RawValue, Vector } from '../../src/common/column';
import { vectorFromRaw } from '../../src/common/column';
import { GaleneError } from '../../src/common/errors';
import { NO_PROFILE, QueryProfile } from '../../src/common/profile';
import { Types, type DataType } from '../../src/common/types';
import { createFileCache } from '../../src/io/create-file-cache';
import { InPlaceFileCache } from '../../src/io/in-place-file-cache';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { RemoteLikeObjectStore } from '../../src/io/remote-like-store';
import type { AnalyzerConfig, InvertedQuery } from '../../src/storage/inverted';
import { buildInvertedFileSync, buildInvertedIndex, InvertedBuilder, InvertedIndexReader, RowSet } from '../../src/storage/inverted';
import { analyze, chineseParserAvailable, KEYWORD_ANALYZER, matchesTokens, matchQuery, parseInvertedProperties, type MatchOp } from '../../src/storage/inverted';
import { mulberry32 } from '../../src/common/prng';
import { intRows, textRows, VOCABULARY, zipfPicker } from './inverted-corpus';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-inverted-'));
const store = new LocalObjectStore(root);
const cache = new InPlaceFileCache(store);
after(async () => {
  await cache.close();
  store.close();
});

const ENGLISH: AnalyzerConfig = parseInvertedProperties({ parser: 'english', support_phrase: 'true' });
const NONE: AnalyzerConfig = KEYWORD_ANALYZER;

let fileCounter = 0;
/** Build `values` of `type` into an index file; open it through the FileCache. */
async function indexOf(type: DataType, values: readonly RawValue[], analyzer: AnalyzerConfig): Promise<InvertedIndexReader> {
  const key = `data/1/${++fileCounter}_0.idx${fileCounter}.idx`;
  fs.mkdirSync(path.dirname(path.join(root, key)), { recursive: true });
  buildInvertedFileSync(path.join(root, key), { vector: vectorFromRaw(type, values), analyzer });
  return InvertedIndexReader.open(cache, key, NO_PROFILE);
}

function rowsWhere(values: readonly RawValue[], keep: (value: RawValue) => boolean): number[] {
  const out: number[] = [];
  values.forEach((value, row) => {
    if (keep(value)) out.push(row);
  });
  return out;
}

async function expectRows(reader: InvertedIndexReader, q: InvertedQuery, expected: number[], what = JSON.stringify(q, (_, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value))): Promise<void> {
  const got = await reader.query(q, { maxExpansions: 1_000_000 });
  assert.deepEqual([...got.toArray()], expected, what);
}

const TEXT = textRows(3000, 11);

/** MATCH queries: words from the vocabulary and phrases cut from the rows themselves (so they match). */
function matchQueries(): { op: MatchOp; text: string }[] {
  const phrases = [3, 17, 99, 250, 1201].map((row) => TEXT[row] ?? 'data base').map((text) => analyze(text, ENGLISH).slice(1, 3).map((token) => token.term).join(' '));
  const out: { op: MatchOp; text: string }[] = [];
  for (const text of ['data', 'w100x', 'Index QUERY', 'nosuchword', 'olap search log', '', ...phrases]) {
    out.push({ op: 'match_any', text }, { op: 'match_all', text }, { op: 'match_phrase', text });
  }
  for (const text of ['data base', 'base data ~2', 'data base ~1', 'query index ~3+', 'index query ~3+', 'log error ~0', 'data index log ~4', ...phrases.map((phrase) => `${phrase} ~1+`)]) out.push({ op: 'match_phrase', text });
  for (const text of ['dat', 'data ba', 'query ind', 'w1', ...phrases]) out.push({ op: 'match_phrase_prefix', text });
  for (const text of ['ase', 'ase quer', 'ta base in', 'ing', ...phrases]) out.push({ op: 'match_phrase_edge', text });
  for (const text of ['^da.a', 'ing$', 'w1[0-9]x', 'x', '^nomatch$']) out.push({ op: 'match_regexp', text });
  return out;
}

test('MATCH_* on an analyzed text index equals the row-level semantics on every row', async () => {
  const reader = await indexOf(Types.STRING, TEXT, ENGLISH);
  assert.equal(reader.numRows, TEXT.length);
  for (const { op, text } of matchQueries()) {
    const query = matchQuery(op, text, ENGLISH);
    const expected = rowsWhere(TEXT, (value) => value !== null && matchesTokens(op, query, analyze(value as string, ENGLISH)));
    await expectRows(reader, { op, text }, expected, `${op} '${text}'`);
  }
  await expectRows(reader, { op: 'is_null' }, rowsWhere(TEXT, (value) => value === null));
  await expectRows(reader, { op: 'is_not_null' }, rowsWhere(TEXT, (value) => value !== null));
  assert.equal(reader.supports({ op: '=', value: 'data' }), false, 'an analyzed index does not answer =');
});

test('every analyzer (english, unicode with stop words, chinese, char filter, case kept): index answers equal the row-level ones', async () => {
  const words = ['the', 'of', 'and', 'Data', 'base', 'in', 'a', 'query', 'Index', 'olap', '数据库', '倒排索引', '查询', 'search', 'engine', 'to', 'is'];
  const pick = zipfPicker(77, words);
  const rand = mulberry32(78);
  const rows: (string | null)[] = Array.from({ length: 800 }, () => (rand() < 0.05 ? null : Array.from({ length: Math.floor(rand() * 9) }, pick).join(rand() < 0.5 ? ' ' : '')));
  const configs: Record<string, string>[] = [
    { parser: 'unicode', support_phrase: 'true' },
    { parser: 'english', support_phrase: 'true', lower_case: 'false' },
    { parser: 'unicode', support_phrase: 'true', stopwords: 'none', char_filter_type: 'char_replace', char_filter_pattern: '_-' },
  ];
  if (chineseParserAvailable()) configs.push({ parser: 'chinese', support_phrase: 'true' }, { parser: 'chinese', parser_mode: 'fine_grained', support_phrase: 'true' });
  const texts = ['data base', 'the data', 'data of base', 'query index ~2', 'index query ~2+', 'olap a search ~1', 'Data', '数据库 查询', '倒排', 'sea', 'ase que', 'engine the', '^da', '索引'];
  for (const props of configs) {
    const config = parseInvertedProperties(props);
    const reader = await indexOf(Types.STRING, rows, config);
    const tokens = rows.map((value) => (value === null ? null : analyze(value, config)));
    for (const op of ['match_any', 'match_all', 'match_phrase', 'match_phrase_prefix', 'match_phrase_edge', 'match_regexp'] as const) {
      for (const text of texts) {
        const query = matchQuery(op, text, config);
        await expectRows(reader, { op, text }, tokens.flatMap((row, rowIdx) => (row !== null && matchesTokens(op, query, row) ? [rowIdx] : [])), `${JSON.stringify(props)} ${op} '${text}'`);
      }
    }
  }
});

test('the brute force is not trivially empty: common words and cut phrases match many rows', async () => {
  const reader = await indexOf(Types.STRING, TEXT, ENGLISH);
  assert.ok((await reader.query({ op: 'match_any', text: 'data' })).size > 100);
  assert.ok((await reader.query({ op: 'match_phrase', text: 'data base ~3' })).size > 10);
  assert.ok((await reader.query({ op: 'match_phrase_prefix', text: 'dat' })).size > 100);
});

test('MATCH_PHRASE_PREFIX expands its last term to at most inverted_index_max_expansions terms', async () => {
  const reader = await indexOf(Types.STRING, TEXT, ENGLISH);
  // 'w1' prefixes w1x, w10x..w19x, w100x..w119x: with 2 expansions only the first two terms in order count.
  const limited = await reader.query({ op: 'match_phrase_prefix', text: 'w1' }, { maxExpansions: 2 });
  const [first, second] = VOCABULARY.filter((word) => word.startsWith('w1')).sort();
  const expected = rowsWhere(TEXT, (value) => value !== null && analyze(value as string, ENGLISH).some((token) => token.term === first || token.term === second));
  assert.deepEqual([...limited.toArray()], expected);
  const all = await reader.query({ op: 'match_phrase_prefix', text: 'w1' }, { maxExpansions: 1000 });
  assert.ok(all.size > limited.size);
});

test('a phrase query on an index without support_phrase is a clear error; single terms still work', async () => {
  const reader = await indexOf(Types.STRING, TEXT, { ...ENGLISH, supportPhrase: false });
  await assert.rejects(reader.query({ op: 'match_phrase', text: 'data base' }), /support_phrase/);
  await expectRows(reader, { op: 'match_phrase', text: 'data' }, rowsWhere(TEXT, (value) => value !== null && analyze(value as string, ENGLISH).some((token) => token.term === 'data')));
});

test('an index without a parser answers =, !=, IN, NOT IN, ranges and NULL tests on strings', async () => {
  const values = textRows(2000, 5, { maxWords: 2 });
  const reader = await indexOf(Types.STRING, values, NONE);
  const probes = ['data', 'data base', 'w3x', 'olap', 'zzz', ''];
  for (const probe of probes) {
    await expectRows(reader, { op: '=', value: probe }, rowsWhere(values, (value) => value === probe));
    await expectRows(reader, { op: '!=', value: probe }, rowsWhere(values, (value) => value !== null && value !== probe));
    await expectRows(reader, { op: 'match_any', text: probe }, rowsWhere(values, (value) => value === probe));
    for (const op of ['<', '<=', '>', '>='] as const) {
      const cmp = (value: string): boolean => (op === '<' ? value < probe : op === '<=' ? value <= probe : op === '>' ? value > probe : value >= probe);
      await expectRows(reader, { op, value: probe }, rowsWhere(values, (value) => value !== null && cmp(value as string)));
    }
  }
  await expectRows(reader, { op: 'in', values: ['data', 'w3x', 'nothing'] }, rowsWhere(values, (value) => value === 'data' || value === 'w3x'));
  await expectRows(reader, { op: 'not_in', values: ['data', 'w3x'] }, rowsWhere(values, (value) => value !== null && value !== 'data' && value !== 'w3x'));
  await expectRows(reader, { op: 'not_in', values: ['data', null] }, []);
  await expectRows(reader, { op: 'is_null' }, rowsWhere(values, (value) => value === null));
});

test('numbers and dates: =, !=, IN and ranges (fractional bounds on integers) on INT, BIGINT, DOUBLE, DATE', async () => {
  const ints = intRows(3000, 3, 400);
  const cases: { type: DataType; values: RawValue[] }[] = [
    { type: Types.INT, values: ints },
    { type: Types.DATE, values: ints.map((value) => (value === null ? null : value + 19000)) },
    { type: Types.BIGINT, values: ints.map((value) => (value === null ? null : BigInt(value) * 10_000_000_000n)) },
    { type: Types.DOUBLE, values: ints.map((value) => (value === null ? null : value / 8)) },
  ];
  for (const { type, values } of cases) {
    const reader = await indexOf(type, values, NONE);
    const present = values.filter((value) => value !== null);
    const probes: RawValue[] = [present[0], present[7], present[100], -1e30, 1e30, 0];
    if (type.name === 'BIGINT') probes.push(15_000_000_000.5, -25_000_000_000.5);
    else probes.push(12.5, -3.25);
    for (const probe of probes) {
      const num = (value: RawValue): number => Number(value);
      await expectRows(reader, { op: '=', value: probe }, rowsWhere(values, (value) => value !== null && num(value) === num(probe)), `${type.name} = ${probe}`);
      await expectRows(reader, { op: '!=', value: probe }, rowsWhere(values, (value) => value !== null && num(value) !== num(probe)));
      for (const op of ['<', '<=', '>', '>='] as const) {
        const cmp = (value: number, bound: number): boolean => (op === '<' ? value < bound : op === '<=' ? value <= bound : op === '>' ? value > bound : value >= bound);
        await expectRows(reader, { op, value: probe }, rowsWhere(values, (value) => value !== null && cmp(num(value), num(probe))), `${type.name} ${op} ${probe}`);
      }
    }
    await expectRows(reader, { op: 'in', values: [present[1], present[2], 123456] }, rowsWhere(values, (value) => value !== null && (value === present[1] || value === present[2])));
    await expectRows(reader, { op: 'is_not_null' }, rowsWhere(values, (value) => value !== null));
  }
});

test('ARRAY columns: every element is indexed and array_contains answers from the index', async () => {
  const words = textRows(1500, 21, { maxWords: 1, nullRate: 0 });
  const ints = intRows(1500 * 4, 22, 50, 0.1);
  const strArrays: RawValue[] = words.map((_, row) => (row % 17 === 0 ? null : [words[row], words[(row * 7) % words.length], row % 5 === 0 ? null : words[(row * 3) % words.length]]));
  const intArrays: RawValue[] = words.map((_, row) => (row % 13 === 0 ? null : ints.slice(row * 4, row * 4 + (row % 4))));
  const strReader = await indexOf(Types.array(Types.STRING), strArrays, NONE);
  const intReader = await indexOf(Types.array(Types.INT), intArrays, NONE);
  for (const probe of ['data', 'w5x', '', 'nothing']) {
    await expectRows(strReader, { op: 'array_contains', value: probe }, rowsWhere(strArrays, (value) => Array.isArray(value) && value.includes(probe)));
  }
  for (const probe of [0, 7, 33, 1000]) {
    await expectRows(intReader, { op: 'array_contains', value: probe }, rowsWhere(intArrays, (value) => Array.isArray(value) && value.includes(probe)));
  }
  await expectRows(intReader, { op: 'is_null' }, rowsWhere(intArrays, (value) => value === null));
  assert.equal(intReader.supports({ op: '=', value: 1 }), false);
  assert.equal(intReader.supports({ op: 'array_contains', value: 1 }), true);
});

test('BM25 statistics: docCount, avgDocLength, docFreq, per-row tf and document length', async () => {
  const reader = await indexOf(Types.STRING, TEXT, ENGLISH);
  const tokens = TEXT.map((value) => (value === null ? null : analyze(value, ENGLISH)));
  const docs = tokens.filter((row) => row !== null);
  assert.equal(reader.docCount, docs.length);
  assert.ok(Math.abs(reader.avgDocLength - docs.reduce((sum, row) => sum + row!.length, 0) / docs.length) < 1e-9);
  const lengths = await reader.docLengths();
  assert.deepEqual([...lengths], tokens.map((row) => row?.length ?? 0));
  for (const term of ['data', 'w100x', 'nosuchword', 'olap']) {
    const rows = TEXT.map((_, row) => row).filter((row) => tokens[row]?.some((token) => token.term === term));
    assert.equal(await reader.docFreq(term), rows.length, term);
    const { rows: got, tfs } = await reader.termFrequencies(term);
    assert.deepEqual([...got], rows);
    assert.deepEqual([...tfs], rows.map((row) => tokens[row]!.filter((token) => token.term === term).length));
  }
  assert.deepEqual(reader.queryTerms('Data, DATA base'), ['data', 'base']);
});

test('the worker build writes the same file as the direct build, through a remote-like store and the block cache', async () => {
  const remoteRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-inverted-remote-'));
  const remote = new RemoteLikeObjectStore(new LocalObjectStore(remoteRoot));
  const blockCache = await createFileCache(remote, { paths: [{ path: fs.mkdtempSync(path.join(os.tmpdir(), 'galene-inverted-cache-')), totalSize: 16 << 20, indexPercent: 5, normalPercent: 95 }] });
  const builder = new InvertedBuilder();
  try {
    const big = textRows(40_000, 12);
    const vector: Vector = vectorFromRaw(Types.STRING, big);
    const info = await builder.buildObject(remote, 'data/9/1_0.ft.idx', { vector, analyzer: ENGLISH });
    const direct = buildInvertedIndex(vector, ENGLISH);
    assert.equal(info.size, direct.size);
    assert.deepEqual(await remote.get('data/9/1_0.ft.idx'), Buffer.concat(direct.parts));
    const profile = new QueryProfile('q', 'SELECT 1', 'root', 'test');
    const reader = await InvertedIndexReader.open(blockCache, 'data/9/1_0.ft.idx', profile, { knownSize: info.size });
    const rows = await reader.query({ op: 'match_all', text: 'w10x w20x' }, { profile });
    assert.deepEqual([...rows.toArray()], rowsWhere(big, (value) => value !== null && ['w10x', 'w20x'].every((term) => analyze(value as string, ENGLISH).some((token) => token.term === term))));
    assert.ok(rows.size > 0);
    assert.ok(profile.get('InvertedIndexBytesRead') > 0 && profile.get('InvertedIndexBytesRead') < info.size / 4, `a query reads only part of the file (${profile.get('InvertedIndexBytesRead')} of ${info.size} bytes)`);
    assert.ok(profile.counters.has('InvertedIndexQueryTime'));
    assert.ok(profile.counters.has('InvertedIndexSearcherOpenTime'));
    // A slice of a larger vector is sent compactly and indexed as its own rows.
    await builder.build(path.join(remoteRoot, 'slice.idx'), { vector: vectorFromRaw(Types.STRING, TEXT.slice(0, 10)), analyzer: ENGLISH });
  } finally {
    await builder.close();
    await blockCache.close();
    remote.close();
  }
});

test('index bytes stay well under the text bytes on a word corpus', () => {
  const rows = textRows(20_000, 99, { nullRate: 0 });
  const textBytes = rows.reduce((sum, value) => sum + Buffer.byteLength(value ?? ''), 0);
  const { size } = buildInvertedIndex(vectorFromRaw(Types.STRING, rows), { ...ENGLISH, supportPhrase: false });
  assert.ok(size < textBytes * 0.5, `index ${size} bytes for ${textBytes} bytes of text`);
});

test('a corrupt or truncated file is a CORRUPTION error naming the file, never a wrong answer', async () => {
  const key = 'data/1/corrupt_0.ft.idx';
  const file = path.join(root, key);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const good = Buffer.concat(buildInvertedIndex(vectorFromRaw(Types.STRING, TEXT.slice(0, 400)), ENGLISH).parts);
  const queries = ['data', 'base index', 'query'];
  /** Open the file as it is now (a fresh cache each time) and answer every query. */
  const answer = async (): Promise<Uint32Array[]> => {
    const freshStore = new LocalObjectStore(root);
    const fresh = new InPlaceFileCache(freshStore);
    try {
      const reader = await InvertedIndexReader.open(fresh, key, NO_PROFILE);
      return await Promise.all(queries.map(async (text) => (await reader.query({ op: 'match_any', text })).toArray()));
    } finally {
      await fresh.close();
      freshStore.close();
    }
  };
  fs.writeFileSync(file, good);
  const truth = await answer();
  const isCorruption = (err: unknown): boolean => err instanceof GaleneError && err.code === 'CORRUPTION' && err.message.includes(key);
  let errors = 0;
  for (let offset = 0; offset < good.length; offset += Math.max(1, Math.floor(good.length / 300))) {
    const bad = Buffer.from(good);
    bad[offset] ^= 0x5a;
    fs.writeFileSync(file, bad);
    try {
      assert.deepEqual(await answer(), truth, `flipped byte ${offset} gave a wrong answer`);
    } catch (err) {
      assert.ok(isCorruption(err), `flipped byte ${offset}: ${(err as Error).message}`);
      errors++;
    }
  }
  assert.ok(errors > 0);
  for (const length of [0, 10, good.length - 1, Math.floor(good.length / 2)]) {
    fs.writeFileSync(file, good.subarray(0, length));
    await assert.rejects(answer(), isCorruption, `truncated to ${length}`);
  }
});

test('RowSet: and / or / andNot / union / intersection / serialize round trip', () => {
  const a = RowSet.of([5, 1, 9, 1000000]);
  const b = RowSet.range(0, 10);
  assert.deepEqual([...a.and(b).toArray()], [1, 5, 9]);
  assert.deepEqual([...a.andNot(b)], [1000000]);
  assert.equal(a.or(b).size, 11);
  assert.deepEqual([...RowSet.union([a, b, RowSet.empty()]).toArray()].length, 11);
  assert.deepEqual([...RowSet.intersection([a, b, RowSet.of([9])]).toArray()], [9]);
  assert.ok(RowSet.deserialize(a.serialize()).equals(a));
  assert.equal(RowSet.intersection([]).size, 0);
});
