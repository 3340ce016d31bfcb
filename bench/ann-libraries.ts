/**
 * ANN library choice: usearch (prebuilt, SIMD, parallel build, memory-mapped files) against hnswlib-node
 * (compiled by node-gyp at install; measured when installed: `npm install --no-save hnswlib-node`) on
 * seeded Gaussian-mixture data (bench/lib/vector-data.ts) with exact ground truth. Per library and
 * storage scalar (f32, f16; e4m3 with GALENE_BENCH_E4M3=1): build time, index bytes per vector, recall@10 / recall@100 at several ef, QPS on one
 * thread (sequential single queries) at k=10 and k=100; plus Galene's search layer over the usearch file
 * (src/storage/ann, the ratio to the raw library), filtered search through it, and the exact scan (the
 * engine's JS kernel against usearch's exactSearch).
 *
 *   npm run bench -- ann-libraries [--quick] [--json FILE]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { exactSearch, Index } from 'usearch';
import type { AnnIndexParams } from '../src/storage/ann';
import { AnnIndexReader, AnnSegmentSearcher, buildAnnFileSync } from '../src/storage/ann';
import { exactTopK } from '../src/storage/ann/exact-scan';
import { parseBenchArgs, peakRssMiB, report, Row } from './lib/report';
import { mixtureDataSet, recallAtK } from './lib/vector-data';

const M = 32;
const EFS = [32, 64, 128, 256];

interface DataSet {
  readonly name: string;
  readonly dim: number;
  readonly base: Float32Array;
  readonly queries: Float32Array;
  readonly truth: Int32Array[];
}

interface Searcher {
  search(queryIdx: number, k: number): ArrayLike<number | bigint>;
}

function makeDataSet(rows: number, queryCount: number, dim: number): DataSet {
  const { base, queries } = mixtureDataSet(rows, queryCount, dim, 42);
  const batch = exactSearch(base, queries, dim, 100, 'l2sq' as never, os.availableParallelism());
  const truth: Int32Array[] = [];
  const matches = batch as unknown as { keys: BigUint64Array };
  for (let queryIdx = 0; queryIdx < queryCount; queryIdx++) truth.push(Int32Array.from(matches.keys.subarray(queryIdx * 100, (queryIdx + 1) * 100), Number));
  return { name: `${rows / 1000}k x ${dim}`, dim, base, queries, truth };
}

const queryAt = (set: DataSet, queryIdx: number): Float32Array => set.queries.subarray(queryIdx * set.dim, (queryIdx + 1) * set.dim);

/** recall@10, recall@100 and sequential QPS at k=10 and k=100. */
function measure(set: DataSet, searcher: Searcher): { recall10: number; recall100: number; qps10: number; qps100: number } {
  const queryCount = set.truth.length;
  const pass = (k: number): { results: ArrayLike<number | bigint>[]; qps: number } => {
    const results: ArrayLike<number | bigint>[] = [];
    const start = performance.now();
    for (let queryIdx = 0; queryIdx < queryCount; queryIdx++) results.push(searcher.search(queryIdx, k));
    return { results, qps: queryCount / ((performance.now() - start) / 1000) };
  };
  // The better of two passes: the machine is shared, and the first pass also pages the file in.
  const best = (k: number): { results: ArrayLike<number | bigint>[]; qps: number } => {
    const first = pass(k);
    const second = pass(k);
    return second.qps > first.qps ? second : first;
  };
  const { results: out10, qps: qps10 } = best(10);
  const { results: out100, qps: qps100 } = best(100);
  return { recall10: recallAtK(out10, set.truth, 10), recall100: recallAtK(out100, set.truth, 100), qps10, qps100 };
}

function usearchRows(set: DataSet, scalar: 'f32' | 'f16' | 'e4m3', efc: number, dir: string): Row[] {
  const config = (ef: number) => ({ dimensions: set.dim, metric: 'l2sq', quantization: scalar, connectivity: M, expansion_add: efc, expansion_search: ef, multi: false }) as never;
  const count = set.base.length / set.dim;
  const keys = new BigUint64Array(count);
  for (let idx = 0; idx < count; idx++) keys[idx] = BigInt(idx);
  const index = new Index(config(EFS[0]));
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  index.add(keys, set.base, os.availableParallelism());
  const buildS = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const file = path.join(dir, `usearch-${scalar}.bin`);
  index.save(file);
  const bytes = fs.statSync(file).size;
  const rows: Row[] = [];
  for (const ef of EFS) {
    const view = new Index(config(ef));
    view.view(file);
    const queries = Array.from({ length: set.truth.length }, (_, queryIdx) => queryAt(set, queryIdx));
    const result = measure(set, { search: (queryIdx, k) => view.search(queries[queryIdx], k, 1).keys });
    rows.push(row(set, `usearch ${scalar}`, buildS, (cpu.user + cpu.system) / 1e6 / buildS, bytes / count, ef, result));
  }
  return rows;
}

/** The part of hnswlib-node's API used here (typed locally: the package is optional). */
interface HnswlibModule {
  HierarchicalNSW: new (space: 'l2', dim: number) => {
    initIndex(maxElements: number, m: number, efConstruction: number, seed: number): void;
    addPoint(point: number[], label: number): void;
    setEf(ef: number): void;
    searchKnn(query: number[], k: number): { neighbors: number[] };
    writeIndexSync(file: string): void;
  };
}

function hnswlibRows(set: DataSet, efc: number, dir: string): Row[] {
  let hnswlib: HnswlibModule;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    hnswlib = require('hnswlib-node') as HnswlibModule;
  } catch {
    console.error('hnswlib-node is not installed: `npm install --no-save hnswlib-node` to measure it');
    return [];
  }
  const count = set.base.length / set.dim;
  const index = new hnswlib.HierarchicalNSW('l2', set.dim);
  index.initIndex(count, M, efc, 100);
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  for (let row = 0; row < count; row++) index.addPoint(Array.from(set.base.subarray(row * set.dim, (row + 1) * set.dim)), row);
  const buildS = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const file = path.join(dir, 'hnswlib.bin');
  index.writeIndexSync(file);
  const bytes = fs.statSync(file).size;
  // hnswlib-node takes plain arrays: convert the queries once, outside the timed loop.
  const queries = Array.from({ length: set.truth.length }, (_, queryIdx) => Array.from(queryAt(set, queryIdx)));
  const rows: Row[] = [];
  for (const ef of EFS) {
    index.setEf(ef);
    const result = measure(set, { search: (queryIdx, k) => index.searchKnn(queries[queryIdx], k).neighbors });
    rows.push(row(set, 'hnswlib-node', buildS, (cpu.user + cpu.system) / 1e6 / buildS, bytes / count, ef, result));
  }
  return rows;
}

/** Galene's layer (AnnSegmentSearcher over the index file, Doris distances): overhead vs the raw library. */
async function galeneRows(set: DataSet, efc: number, dir: string): Promise<Row[]> {
  const params: AnnIndexParams = { metric: 'l2_distance', dim: set.dim, maxDegree: M, efConstruction: efc, quantizer: 'flat' };
  const file = path.join(dir, 'galene.idx');
  const start = performance.now();
  const header = buildAnnFileSync(file, { params, vectors: set.base });
  const buildS = (performance.now() - start) / 1000;
  const reader = await AnnIndexReader.openFile(file);
  const count = set.base.length / set.dim;
  const vectors = { read: async (rows: Int32Array | null) => [rows ? gather(set, rows) : set.base] };
  const searcher = new AnnSegmentSearcher(params, count, reader, vectors);
  const rows: Row[] = [];
  for (const ef of EFS) {
    // AnnSegmentSearcher is async (its exact path reads vectors); time it the way the engine calls it.
    const queries = Array.from({ length: set.truth.length }, (_, queryIdx) => queryAt(set, queryIdx));
    const pass = async (k: number): Promise<{ results: Int32Array[]; qps: number }> => {
      const results: Int32Array[] = [];
      const begin = performance.now();
      for (const query of queries) results.push((await searcher.search(query, k, { ef })).rows);
      return { results, qps: queries.length / ((performance.now() - begin) / 1000) };
    };
    const best = async (k: number): Promise<{ results: Int32Array[]; qps: number }> => {
      const first = await pass(k);
      const second = await pass(k);
      return second.qps > first.qps ? second : first;
    };
    const { results: results10, qps: qps10 } = await best(10);
    const { results: results100, qps: qps100 } = await best(100);
    rows.push(row(set, 'galene ann (usearch f32)', buildS, NaN, fs.statSync(file).size / header.vectorCount, ef, { recall10: recallAtK(results10, set.truth, 10), recall100: recallAtK(results100, set.truth, 100), qps10, qps100 }));
  }
  // Filtered TopN (k=10, ef 32) at several selectivities through the engine's filtered search.
  for (const fraction of [0.5, 0.1, 0.01, 0.001]) {
    const bitmap = new Uint8Array((count + 7) >> 3);
    for (let r = 0; r < count; r++) if (((r * 2654435761) >>> 0) / 4294967296 < fraction) bitmap[r >> 3] |= 1 << (r & 7);
    const allowed = (r: number): boolean => (bitmap[r >> 3] & (1 << (r & 7))) !== 0;
    const truth: Int32Array[] = [];
    const got: ArrayLike<number>[] = [];
    let short = 0;
    const paths = new Set<string>();
    let elapsed = 0;
    for (let queryIdx = 0; queryIdx < set.truth.length; queryIdx++) {
      const query = queryAt(set, queryIdx);
      truth.push(exactTopK('l2_distance', set.base, set.dim, count, query, 10, allowed).positions);
      const begin = performance.now();
      const result = await searcher.search(query, 10, { allowed: bitmap });
      elapsed += performance.now() - begin;
      if (result.rows.length < 10) short++;
      paths.add(result.path);
      got.push(result.rows);
    }
    rows.push({ ...row(set, `galene filtered ${fraction * 100}% (${[...paths].join('+')})`, NaN, NaN, NaN, 32, { recall10: recallAtK(got, truth, 10), recall100: NaN, qps10: set.truth.length / (elapsed / 1000), qps100: NaN }), short_results: short });
  }
  reader.close();
  return rows;
}

function gather(set: DataSet, rows: Int32Array): Float32Array {
  const dim = set.dim;
  const out = new Float32Array(rows.length * dim);
  for (let idx = 0; idx < rows.length; idx++) {
    const from = rows[idx] * dim;
    const to = idx * dim;
    for (let d = 0; d < dim; d++) out[to + d] = set.base[from + d];
  }
  return out;
}

/** Exact k=100 per query: the engine's JS kernel vs usearch exactSearch (1 thread), ms per query. */
function exactRows(set: DataSet): Row[] {
  const count = set.base.length / set.dim;
  const queries = Math.min(20, set.truth.length);
  let start = performance.now();
  for (let queryIdx = 0; queryIdx < queries; queryIdx++) exactTopK('l2_distance', set.base, set.dim, count, queryAt(set, queryIdx), 100);
  const jsMs = (performance.now() - start) / queries;
  start = performance.now();
  for (let queryIdx = 0; queryIdx < queries; queryIdx++) exactSearch(set.base, queryAt(set, queryIdx), set.dim, 100, 'l2sq' as never, 1);
  const nativeMs = (performance.now() - start) / queries;
  return [
    { set: set.name, library: 'exact scan: galene JS kernel', ms_per_query_k100: jsMs, rows_per_ms: count / jsMs },
    { set: set.name, library: 'exact scan: usearch exactSearch 1 thread', ms_per_query_k100: nativeMs, rows_per_ms: count / nativeMs },
  ];
}

function row(set: DataSet, library: string, buildS: number, cores: number, bytesPerVector: number, ef: number, result: { recall10: number; recall100: number; qps10: number; qps100: number }): Row {
  const num = (value: number): number | string => (Number.isFinite(value) ? value : '');
  return {
    set: set.name,
    library,
    build_s: num(buildS),
    build_cores: num(cores),
    bytes_per_vector: num(Math.round(bytesPerVector)),
    ef,
    recall_at_10: num(Number(result.recall10.toFixed(3))),
    recall_at_100: num(Number(result.recall100.toFixed(3))),
    qps_1t_k10: num(Math.round(result.qps10)),
    qps_1t_k100: num(Math.round(result.qps100)),
  };
}

export async function main(args: string[]): Promise<void> {
  const options = parseBenchArgs(args);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-bench-ann-'));
  const efc = options.quick ? 100 : 200;
  const sets = options.quick ? [makeDataSet(10_000, 100, 128), makeDataSet(4_000, 100, 768)] : [makeDataSet(200_000, 1000, 128), makeDataSet(50_000, 1000, 768)];
  const rows: Row[] = [];
  const exact: Row[] = [];
  try {
    for (const set of sets) {
      console.error(`${set.name}: usearch f32 / f16, hnswlib-node, galene layer (M=${M}, ef_construction=${efc})`);
      rows.push(...usearchRows(set, 'f32', efc, dir), ...usearchRows(set, 'f16', efc, dir));
      // e4m3 (usearch's 8-bit float, a candidate for sq8) has no SIMD kernel here: its build takes 10-20x
      // longer, so it is measured only on request (GALENE_BENCH_E4M3=1).
      if (process.env.GALENE_BENCH_E4M3 === '1') rows.push(...usearchRows(set, 'e4m3', efc, dir));
      rows.push(...hnswlibRows(set, efc, dir));
      rows.push(...(await galeneRows(set, efc, dir)));
      exact.push(...exactRows(set));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  report(`ann-libraries${options.quick ? ' (quick)' : ''}: M=${M}, ef_construction=${efc}, peak RSS ${peakRssMiB(process.pid)} MiB`, rows, { ...options, jsonFile: null });
  report('exact scan, k=100', exact, { ...options, jsonFile: null });
  if (options.jsonFile) fs.writeFileSync(options.jsonFile, JSON.stringify([...rows, ...exact], null, 2) + '\n');
}
