/**
 * Reading one segment's inverted-index file (inverted-file.ts) and answering InvertedQuery as a RowSet of
 * the segment's rows.
 *
 * `open` reads the file's tail once through the FileOpener (the FileCache path every segment read takes):
 * trailer, footer, block index and null rows. A query then reads only the dictionary blocks it needs
 * (binary search over the block index; prefix and range scans walk consecutive blocks; MATCH_REGEXP and
 * the suffix side of MATCH_PHRASE_EDGE walk all of them) and the term data of the terms it uses. Blocks
 * are kept decoded for the reader's life. Every section's checksum is verified before it is used.
 *
 * MATCH texts are parsed and analyzed with the analyzer recorded in the file; phrase-like queries take
 * the rows that hold a term of every query slot, then test each of them with the row-level semantics
 * (`matchesTokens`) on the row's tokens of those terms, so the index and the row-by-row functions agree.
 *
 * Also exposes the BM25 statistics (docCount, avgDocLength, docFreq, per-row tf and length).
 */
import type { RawValue } from '../../common/column';
import { GaleneError } from '../../common/errors';
import type { ProfileSink } from '../../common/profile';
import type { FileOpener, RandomAccessFile } from '../../io/file-cache';
import { ByteReader } from '../encoding/byte-buffer';
import { unpackBits } from '../encoding/bit-pack';
import { crc32 } from '../checksum';
import type { AnalyzerConfig } from './analyzer';
import { analyzeTerms } from './analyzer';
import type { MatchQuery } from './match-semantics';
import { MATCH_OPS, matchQuery, positionsMatch, slotCount, slotMatcher } from './match-semantics';
import type { InvertedFooter, KeyKind } from './inverted-file';
import { checkedSection, compareBytes, corrupt, decodeFooter, decodeTrailer, encodeKey, INVERTED_TRAILER_BYTES, SMALL_POSTINGS } from './inverted-file';
import type { InvertedQuery, InvertedQueryOptions } from './inverted-query';
import { DEFAULT_MAX_EXPANSIONS } from './inverted-query';
import { RowSet } from './row-set';

/** Bytes read from the tail on open: usually trailer, footer, block index and null rows in one read. */
export const INVERTED_TAIL_READ_BYTES = 64 * 1024;

const MATCH_OP_SET: ReadonlySet<string> = new Set(MATCH_OPS);

/** One term of the dictionary. */
export interface TermRef {
  readonly bytes: Uint8Array;
  readonly docFreq: number;
  readonly dataOffset: number;
  readonly postingsLength: number;
  readonly blobLength: number;
  readonly crc: number;
}

interface DictBlock {
  readonly terms: TermRef[];
}

/** A term's rows and, per row, its tf and positions (positions only when the file has them). */
interface TermOccurrences {
  readonly rows: Uint32Array;
  readonly tfs: Uint32Array;
  /** positions of row i: positions[starts[i] .. starts[i + 1]) */
  readonly starts: Uint32Array | null;
  readonly positions: Uint32Array | null;
}

const UTF8 = new TextDecoder('utf-8');
const UTF8_ENCODER = new TextEncoder();

export interface InvertedOpenOptions {
  /** The file's size from the segment's record (saves a HEAD on remote stores). */
  readonly knownSize?: number;
}

export class InvertedIndexReader {
  private readonly blocks = new Map<number, DictBlock>();

  private constructor(
    private readonly file: RandomAccessFile,
    readonly footer: InvertedFooter,
    private readonly blockFirst: readonly Uint8Array[],
    private readonly blockOffset: readonly number[],
    private readonly blockSize: readonly number[],
    private readonly blockTermCount: readonly number[],
    private readonly nullRows: RowSet,
    private readonly profile: ProfileSink,
    /** The bytes read on open, file offsets tailStart..size: later reads inside it are served from memory. */
    private readonly tail: Uint8Array,
    private readonly tailStart: number,
  ) {}

  /** Open the index object `key`: one read of its tail (two when the tail sections are large). */
  static async open(opener: FileOpener, key: string, profile: ProfileSink, options: InvertedOpenOptions = {}): Promise<InvertedIndexReader> {
    const started = performance.now();
    const file = await opener.open(key, profile, options.knownSize);
    if (file.size < INVERTED_TRAILER_BYTES) corrupt(key, 'file shorter than its trailer');
    const tailLength = Math.min(file.size, INVERTED_TAIL_READ_BYTES);
    let tail = await readCounted(file, file.size - tailLength, tailLength, profile);
    let tailStart = file.size - tailLength;
    const { footerLength, footerCrc } = decodeTrailer(tail.subarray(tail.length - INVERTED_TRAILER_BYTES), file.size, key);
    const footerStart = file.size - INVERTED_TRAILER_BYTES - footerLength;
    const needFrom = (offset: number): Promise<void> | void => {
      if (offset >= tailStart) return;
      return readCounted(file, offset, file.size - offset, profile).then((bytes) => {
        tail = bytes;
        tailStart = offset;
      });
    };
    await needFrom(footerStart);
    const footer = decodeFooter(tail.subarray(footerStart - tailStart, footerStart - tailStart + footerLength), footerCrc, file.size, key);
    await needFrom(Math.min(footer.blockIndex.offset, footer.nulls.offset));
    const section = (region: { offset: number; size: number }, name: string): Uint8Array => checkedSection(tail.subarray(region.offset - tailStart, region.offset - tailStart + region.size), key, name);
    const index = new ByteReader(section(footer.blockIndex, 'block index'), `inverted index ${key}: block index`);
    const first: Uint8Array[] = [];
    const offsets: number[] = [];
    const sizes: number[] = [];
    const counts: number[] = [];
    for (let blockIdx = 0; blockIdx < footer.blockCount; blockIdx++) {
      first.push(index.bytes(index.varint()));
      offsets.push(index.varint());
      sizes.push(index.varint());
      counts.push(index.varint());
    }
    let nulls: RowSet;
    try {
      nulls = RowSet.deserialize(section(footer.nulls, 'null rows'));
    } catch (err) {
      if (err instanceof GaleneError) throw err;
      return corrupt(key, 'null rows are not a valid bitmap');
    }
    const reader = new InvertedIndexReader(file, footer, first, offsets, sizes, counts, nulls, profile, tail, tailStart);
    profile.add('InvertedIndexSearcherOpenTime', performance.now() - started);
    return reader;
  }

  get key(): string {
    return this.file.key;
  }

  get numRows(): number {
    return this.footer.numRows;
  }

  get analyzer(): AnalyzerConfig {
    return this.footer.analyzer;
  }

  // ---- BM25 statistics ----

  /** Rows with a non-NULL value. */
  get docCount(): number {
    return this.footer.docCount;
  }

  /** Average tokens per non-NULL row. */
  get avgDocLength(): number {
    return this.footer.docCount === 0 ? 0 : this.footer.totalTokens / this.footer.docCount;
  }

  /** The query text's terms as this index analyzes them (score() looks each up). */
  queryTerms(text: string): string[] {
    return [...new Set(analyzeTerms(text, this.analyzer))];
  }

  /** Rows holding `term` (an analyzed term). */
  async docFreq(term: string, profile: ProfileSink = this.profile): Promise<number> {
    return (await this.findTerm(UTF8_ENCODER.encode(term), profile))?.docFreq ?? 0;
  }

  /** The rows holding `term` and its frequency in each (ascending rows). */
  async termFrequencies(term: string, profile: ProfileSink = this.profile): Promise<{ rows: Uint32Array; tfs: Uint32Array }> {
    const ref = await this.findTerm(UTF8_ENCODER.encode(term), profile);
    if (!ref) return { rows: new Uint32Array(0), tfs: new Uint32Array(0) };
    const occurrences = await this.occurrences(ref, profile);
    return { rows: occurrences.rows, tfs: occurrences.tfs };
  }

  /** Tokens per row (0 for NULL rows); tokenized indexes only. */
  async docLengths(profile: ProfileSink = this.profile): Promise<Uint32Array> {
    const region = this.footer.docLengths;
    if (!region) throw new GaleneError('INTERNAL', [`inverted index ${this.key}: no document lengths in an index without a parser`]);
    const body = new ByteReader(checkedSection(await this.read(region.offset, region.size, profile), this.key, 'doc lengths'), `inverted index ${this.key}: doc lengths`);
    const width = body.u8();
    const words = body.typed(Uint32Array, Math.ceil((this.numRows * width) / 32));
    return unpackBits(words, this.numRows, width, new Uint32Array(this.numRows));
  }

  // ---- queries ----

  /** Can this index answer `q`? (Comparisons need an index without a parser; MATCH needs a text index.) */
  supports(q: InvertedQuery): boolean {
    const { keyKind, analyzer, isArray } = this.footer;
    if (q.op === 'is_null' || q.op === 'is_not_null') return true;
    if (MATCH_OP_SET.has(q.op)) return keyKind === 'text';
    const exactValues = analyzer.parser === 'none' && !(keyKind === 'text' && analyzer.lowerCase);
    if (q.op === 'array_contains') return exactValues && isArray;
    return exactValues && !isArray;
  }

  /** The rows of the segment that satisfy `q`, as a RowSet (NULL rows never match, except IS NULL). */
  async query(q: InvertedQuery, options: InvertedQueryOptions & { readonly profile?: ProfileSink } = {}): Promise<RowSet> {
    const profile = options.profile ?? this.profile;
    const started = performance.now();
    try {
      if (!this.supports(q)) throw new GaleneError('INTERNAL', [`inverted index ${this.key} (${this.footer.analyzer.parser}, ${this.footer.keyKind}) cannot answer ${q.op}`]);
      return await this.answer(q, options.maxExpansions ?? DEFAULT_MAX_EXPANSIONS, profile);
    } finally {
      profile.add('InvertedIndexQueryTime', performance.now() - started);
    }
  }

  private nonNullRows(): RowSet {
    return RowSet.range(0, this.numRows).andNot(this.nullRows);
  }

  private async answer(q: InvertedQuery, maxExpansions: number, profile: ProfileSink): Promise<RowSet> {
    switch (q.op) {
      case 'is_null':
        return this.nullRows;
      case 'is_not_null':
        return this.nonNullRows();
      case 'match_any':
      case 'match_all':
      case 'match_phrase':
      case 'match_phrase_prefix':
      case 'match_phrase_edge':
      case 'match_regexp':
        return this.match(matchQuery(q.op, q.text, this.analyzer), maxExpansions, profile);
      case '=':
      case 'array_contains':
        return this.equalRows(q.value, profile);
      case '!=':
        return this.nonNullRows().andNot(await this.equalRows(q.value, profile));
      case 'in':
        return RowSet.union(await Promise.all(q.values.map((value) => this.equalRows(value, profile))));
      case 'not_in':
        // x NOT IN (..., NULL, ...) is never true.
        if (q.values.some((value) => value === null)) return RowSet.empty();
        return this.nonNullRows().andNot(RowSet.union(await Promise.all(q.values.map((value) => this.equalRows(value, profile)))));
      case '<':
      case '<=':
      case '>':
      case '>=':
        return this.rangeRows(q.op, q.value, profile);
    }
  }

  /**
   * A MATCH query: the dictionary terms filling each slot (slotMatcher), their rows, then — for phrase
   * operators with more than one slot — each candidate row decided by positionsMatch on the positions
   * where each slot is filled, exactly as the row-by-row functions decide it from the row's tokens.
   */
  private async match(query: MatchQuery, maxExpansions: number, profile: ProfileSink): Promise<RowSet> {
    const slots = slotCount(query);
    if (slots === 0) return RowSet.empty();
    const slotRefs = await Promise.all(Array.from({ length: slots }, (_, slot) => this.slotTerms(query, slot, maxExpansions, profile)));
    const slotRows = await Promise.all(slotRefs.map((refs) => this.unionOf(refs, profile)));
    if (query.op === 'match_any' || query.op === 'match_regexp') return RowSet.union(slotRows);
    const candidates = RowSet.intersection(slotRows);
    if (query.op === 'match_all' || slots === 1 || candidates.isEmpty()) return candidates;
    if (!this.footer.hasPositions) throw new GaleneError('INVALID_ARGUMENT', ['phrase queries require setting support_phrase = true']);
    const occurrences = new Map<TermRef, TermOccurrences>();
    for (const refs of slotRefs) for (const ref of refs) if (!occurrences.has(ref)) occurrences.set(ref, await this.occurrences(ref, profile));
    // One cursor per (slot, term) walks the term's rows alongside the ascending candidates.
    const cursors = slotRefs.map((refs) => refs.map((ref) => ({ occurrences: occurrences.get(ref)!, next: 0 })));
    const matched: number[] = [];
    const rows = candidates.toArray();
    for (let candidateIdx = 0; candidateIdx < rows.length; candidateIdx++) {
      const row = rows[candidateIdx];
      const slotPositions = cursors.map((slotCursors) => {
        const positions: number[] = [];
        for (const cursor of slotCursors) {
          const { rows: termRows, starts, positions: all } = cursor.occurrences;
          while (cursor.next < termRows.length && termRows[cursor.next] < row) cursor.next++;
          if (cursor.next < termRows.length && termRows[cursor.next] === row) for (let posIdx = starts![cursor.next]; posIdx < starts![cursor.next + 1]; posIdx++) positions.push(all![posIdx]);
        }
        return slotCursors.length > 1 ? positions.sort((a, b) => a - b) : positions;
      });
      if (positionsMatch(query, slotPositions)) matched.push(row);
    }
    return RowSet.of(matched);
  }

  /**
   * The dictionary terms that fill `slot`: an exact term by lookup, a prefix (PHRASE_PREFIX's and
   * PHRASE_EDGE's last slot) by a scan of its run of terms, at most `maxExpansions` of them for
   * PHRASE_PREFIX (Doris's inverted_index_max_expansions); suffix, substring and regexp slots by a scan
   * of the whole dictionary.
   */
  private async slotTerms(query: MatchQuery, slot: number, maxExpansions: number, profile: ProfileSink): Promise<TermRef[]> {
    const fills = slotMatcher(query, slot);
    const last = slotCount(query) - 1;
    const out: TermRef[] = [];
    if (query.op !== 'match_regexp') {
      const wanted = query.tokens[slot].term;
      const key = UTF8_ENCODER.encode(wanted);
      const prefix = (query.op === 'match_phrase_prefix' && slot === last) || (query.op === 'match_phrase_edge' && last > 0 && slot === last);
      const scanned = query.op === 'match_phrase_edge' && (last === 0 || slot === 0);
      if (prefix) {
        const limit = query.op === 'match_phrase_prefix' ? maxExpansions : Infinity;
        await this.scanTerms(key, profile, (ref) => {
          if (!startsWith(ref.bytes, key)) return false;
          if (fills(UTF8.decode(ref.bytes))) out.push(ref);
          return out.length < limit;
        });
        return out;
      }
      if (!scanned) {
        const ref = await this.findTerm(key, profile);
        return ref && fills(wanted) ? [ref] : [];
      }
    }
    await this.scanTerms(null, profile, (ref) => {
      if (fills(UTF8.decode(ref.bytes))) out.push(ref);
      return true;
    });
    return out;
  }

  private async unionOf(refs: readonly TermRef[], profile: ProfileSink): Promise<RowSet> {
    return RowSet.union(await Promise.all(refs.map((ref) => this.postings(ref, profile))));
  }

  /** The term bytes of a comparison value, or null when no row can equal it. */
  private valueKey(value: RawValue): Uint8Array | null {
    if (value === null || typeof value === 'object') return null;
    const kind = this.footer.keyKind;
    if (kind === 'text') return UTF8_ENCODER.encode(String(value));
    const numeric = typeof value === 'string' ? Number(value) : value;
    if (typeof numeric === 'number' && Number.isNaN(numeric) && typeof value === 'string') return null;
    if (kind === 'int' && typeof numeric === 'number' && !Number.isInteger(numeric)) return null;
    return encodeKey(kind, numeric);
  }

  private async equalRows(value: RawValue, profile: ProfileSink): Promise<RowSet> {
    const key = this.valueKey(value);
    if (key === null) return RowSet.empty();
    const ref = await this.findTerm(key, profile);
    return ref ? this.postings(ref, profile) : RowSet.empty();
  }

  private async rangeRows(op: '<' | '<=' | '>' | '>=', value: RawValue, profile: ProfileSink): Promise<RowSet> {
    const bound = rangeBound(this.footer.keyKind, op, value);
    if (bound === null) return RowSet.empty();
    const refs: TermRef[] = [];
    if (bound.op === '<' || bound.op === '<=') {
      await this.scanTerms(null, profile, (ref) => {
        const cmp = compareBytes(ref.bytes, bound.key);
        if (cmp > 0 || (cmp === 0 && bound.op === '<')) return false;
        refs.push(ref);
        return true;
      });
    } else {
      await this.scanTerms(bound.key, profile, (ref) => {
        if (!(bound.op === '>' && compareBytes(ref.bytes, bound.key) === 0)) refs.push(ref);
        return true;
      });
    }
    return this.unionOf(refs, profile);
  }

  // ---- dictionary ----

  /** The last block whose first term is <= key (0 when key sorts before every block). */
  private blockFor(key: Uint8Array): number {
    let lo = 0;
    let hi = this.blockFirst.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (compareBytes(this.blockFirst[mid], key) <= 0) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private async block(blockIdx: number, profile: ProfileSink): Promise<DictBlock> {
    const cached = this.blocks.get(blockIdx);
    if (cached) return cached;
    const what = `inverted index ${this.key}: dictionary block ${blockIdx}`;
    const body = new ByteReader(checkedSection(await this.read(this.blockOffset[blockIdx], this.blockSize[blockIdx], profile), this.key, `dictionary block ${blockIdx}`), what);
    const count = body.varint();
    if (count !== this.blockTermCount[blockIdx]) body.fail(`holds ${count} terms, the block index says ${this.blockTermCount[blockIdx]}`);
    let dataOffset = body.varint();
    let prev: Uint8Array = new Uint8Array(0);
    const terms: TermRef[] = [];
    for (let termIdx = 0; termIdx < count; termIdx++) {
      const shared = body.varint();
      const suffix = body.bytes(body.varint());
      if (shared > prev.length) body.fail('bad front coding');
      const bytes = new Uint8Array(shared + suffix.length);
      bytes.set(prev.subarray(0, shared));
      bytes.set(suffix, shared);
      const docFreq = body.varint();
      const postingsLength = body.varint();
      const blobLength = body.varint();
      const crc = body.u32();
      terms.push({ bytes, docFreq, dataOffset, postingsLength, blobLength, crc });
      dataOffset += postingsLength + blobLength;
      prev = bytes;
    }
    const block = { terms };
    this.blocks.set(blockIdx, block);
    return block;
  }

  private async findTerm(key: Uint8Array, profile: ProfileSink): Promise<TermRef | null> {
    if (this.blockFirst.length === 0) return null;
    const { terms } = await this.block(this.blockFor(key), profile);
    let lo = 0;
    let hi = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareBytes(terms[mid].bytes, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo < terms.length && compareBytes(terms[lo].bytes, key) === 0 ? terms[lo] : null;
  }

  /** Visit terms in order from the first >= `from` (null: from the first term) until `visit` returns false. */
  private async scanTerms(from: Uint8Array | null, profile: ProfileSink, visit: (ref: TermRef) => boolean): Promise<void> {
    for (let blockIdx = from === null ? 0 : this.blockFor(from); blockIdx < this.blockFirst.length; blockIdx++) {
      const { terms } = await this.block(blockIdx, profile);
      for (const ref of terms) {
        if (from !== null && compareBytes(ref.bytes, from) < 0) continue;
        if (!visit(ref)) return;
      }
    }
  }

  // ---- term data ----

  /** Bytes of the file: from the tail read on open when inside it, else one ranged read. */
  private async read(offset: number, length: number, profile: ProfileSink): Promise<Uint8Array> {
    if (offset >= this.tailStart) return this.tail.subarray(offset - this.tailStart, offset - this.tailStart + length);
    return readCounted(this.file, offset, length, profile);
  }

  private async termData(ref: TermRef, profile: ProfileSink): Promise<{ postings: Uint8Array; blob: Uint8Array }> {
    const length = ref.postingsLength + ref.blobLength;
    const { termData } = this.footer;
    if (ref.dataOffset < termData.offset || ref.dataOffset + length > termData.offset + termData.size) corrupt(this.key, 'term data outside its section');
    const bytes = await this.read(ref.dataOffset, length, profile);
    if (crc32(bytes) !== ref.crc) corrupt(this.key, 'term data checksum mismatch');
    return { postings: bytes.subarray(0, ref.postingsLength), blob: bytes.subarray(ref.postingsLength) };
  }

  private decodePostings(ref: TermRef, postings: Uint8Array): RowSet {
    let rows: RowSet;
    if (ref.docFreq <= SMALL_POSTINGS) {
      const reader = new ByteReader(postings, `inverted index ${this.key}: postings`);
      const out = new Uint32Array(ref.docFreq);
      let row = 0;
      for (let rowIdx = 0; rowIdx < ref.docFreq; rowIdx++) out[rowIdx] = row += reader.varint();
      rows = RowSet.of(out);
    } else {
      try {
        rows = RowSet.deserialize(postings);
      } catch {
        return corrupt(this.key, 'postings are not a valid bitmap');
      }
    }
    if (rows.size !== ref.docFreq) corrupt(this.key, `postings hold ${rows.size} rows, the dictionary says ${ref.docFreq}`);
    return rows;
  }

  private async postings(ref: TermRef, profile: ProfileSink): Promise<RowSet> {
    const { postings } = await this.termData(ref, profile);
    return this.decodePostings(ref, postings);
  }

  private async occurrences(ref: TermRef, profile: ProfileSink): Promise<TermOccurrences> {
    const { postings, blob } = await this.termData(ref, profile);
    const rows = this.decodePostings(ref, postings).toArray();
    const tfs = new Uint32Array(rows.length).fill(1);
    if (blob.length === 0) {
      if (this.footer.hasPositions) corrupt(this.key, 'term without positions in an index with positions');
      return { rows, tfs, starts: null, positions: null };
    }
    const reader = new ByteReader(blob, `inverted index ${this.key}: positions`);
    const hasPositions = this.footer.hasPositions;
    let starts: Uint32Array | null = null;
    let positions: Uint32Array | null = null;
    if (rows.length <= SMALL_POSTINGS) {
      const collected: number[] = [];
      starts = hasPositions ? new Uint32Array(rows.length + 1) : null;
      for (let rowIdx = 0; rowIdx < rows.length; rowIdx++) {
        const tf = reader.varint();
        tfs[rowIdx] = tf;
        if (!starts) continue;
        let position = 0;
        for (let occurrence = 0; occurrence < tf; occurrence++) collected.push((position += reader.varint()));
        starts[rowIdx + 1] = collected.length;
      }
      if (starts) positions = Uint32Array.from(collected);
    } else {
      const tfWidth = reader.u8();
      const deltaWidth = reader.u8();
      unpackedBytes(reader, rows.length, tfWidth, tfs);
      let occurrences = 0;
      for (let rowIdx = 0; rowIdx < rows.length; rowIdx++) occurrences += ++tfs[rowIdx];
      if (hasPositions) {
        positions = unpackedBytes(reader, occurrences, deltaWidth, new Uint32Array(occurrences));
        starts = new Uint32Array(rows.length + 1);
        // Deltas to positions, row by row (the first of a row is absolute).
        let posIdx = 0;
        for (let rowIdx = 0; rowIdx < rows.length; rowIdx++) {
          const end = posIdx + tfs[rowIdx];
          for (let prev = 0; posIdx < end; posIdx++) prev = positions[posIdx] += prev;
          starts[rowIdx + 1] = end;
        }
      }
    }
    if (reader.pos !== blob.length) reader.fail('trailing bytes after the last row');
    return { rows, tfs, starts, positions };
  }
}

/** `count` values of `width` bits packed as whole bytes (inverted-writer packedBytes), into `out`. */
function unpackedBytes(reader: ByteReader, count: number, width: number, out: Uint32Array): Uint32Array {
  if (width > 32) reader.fail(`bit width ${width}`);
  const bytes = reader.bytes(Math.ceil((count * width) / 8));
  const words = new Uint32Array(Math.ceil((count * width) / 32));
  new Uint8Array(words.buffer).set(bytes);
  return unpackBits(words, count, width, out);
}

async function readCounted(file: RandomAccessFile, offset: number, length: number, profile: ProfileSink): Promise<Buffer> {
  profile.add('InvertedIndexBytesRead', length);
  return file.read(offset, length, profile, 'index');
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let byteIdx = 0; byteIdx < prefix.length; byteIdx++) if (bytes[byteIdx] !== prefix[byteIdx]) return false;
  return true;
}

/**
 * A range comparison as a bound on the term bytes. On an integer index a fractional bound rounds to
 * the integers it admits (`< 2.5` is `<= 2`, `> 2.5` is `>= 3`); NULL or a non-number admits nothing.
 */
function rangeBound(kind: KeyKind, op: '<' | '<=' | '>' | '>=', value: RawValue): { op: '<' | '<=' | '>' | '>='; key: Uint8Array } | null {
  if (value === null || typeof value === 'object') return null;
  if (kind === 'text') return { op, key: UTF8_ENCODER.encode(String(value)) };
  const numeric = typeof value === 'string' ? Number(value) : value;
  if (typeof numeric === 'number' && Number.isNaN(numeric)) return null;
  if (kind === 'int' && typeof numeric === 'number' && !Number.isInteger(numeric)) {
    if (!Number.isFinite(numeric)) return (numeric > 0) === (op === '<' || op === '<=') ? { op: '>=', key: encodeKey('int', -(1n << 127n)) } : null;
    return op === '<' || op === '<=' ? { op: '<=', key: encodeKey('int', BigInt(Math.floor(numeric))) } : { op: '>=', key: encodeKey('int', BigInt(Math.ceil(numeric))) };
  }
  return { op, key: encodeKey(kind, numeric) };
}
