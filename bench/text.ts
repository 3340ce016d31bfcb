/**
 * The full-text benchmark of issue 12 ("Speed"): a seeded corpus of 1,000,000 short documents (--quick:
 * 100,000; bench/lib/text-data.ts: Zipf vocabulary of 50,000 words, terms and phrases planted at known
 * document frequencies, a tag, a 32-dim embedding from bench/lib/vector-data.ts), generated chunk by chunk
 * and loaded by Stream Load (tab-separated CSV, the text enclosed in double quotes) into
 *
 *   CREATE TABLE docs (id BIGINT, tag VARCHAR(16), text STRING, embedding ARRAY<FLOAT>,
 *     INDEX idx_text(text) USING INVERTED PROPERTIES("parser"="english","support_phrase"="true"),
 *     INDEX idx_embedding(embedding) USING ANN PROPERTIES(... "dim"="32"))
 *
 * and, as the load peer, the same rows into `docs_plain` without any index. Then:
 *
 * - load: time and rows/s with and without the indexes, inverted-index bytes vs text bytes;
 * - match: MATCH_ANY / MATCH_ALL / MATCH_PHRASE on rare, medium and common planted terms (count(*), checked
 *   against the planted count), against the same predicate written with LIKE (a full scan) and against the
 *   same MATCH with `SET enable_inverted_index_query = false` (row by row), in the same run, with ratios;
 * - bm25: `SELECT id, score() ... ORDER BY score() DESC LIMIT 10` latency beside the bare MATCH count;
 * - hybrid: `WHERE text MATCH_ANY 'term' ORDER BY l2_distance_approximate(embedding, ?) LIMIT 10` at terms
 *   matching 10%, 1% and 0.1% of the rows: recall@10 against the exact top 10 over the matching rows,
 *   QPS, and the fewest rows a query returned.
 *
 * A feature this build lacks (the MATCH functions, score(), the approximate distance, the inverted file)
 * prints "n/a (not on this build)" with the server's message in the notes, never a number.
 *
 *   npm run bench -- text [--quick] [--json FILE] [--rows N] [--batch ROWS] [--runs N]
 *     [--hybrid-queries N] [--phases load,match,bm25,hybrid] [--no-peer-load]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as mysql from 'mysql2/promise';
import { exactTopK } from '../src/storage/ann/exact-scan';
import { indexFilesUnder, startGalene, type GaleneProcess } from '../test/helpers/galene-process';
import { currentRssMiB, takeOptions } from './lib/latency';
import { parseBenchArgs, peakRssMiB, report, Row, timeMedian, type BenchOptions } from './lib/report';
import { hasPhrase, hasPlanted, PLANTED_PHRASES, plantedTerm, TextCorpus } from './lib/text-data';
import { GaussianMixture, quantizeVectors, recallAtK, StreamingTopK, vectorText, writeVectorText } from './lib/vector-data';
import { streamLoad } from './streamload';
import { sqlPass } from './vector';

const SEED = 12;
const DIM = 32;
const DECIMALS = 4;
const K = 10;
const NA = 'n/a (not on this build)';
const PHASES = ['load', 'match', 'bm25', 'hybrid'] as const;
type Phase = (typeof PHASES)[number];

interface Config {
  readonly quick: boolean;
  readonly rows: number;
  readonly batch: number;
  readonly runs: number;
  readonly hybridQueries: number;
  readonly phases: Set<Phase>;
  readonly peerLoad: boolean;
}

function parseConfig(args: readonly string[]): { config: Config; options: BenchOptions } {
  const flags = ['--no-peer-load'];
  const { values, rest } = takeOptions(args.filter((arg) => !flags.includes(arg)), ['rows', 'batch', 'runs', 'hybrid-queries', 'phases']);
  const options = parseBenchArgs(rest);
  const phases = new Set<Phase>();
  for (const name of (values.get('phases') ?? PHASES.join(',')).split(',')) {
    if (!(PHASES as readonly string[]).includes(name)) throw new Error(`unknown phase ${name} (phases: ${PHASES.join(', ')})`);
    phases.add(name as Phase);
  }
  const quick = options.quick;
  return {
    options,
    config: {
      quick,
      rows: Number(values.get('rows') ?? (quick ? 100_000 : 1_000_000)),
      batch: Number(values.get('batch') ?? 50_000),
      runs: Number(values.get('runs') ?? (quick ? 3 : 7)),
      hybridQueries: Number(values.get('hybrid-queries') ?? (quick ? 20 : 100)),
      phases,
      peerLoad: !args.includes('--no-peer-load'),
    },
  };
}

/** The run's notes; failures grouped by the server's message (a missing feature fails every query alike). */
class Notes {
  private readonly lines: string[] = [];
  private readonly failures = new Map<string, string[]>();

  push(...lines: string[]): void {
    this.lines.push(...lines);
  }

  failed(what: string, message: string): void {
    const key = message.slice(0, 160);
    this.failures.set(key, [...(this.failures.get(key) ?? []), what]);
  }

  all(): string[] {
    return [...this.lines, ...[...this.failures].map(([message, whats]) => `failed (${message}): ${whats.join('; ')}`)];
  }
}

/** One MATCH measured against its LIKE form: which documents it should match, by id. */
interface MatchCase {
  readonly op: 'MATCH_ANY' | 'MATCH_ALL' | 'MATCH_PHRASE';
  readonly terms: string;
  readonly frequency: 'rare' | 'medium' | 'common';
  readonly like: string;
  readonly expect: (id: number) => boolean;
}

const term = (word: string): ((id: number) => boolean) => {
  const planted = plantedTerm(word);
  return (id) => hasPlanted(id, planted.rate, planted.salt);
};

function matchCases(): MatchCase[] {
  const anyCase = (word: string, frequency: MatchCase['frequency']): MatchCase => ({ op: 'MATCH_ANY', terms: word, frequency, like: `text LIKE '%${word}%'`, expect: term(word) });
  const allCase = (first: string, second: string, frequency: MatchCase['frequency']): MatchCase => {
    const [a, b] = [term(first), term(second)];
    return { op: 'MATCH_ALL', terms: `${first} ${second}`, frequency, like: `text LIKE '%${first}%' AND text LIKE '%${second}%'`, expect: (id) => a(id) && b(id) };
  };
  const phraseCase = (phraseIdx: number, frequency: MatchCase['frequency']): MatchCase => {
    const phrase = PLANTED_PHRASES[phraseIdx];
    const words = phrase.words.join(' ');
    return { op: 'MATCH_PHRASE', terms: words, frequency, like: `text LIKE '%${words}%'`, expect: (id) => hasPhrase(phrase, id) };
  };
  return [
    anyCase('qirrafen', 'rare'),
    anyCase('qemtuvo', 'medium'),
    anyCase('qandoril', 'common'),
    allCase('qolvarin', 'qesolta', 'rare'),
    allCase('qemtuvo', 'qesolta', 'medium'),
    allCase('qandoril', 'qesolta', 'common'),
    phraseCase(0, 'rare'),
    phraseCase(1, 'medium'),
    phraseCase(2, 'common'),
  ];
}

/** Hybrid text filters: planted terms matching about 10%, 1% and 0.1% of the rows. */
const HYBRID_TERMS = ['qandoril', 'qemtuvo', 'qolvarin'];
/** BM25 TopN queries: one planted term, and two together. */
const BM25_QUERIES = ['qemtuvo', 'qandoril', 'qemtuvo qandoril'];

interface Loaded {
  readonly counts: number[];
  /** Per hybrid term: the exact top 10 of each query among the rows holding it. */
  readonly truths: Int32Array[][];
  readonly queries: Float32Array;
  readonly rows: Row[];
  readonly notes: string[];
}

const TABLE_COLUMNS = 'id BIGINT NOT NULL, tag VARCHAR(16) NOT NULL, text STRING NOT NULL, embedding ARRAY<FLOAT> NOT NULL';
const TABLE_TAIL = 'DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1';

/** One Stream Load body: `id \t tag \t "text" \t [vector]` lines; also the text bytes in it. */
function csvBody(corpus: TextCorpus, vectors: Float32Array, first: number, count: number): { body: Buffer; textBytes: number } {
  const out = Buffer.allocUnsafe(count * (DIM * (DECIMALS + 12) + 600));
  let pos = 0;
  let textBytes = 0;
  for (let row = 0; row < count; row++) {
    const id = first + row;
    const text = corpus.document(id);
    textBytes += text.length;
    pos += out.write(`${id}\t${corpus.tag(id)}\t"${text}"\t`, pos, 'latin1');
    pos = writeVectorText(out, pos, vectors, row * DIM, DIM, DECIMALS);
    out[pos++] = 0x0a;
  }
  return { body: out.subarray(0, pos), textBytes };
}

/**
 * Index files of `indexName` of the table's live rowsets (`<txn>_<n>.<indexName>.idx` with a `txn` that
 * information_schema.rowsets lists) and their bytes: the files of segments compaction replaced stay on
 * disk for a grace period (queries may still read them) and are not the table's.
 */
function indexFiles(dataDir: string, indexName: string, liveTxns: ReadonlySet<number>): { files: number; bytes: number } {
  const files = indexFilesUnder(dataDir).filter((file) => {
    const match = new RegExp(`(\\d+)_\\d+\\.${indexName}\\.idx$`).exec(file);
    return match !== null && liveTxns.has(Number(match[1]));
  });
  return { files: files.length, bytes: files.reduce((sum, file) => sum + fs.statSync(file).size, 0) };
}

async function loadCorpus(server: GaleneProcess, conn: mysql.Connection, config: Config): Promise<Loaded> {
  const notes: string[] = [];
  await conn.query(`CREATE TABLE docs (${TABLE_COLUMNS},
    INDEX idx_text(text) USING INVERTED PROPERTIES("parser"="english", "support_phrase"="true"),
    INDEX idx_embedding(embedding) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="l2_distance", "dim"="${DIM}", "max_degree"="16", "ef_construction"="64"))
    ${TABLE_TAIL}`);
  if (config.peerLoad) await conn.query(`CREATE TABLE docs_plain (${TABLE_COLUMNS}) ${TABLE_TAIL}`);
  const corpus = new TextCorpus(SEED);
  const mixture = new GaussianMixture(DIM, SEED);
  const queries = mixture.sample(config.hybridQueries, SEED + 2);
  quantizeVectors(queries, DECIMALS);
  const cases = matchCases();
  const counts = new Array<number>(cases.length).fill(0);
  const hybridAccept = HYBRID_TERMS.map(term);
  const mergers = HYBRID_TERMS.map(() => new StreamingTopK(config.hybridQueries, K));
  const headers = { Connection: 'close', enclose: '"' };
  let textBytes = 0;
  let loadMs = 0;
  let plainMs = 0;
  let requests = 0;
  let serverPeak = 0;
  for (let first = 0, chunkIdx = 0; first < config.rows; first += config.batch, chunkIdx++) {
    const count = Math.min(config.batch, config.rows - first);
    const vectors = mixture.sample(count, SEED + 1000 + chunkIdx);
    quantizeVectors(vectors, DECIMALS);
    const { body, textBytes: bytes } = csvBody(corpus, vectors, first, count);
    textBytes += bytes;
    let start = performance.now();
    const result = await streamLoad(server.ports.webserver_port, 'bench', 'docs', body, 'csv', headers);
    loadMs += performance.now() - start;
    requests++;
    if (result.Status !== 'Success' || result.NumberLoadedRows !== count) throw new Error(`stream load of rows ${first}..${first + count - 1} failed: ${result.Message ?? result.Status} (${result.NumberLoadedRows} rows)`);
    serverPeak = Math.max(serverPeak, currentRssMiB(server.child.pid!));
    if (config.peerLoad) {
      start = performance.now();
      const plain = await streamLoad(server.ports.webserver_port, 'bench', 'docs_plain', body, 'csv', headers);
      plainMs += performance.now() - start;
      if (plain.Status !== 'Success') throw new Error(`stream load into docs_plain failed: ${plain.Message ?? plain.Status}`);
    }
    for (let row = 0; row < count; row++) for (let caseIdx = 0; caseIdx < cases.length; caseIdx++) if (cases[caseIdx].expect(first + row)) counts[caseIdx]++;
    for (let termIdx = 0; termIdx < HYBRID_TERMS.length; termIdx++) {
      for (let queryIdx = 0; queryIdx < config.hybridQueries; queryIdx++) {
        const hits = exactTopK('l2_distance', vectors, DIM, count, queries.subarray(queryIdx * DIM, (queryIdx + 1) * DIM), K, (pos) => hybridAccept[termIdx](first + pos));
        mergers[termIdx].add(queryIdx, hits.positions.map((pos) => first + pos), hits.keys, hits.positions.length);
      }
    }
    process.stderr.write(`text: loaded ${first + count} rows (load ${Math.round(loadMs / 1000)} s${config.peerLoad ? `, without indexes ${Math.round(plainMs / 1000)} s` : ''})\n`);
  }
  // Only docs has index files: the live transactions of every table's rowsets are enough to tell its live files.
  const [txnRows] = await conn.query({ sql: 'SELECT TXN_ID FROM information_schema.rowsets', rowsAsArray: true });
  const liveTxns = new Set((txnRows as unknown[][]).map(([txn]) => Number(txn)));
  const inverted = indexFiles(server.dataDir, 'idx_text', liveTxns);
  const ann = indexFiles(server.dataDir, 'idx_embedding', liveTxns);
  if (inverted.files === 0) notes.push('no inverted index files (*.idx_text.idx) were written: the inverted-index build is not on this build');
  const rowsPerS = (ms: number): number => Math.round(config.rows / (ms / 1000));
  const rows: Row[] = [
    {
      table: 'docs (inverted + ANN indexes)',
      rows: config.rows,
      requests,
      seconds: loadMs / 1000,
      rows_per_s: rowsPerS(loadMs),
      text_mib: textBytes / 2 ** 20,
      inverted_files: inverted.files,
      inverted_mib: inverted.files ? inverted.bytes / 2 ** 20 : NA,
      inverted_over_text: inverted.files ? inverted.bytes / textBytes : NA,
      ann_mib: ann.bytes / 2 ** 20,
      peak_rss_mib: serverPeak,
    },
  ];
  if (config.peerLoad) rows.push({ table: 'docs_plain (no index)', rows: config.rows, requests, seconds: plainMs / 1000, rows_per_s: rowsPerS(plainMs), text_mib: textBytes / 2 ** 20, inverted_files: 0, inverted_mib: '', inverted_over_text: '', ann_mib: '', peak_rss_mib: '' });
  notes.push(`index size target (inverted <= 50% of the text bytes): ${inverted.files ? (inverted.bytes <= textBytes / 2 ? 'met' : 'missed') : NA}`);
  return { counts, truths: mergers.map((merger) => merger.truth()), queries, rows, notes };
}

/** Median ms of `sql` and the count it returned, or the server's message when it fails. */
async function timeCount(conn: mysql.Connection, sql: string, runs: number): Promise<{ ms: number; count: number } | { error: string }> {
  let count = -1;
  try {
    const ms = await timeMedian(runs, async () => {
      const [rows] = await conn.query({ sql, rowsAsArray: true });
      count = Number((rows as unknown[][])[0][0]);
    });
    return { ms, count };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** Inverted-index counters of the last query's profile, as `name=value` (empty when the build has none). */
async function invertedCounters(conn: mysql.Connection): Promise<string> {
  try {
    const [[first]] = (await conn.query({ sql: 'SHOW QUERY PROFILE "/"', rowsAsArray: true }))[0] as unknown[][];
    const [counters] = await conn.query({ sql: `SHOW QUERY PROFILE "/${String(first)}"`, rowsAsArray: true });
    return (counters as unknown[][])
      .filter(([name]) => /inverted/i.test(String(name)))
      .map(([name, value]) => `${String(name)}=${String(value)}`)
      .join(', ');
  } catch {
    return '';
  }
}

async function matchRows(conn: mysql.Connection, loaded: Loaded, config: Config, notes: Notes): Promise<Row[]> {
  const rows: Row[] = [];
  const cases = matchCases();
  for (let caseIdx = 0; caseIdx < cases.length; caseIdx++) {
    const matchCase = cases[caseIdx];
    const expected = loaded.counts[caseIdx];
    const matchSql = `SELECT count(*) FROM docs WHERE text ${matchCase.op} '${matchCase.terms}'`;
    const indexed = await timeCount(conn, matchSql, config.runs);
    const counters = 'ms' in indexed ? await invertedCounters(conn) : '';
    await conn.query('SET enable_inverted_index_query = false');
    const rowByRow = await timeCount(conn, matchSql, config.runs);
    await conn.query('SET enable_inverted_index_query = true');
    const like = await timeCount(conn, `SELECT count(*) FROM docs WHERE ${matchCase.like}`, config.runs);
    for (const [name, result] of [['indexed', indexed], ['row by row', rowByRow], ['LIKE', like]] as const) {
      if ('error' in result) notes.failed(`${matchCase.op} '${matchCase.terms}' ${name}`, result.error);
      else if (result.count !== expected) notes.push(`WRONG COUNT: ${matchCase.op} '${matchCase.terms}' ${name} returned ${result.count}, ${expected} documents hold it`);
    }
    if (counters) notes.push(`${matchCase.op} '${matchCase.terms}' profile: ${counters}`);
    const ms = (result: typeof indexed): number | string => ('ms' in result ? result.ms : NA);
    const ratio = (slow: typeof indexed): number | string => ('ms' in indexed && 'ms' in slow ? slow.ms / indexed.ms : NA);
    rows.push({
      operator: matchCase.op,
      terms: matchCase.terms,
      frequency: matchCase.frequency,
      matching_rows: expected,
      indexed_ms: ms(indexed),
      indexed_qps: 'ms' in indexed ? Math.round(1000 / indexed.ms) : NA,
      row_by_row_ms: ms(rowByRow),
      like_ms: ms(like),
      like_over_indexed: ratio(like),
      row_by_row_over_indexed: ratio(rowByRow),
    });
  }
  const rare = rows.find((row) => row.operator === 'MATCH_ANY' && row.frequency === 'rare');
  if (rare) notes.push(`rare-term target (indexed MATCH_ANY >= 50x faster than LIKE): ${typeof rare.like_over_indexed === 'number' ? `${rare.like_over_indexed.toFixed(1)}x, ${rare.like_over_indexed >= 50 ? 'met' : 'missed'}` : NA}`);
  return rows;
}

async function bm25Rows(conn: mysql.Connection, config: Config, notes: Notes): Promise<Row[]> {
  const rows: Row[] = [];
  for (const terms of BM25_QUERIES) {
    const filter = await timeCount(conn, `SELECT count(*) FROM docs WHERE text MATCH_ANY '${terms}'`, config.runs);
    let topn: { ms: number; rows: number } | { error: string };
    try {
      let returned = 0;
      const sql = `SELECT id, score() AS s FROM docs WHERE text MATCH_ANY '${terms}' ORDER BY s DESC LIMIT ${K}`;
      const ms = await timeMedian(config.runs, async () => {
        const [result] = await conn.query({ sql, rowsAsArray: true });
        returned = (result as unknown[][]).length;
      });
      topn = { ms, rows: returned };
    } catch (err) {
      topn = { error: (err as Error).message };
      notes.failed(`score() on '${terms}'`, topn.error);
    }
    rows.push({
      query: `MATCH_ANY '${terms}' ORDER BY score() DESC LIMIT ${K}`,
      matching_rows: 'count' in filter ? filter.count : NA,
      topn_ms: 'ms' in topn ? topn.ms : NA,
      topn_rows: 'rows' in topn ? topn.rows : NA,
      match_count_ms: 'ms' in filter ? filter.ms : NA,
      topn_over_count: 'ms' in topn && 'ms' in filter ? topn.ms / filter.ms : NA,
    });
  }
  return rows;
}

async function hybridRows(conn: mysql.Connection, loaded: Loaded, config: Config, notes: Notes): Promise<Row[]> {
  const zero = vectorText(new Float32Array(DIM), DECIMALS);
  let fn = 'l2_distance_approximate';
  try {
    await conn.query(`SELECT id FROM docs ORDER BY l2_distance_approximate(embedding, ${zero}) LIMIT 1`);
  } catch (err) {
    notes.push(`l2_distance_approximate is not available (${(err as Error).message.slice(0, 120)}): hybrid measured with l2_distance (exact)`);
    fn = 'l2_distance';
  }
  const texts = Array.from({ length: config.hybridQueries }, (_, queryIdx) => vectorText(loaded.queries.subarray(queryIdx * DIM, (queryIdx + 1) * DIM), DECIMALS));
  const rows: Row[] = [];
  let met = true;
  for (let termIdx = 0; termIdx < HYBRID_TERMS.length; termIdx++) {
    const word = HYBRID_TERMS[termIdx];
    // The peer: the same TopN behind the LIKE form of the filter (a full scan of the text).
    for (const filter of [`text MATCH_ANY '${word}'`, `text LIKE '%${word}%'`]) {
      const sql = `SELECT id FROM docs WHERE ${filter} ORDER BY ${fn}(embedding, ?) LIMIT ${K}`;
      const row: Row = { filter, selectivity: `${plantedTerm(word).rate * 100}%`, distance: fn, k: K };
      const isMatch = filter.includes('MATCH_ANY');
      try {
        const pass = await sqlPass(conn, sql, (queryIdx) => [texts[queryIdx]], config.hybridQueries);
        const recall = recallAtK(pass.results, loaded.truths[termIdx], K);
        if (isMatch) met &&= recall >= 0.95 && pass.minRows >= K;
        rows.push({ ...row, recall_at_10: recall, qps: Math.round(pass.qps), min_rows: pass.minRows, queries_short_of_limit: pass.short });
      } catch (err) {
        notes.failed(`hybrid ${filter}`, (err as Error).message);
        if (isMatch) met = false;
        rows.push({ ...row, recall_at_10: NA, qps: NA, min_rows: NA, queries_short_of_limit: NA });
      }
    }
  }
  notes.push(`hybrid target (recall@10 >= 0.95 and never fewer than ${K} rows at every selectivity): ${met ? 'met' : rows.some((row) => row.qps === NA && String(row.filter).includes('MATCH')) ? NA : 'missed'}`);
  return rows;
}

const TITLES: Record<string, string> = {
  load: 'load (Stream Load; index build at flush) and index size',
  match: 'MATCH count(*): indexed vs row by row (enable_inverted_index_query=false) vs LIKE',
  bm25: 'BM25 TopN (score())',
  hybrid: `hybrid TopN (MATCH_ANY filter + ANN, k=${K})`,
};

export async function main(args: string[]): Promise<void> {
  const { config, options } = parseConfig(args);
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-bench-text-'));
  const tables: Record<string, Row[]> = { load: [], match: [], bm25: [], hybrid: [] };
  const notes = new Notes();
  notes.push(`${config.rows} documents, ${config.runs} timed runs per query (median, after one warm-up), ${config.hybridQueries} hybrid queries; load average at start ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}; ${os.availableParallelism()} cores`);
  const server = await startGalene({ dataDir: path.join(workDir, 'galene') });
  const conn = await mysql.createConnection({ host: '127.0.0.1', port: server.ports.query_port, user: 'root', password: '' });
  try {
    await conn.query('CREATE DATABASE bench');
    await conn.query('USE bench');
    const loaded = await loadCorpus(server, conn, config);
    notes.push(...loaded.notes);
    if (config.phases.has('load')) tables.load.push(...loaded.rows);
    if (config.phases.has('match')) tables.match.push(...(await matchRows(conn, loaded, config, notes)));
    if (config.phases.has('bm25')) tables.bm25.push(...(await bm25Rows(conn, config, notes)));
    if (config.phases.has('hybrid')) tables.hybrid.push(...(await hybridRows(conn, loaded, config, notes)));
    notes.push(`server peak RSS ${peakRssMiB(server.child.pid!)} MiB; bench peak RSS ${peakRssMiB(process.pid)} MiB; load average at end ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  } catch (err) {
    console.error(`server stderr (last lines):\n${server.stderr().split('\n').slice(-30).join('\n')}`);
    throw err;
  } finally {
    await conn.end().catch(() => undefined);
    await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  for (const note of notes.all()) console.log(note);
  const print = { ...options, jsonFile: null };
  for (const [name, rows] of Object.entries(tables)) if (rows.length) report(`text${config.quick ? ' (quick)' : ''}: ${TITLES[name]}`, rows, print);
  if (options.jsonFile) fs.writeFileSync(options.jsonFile, JSON.stringify(Object.entries(tables).flatMap(([name, rows]) => rows.map((row) => ({ table: name, ...row }))), null, 2) + '\n');
}
