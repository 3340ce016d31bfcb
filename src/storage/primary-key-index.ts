/**
 * The primary-key index of one segment of a merge-on-write UNIQUE KEY table (Doris's PrimaryKeyIndex in
 * be/src/olap/primary_key_index.*): the segment's full keys, encoded memcomparable (short-key-index.ts's
 * encoding, every key column), in key order — which is row order, a segment's rows being sorted and
 * unique by key — cut into pages of about PRIMARY_KEY_DATA_PAGE_SIZE bytes, with a small page index (the
 * first key of each page) and a bloom filter over every key. A lookup costs bloom -> one page -> the row
 * id (the key's position), so publish-time delete-bitmap calculation and point lookups no longer read key
 * columns, and their cost does not grow with the bytes stored.
 *
 * The index is its own file beside the segment (`<segment>.__primary_key.idx`, segmentIndexKey), so a cold
 * lookup reads the file's tail once (trailer + page index + bloom, usually one ranged read) and then one
 * key page. Layout, all integers little-endian:
 *
 * ```
 * [key page 0][key page 1]...   framed (segment-format.ts), LZ4 when it shrinks the page:
 *                               u32 count | i32 offsets[count + 1] | key bytes
 * [bloom]                       framed: u32 hashCount | u32 bitCount | u32 words[bitCount / 32]
 * [page index]                  framed: u32 version | u32 numRows | u32 pageCount | kinds (u32 len + utf8)
 *                               | i32 pageOffsets[pageCount + 1] | i32 firstRows[pageCount + 1]
 *                               | i32 keyOffsets[pageCount + 2] | first key of each page, then the last key
 * [trailer: u32 bloom size | u32 page index size | u32 CRC32 of those 8 bytes | 'GLPK']
 * ```
 * Built by writeTableRows for every segment of a merge-on-write table (load flush, INSERT, compaction,
 * partial-update rewrites); segments written before it have no such file and take the older path.
 */
import { mix32 } from '../common/bucket-hash';
import type { RawValue, Vector } from '../common/column';
import { GaleneError } from '../common/errors';
import type { ProfileSink } from '../common/profile';
import type { PhysicalKind } from '../common/types';
import { Types } from '../common/types';
import type { RandomAccessFile } from '../io/file-cache';
import { crc32 } from './checksum';
import { CODEC_LZ4, CODEC_NONE, compressPageLz4Sync, decompressPage } from './compression';
import { ByteReader, ByteWriter } from './encoding/byte-buffer';
import type { PageCache } from './page-cache';
import { framePage, unframePage } from './segment-format';
import { encodeKeyValue, rawKeyAt } from './short-key-index';

/** The index name its SegmentIndexRecord carries (never a user index name: those cannot start with "__"). */
export const PRIMARY_KEY_INDEX_NAME = '__primary_key';
/** Doris `primary_key_data_page_size` (32 KiB): key bytes per page. */
export const PRIMARY_KEY_DATA_PAGE_SIZE = 32 * 1024;
const FORMAT_VERSION = 1;
const MAGIC = 'GLPK';
const TRAILER_BYTES = 16;
/** Bytes read from the tail on open: trailer, page index and the bloom of segments up to ~50k keys. */
const TAIL_READ_BYTES = 64 * 1024;
const BLOOM_BITS_PER_KEY = 10;
const BLOOM_HASHES = 7;

/** Encoded keys: key `i` is bytes[offsets[i], offsets[i + 1]). */
export interface EncodedKeys {
  readonly count: number;
  readonly offsets: Int32Array;
  readonly bytes: Uint8Array;
}

/** Growable byte buffer for key encoding (no per-value arrays on the fast paths). */
class KeyBytes {
  bytes: Uint8Array;
  length = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(Math.max(16, capacity));
  }

  ensure(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(this.length + extra, this.bytes.length * 2));
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }
}

/**
 * Encoded full keys of `numRows` rows of the key columns `keys` (physical kinds `kinds`), each key the
 * concatenation of encodeKeyValue's bytes per column. Fast paths for 32-bit integers, BIGINT and plain
 * strings produce exactly encodeKeyValue's bytes; other forms go through it value by value.
 */
export function encodeKeys(keys: readonly Vector[], kinds: readonly PhysicalKind[], numRows: number): EncodedKeys {
  // Column by column into per-row scratch would need one pass per row; instead encode each column's
  // values into its own buffer, then interleave per row.
  const perColumn = keys.map((vec, colIdx) => encodeColumn(vec, kinds[colIdx], numRows));
  if (perColumn.length === 1) return { count: numRows, offsets: perColumn[0].offsets, bytes: perColumn[0].bytes };
  const offsets = new Int32Array(numRows + 1);
  let total = 0;
  for (const part of perColumn) total += part.offsets[numRows];
  const bytes = new Uint8Array(total);
  let pos = 0;
  for (let rowIdx = 0; rowIdx < numRows; rowIdx++) {
    for (const part of perColumn) {
      const start = part.offsets[rowIdx];
      const end = part.offsets[rowIdx + 1];
      bytes.set(part.bytes.subarray(start, end), pos);
      pos += end - start;
    }
    offsets[rowIdx + 1] = pos;
  }
  return { count: numRows, offsets, bytes };
}

function encodeColumn(vec: Vector, kind: PhysicalKind, numRows: number): EncodedKeys {
  const out = new KeyBytes(numRows * 8);
  const offsets = new Int32Array(numRows + 1);
  const nulls = vec.nulls;
  const isNull = (rowIdx: number): boolean => nulls !== null && nulls[rowIdx] === 1;
  if (vec.kind === 'fixed' && (kind === 'u8' || kind === 'i8' || kind === 'i16' || kind === 'i32')) {
    const values = vec.values as ArrayLike<number>;
    out.ensure(numRows * 5);
    const buf = out.bytes;
    let pos = 0;
    for (let rowIdx = 0; rowIdx < numRows; rowIdx++) {
      if (isNull(rowIdx)) buf[pos++] = 0;
      else {
        const biased = (values[rowIdx] + 2147483648) >>> 0;
        buf[pos] = 1;
        buf[pos + 1] = biased >>> 24;
        buf[pos + 2] = (biased >>> 16) & 0xff;
        buf[pos + 3] = (biased >>> 8) & 0xff;
        buf[pos + 4] = biased & 0xff;
        pos += 5;
      }
      offsets[rowIdx + 1] = pos;
    }
    return { count: numRows, offsets, bytes: buf.subarray(0, pos) };
  }
  if (vec.kind === 'fixed' && kind === 'i64' && vec.values instanceof BigInt64Array) {
    // 128-bit two's complement with the sign bit flipped: the high 8 bytes are 0x80 00.. (>= 0) or
    // 0x7f ff.. (< 0), the low 8 the value's 64 bits big-endian.
    const halves = new Int32Array(vec.values.buffer, vec.values.byteOffset, numRows * 2);
    out.ensure(numRows * 17);
    const buf = out.bytes;
    let pos = 0;
    for (let rowIdx = 0; rowIdx < numRows; rowIdx++) {
      if (isNull(rowIdx)) buf[pos++] = 0;
      else {
        const low = halves[rowIdx * 2];
        const high = halves[rowIdx * 2 + 1];
        buf[pos] = 1;
        const fill = high < 0 ? 0xff : 0;
        buf[pos + 1] = high < 0 ? 0x7f : 0x80;
        for (let byteIdx = 2; byteIdx <= 8; byteIdx++) buf[pos + byteIdx] = fill;
        buf[pos + 9] = high >>> 24;
        buf[pos + 10] = (high >>> 16) & 0xff;
        buf[pos + 11] = (high >>> 8) & 0xff;
        buf[pos + 12] = high & 0xff;
        buf[pos + 13] = low >>> 24;
        buf[pos + 14] = (low >>> 16) & 0xff;
        buf[pos + 15] = (low >>> 8) & 0xff;
        buf[pos + 16] = low & 0xff;
        pos += 17;
      }
      offsets[rowIdx + 1] = pos;
    }
    return { count: numRows, offsets, bytes: buf.subarray(0, pos) };
  }
  if (vec.kind === 'string' && kind === 'string') {
    const { offsets: srcOffsets, bytes: src } = vec;
    for (let rowIdx = 0; rowIdx < numRows; rowIdx++) {
      if (isNull(rowIdx)) {
        out.ensure(1);
        out.bytes[out.length++] = 0;
      } else {
        const start = srcOffsets[rowIdx];
        const end = srcOffsets[rowIdx + 1];
        out.ensure(2 * (end - start) + 3);
        const buf = out.bytes;
        let pos = out.length;
        buf[pos++] = 1;
        for (let byteIdx = start; byteIdx < end; byteIdx++) {
          const byte = src[byteIdx];
          if (byte === 0) {
            buf[pos++] = 0;
            buf[pos++] = 0xff;
          } else buf[pos++] = byte;
        }
        buf[pos++] = 0;
        buf[pos++] = 0;
        out.length = pos;
      }
      offsets[rowIdx + 1] = out.length;
    }
    return { count: numRows, offsets, bytes: out.bytes.subarray(0, out.length) };
  }
  const scratch: number[] = [];
  for (let rowIdx = 0; rowIdx < numRows; rowIdx++) {
    scratch.length = 0;
    if (!encodeKeyValue(rawKeyAt(vec, rowIdx), kind, scratch)) throw new GaleneError('INTERNAL', [`primary key index: cannot encode a ${kind} key value`]);
    out.ensure(scratch.length);
    out.bytes.set(scratch, out.length);
    out.length += scratch.length;
    offsets[rowIdx + 1] = out.length;
  }
  return { count: numRows, offsets, bytes: out.bytes.subarray(0, out.length) };
}

/** Byte order of a[aStart, aEnd) and b[bStart, bEnd): negative, 0, positive. */
export function compareKeyBytes(a: Uint8Array, aStart: number, aEnd: number, b: Uint8Array, bStart: number, bEnd: number): number {
  const common = Math.min(aEnd - aStart, bEnd - bStart);
  for (let byteIdx = 0; byteIdx < common; byteIdx++) {
    const diff = a[aStart + byteIdx] - b[bStart + byteIdx];
    if (diff !== 0) return diff;
  }
  return aEnd - aStart - (bEnd - bStart);
}

/** Two independent 32-bit hashes of a key (FNV-1a and a multiplicative hash, both finalized by mix32). */
function keyHashes(bytes: Uint8Array, start: number, end: number): [number, number] {
  let h1 = 0x811c9dc5;
  let h2 = 0x9747b28c;
  for (let byteIdx = start; byteIdx < end; byteIdx++) {
    const byte = bytes[byteIdx];
    h1 = Math.imul(h1 ^ byte, 0x01000193);
    h2 = Math.imul(h2 + byte, 0x5bd1e995) ^ (h2 >>> 15);
  }
  return [mix32(h1), mix32(h2) | 1];
}

/** A bloom filter over encoded keys (double hashing, BLOOM_HASHES probes, ~1% false positives). */
export class KeyBloomFilter {
  private constructor(
    readonly hashCount: number,
    readonly bitCount: number,
    private readonly words: Uint32Array,
  ) {}

  static build(keys: EncodedKeys): KeyBloomFilter {
    const bitCount = Math.max(64, Math.ceil((keys.count * BLOOM_BITS_PER_KEY) / 32) * 32);
    const filter = new KeyBloomFilter(BLOOM_HASHES, bitCount, new Uint32Array(bitCount / 32));
    for (let keyIdx = 0; keyIdx < keys.count; keyIdx++) filter.add(keys.bytes, keys.offsets[keyIdx], keys.offsets[keyIdx + 1]);
    return filter;
  }

  static decode(body: Uint8Array, what: string): KeyBloomFilter {
    const input = new ByteReader(body, what);
    const hashCount = input.u32();
    const bitCount = input.u32();
    if (hashCount === 0 || hashCount > 32 || bitCount === 0 || bitCount % 32 !== 0) input.fail(`bad bloom filter header (${hashCount} hashes, ${bitCount} bits)`);
    return new KeyBloomFilter(hashCount, bitCount, input.typed(Uint32Array, bitCount / 32));
  }

  encode(): Uint8Array {
    const out = new ByteWriter(8 + this.words.byteLength);
    out.u32(this.hashCount);
    out.u32(this.bitCount);
    out.typed(this.words);
    return out.finish();
  }

  private add(bytes: Uint8Array, start: number, end: number): void {
    const [h1, h2] = keyHashes(bytes, start, end);
    for (let probeIdx = 0; probeIdx < this.hashCount; probeIdx++) {
      const bit = ((h1 + Math.imul(probeIdx, h2)) >>> 0) % this.bitCount;
      this.words[bit >>> 5] |= 1 << (bit & 31);
    }
  }

  mayContain(bytes: Uint8Array, start: number, end: number): boolean {
    const [h1, h2] = keyHashes(bytes, start, end);
    for (let probeIdx = 0; probeIdx < this.hashCount; probeIdx++) {
      const bit = ((h1 + Math.imul(probeIdx, h2)) >>> 0) % this.bitCount;
      if ((this.words[bit >>> 5] & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }
}

/**
 * The index file of a segment whose sorted, unique keys are `keys` (key columns in key order; row `i` of
 * the segment is key `i`), as parts to write in order.
 */
export function buildPrimaryKeyIndex(keys: readonly Vector[], kinds: readonly PhysicalKind[], numRows: number): Uint8Array[] {
  const encoded = encodeKeys(keys, kinds, numRows);
  const parts: Uint8Array[] = [];
  let offset = 0;
  const pageOffsets: number[] = [0];
  const firstRows: number[] = [0];
  const firstKeys: Uint8Array[] = [];
  let pageStart = 0;
  while (pageStart < numRows) {
    let pageEnd = pageStart + 1;
    while (pageEnd < numRows && encoded.offsets[pageEnd] - encoded.offsets[pageStart] < PRIMARY_KEY_DATA_PAGE_SIZE) pageEnd++;
    const count = pageEnd - pageStart;
    const base = encoded.offsets[pageStart];
    const body = new ByteWriter(8 + 4 * (count + 1) + encoded.offsets[pageEnd] - base);
    body.u32(count);
    const offsets = new Int32Array(count + 1);
    for (let keyIdx = 0; keyIdx <= count; keyIdx++) offsets[keyIdx] = encoded.offsets[pageStart + keyIdx] - base;
    body.typed(offsets);
    body.bytes(encoded.bytes.subarray(base, encoded.offsets[pageEnd]));
    const raw = body.finish();
    // LZ4 when it pays (sorted keys share prefixes): a smaller file is fewer cache blocks to fetch cold.
    const packed = compressPageLz4Sync(raw);
    const page = framePage(packed.codec, raw.length, packed.data);
    parts.push(page);
    offset += page.length;
    pageOffsets.push(offset);
    firstRows.push(pageEnd);
    firstKeys.push(encoded.bytes.subarray(base, encoded.offsets[pageStart + 1]));
    pageStart = pageEnd;
  }
  if (numRows > 0) firstKeys.push(encoded.bytes.subarray(encoded.offsets[numRows - 1], encoded.offsets[numRows]));
  const bloomRaw = KeyBloomFilter.build(encoded).encode();
  const bloom = framePage(CODEC_NONE, bloomRaw.length, bloomRaw);
  const index = new ByteWriter(1024);
  index.u32(FORMAT_VERSION);
  index.u32(numRows);
  index.u32(pageOffsets.length - 1);
  const kindBytes = new TextEncoder().encode(kinds.join(','));
  index.u32(kindBytes.length);
  index.bytes(kindBytes);
  index.typed(Int32Array.from(pageOffsets));
  index.typed(Int32Array.from(firstRows));
  const keyOffsets = new Int32Array(firstKeys.length + 1);
  firstKeys.forEach((key, keyIdx) => (keyOffsets[keyIdx + 1] = keyOffsets[keyIdx] + key.length));
  index.typed(keyOffsets);
  for (const key of firstKeys) index.bytes(key);
  const indexRaw = index.finish();
  const indexPage = framePage(CODEC_NONE, indexRaw.length, indexRaw);
  const trailer = new Uint8Array(TRAILER_BYTES);
  const view = new DataView(trailer.buffer);
  view.setUint32(0, bloom.length, true);
  view.setUint32(4, indexPage.length, true);
  view.setUint32(8, crc32(trailer, 0, 8), true);
  trailer.set(new TextEncoder().encode(MAGIC), 12);
  parts.push(bloom, indexPage, trailer);
  return parts;
}

/** Counters a lookup adds to a profile (Doris-like names). */
const COUNTER_BLOOM_FILTERED = 'PrimaryKeyIndexBloomFiltered';
const COUNTER_PAGES_READ = 'PrimaryKeyIndexPagesRead';

/** A loaded primary-key index: trailer, page index and bloom in memory; key pages read on demand. */
export class PrimaryKeyIndexReader {
  private constructor(
    private readonly file: RandomAccessFile,
    readonly numRows: number,
    /** Physical kinds of the key columns the keys were encoded from. */
    readonly kinds: readonly PhysicalKind[],
    private readonly pageOffsets: Int32Array,
    private readonly firstRows: Int32Array,
    private readonly keyOffsets: Int32Array,
    private readonly pageKeys: Uint8Array,
    private readonly bloom: KeyBloomFilter,
    private readonly pageCache: PageCache | null,
  ) {}

  get pageCount(): number {
    return this.pageOffsets.length - 1;
  }

  /** Open an index file: one ranged read of its tail (two when the bloom is larger than TAIL_READ_BYTES). */
  static async open(file: RandomAccessFile, profile: ProfileSink, pageCache: PageCache | null = null): Promise<PrimaryKeyIndexReader> {
    const what = `primary key index ${file.key}`;
    const corrupt = (why: string): never => {
      throw new GaleneError('CORRUPTION', [`${what}: ${why}`]);
    };
    if (file.size < TRAILER_BYTES) corrupt(`file of ${file.size} bytes is shorter than its trailer`);
    const tailLength = Math.min(file.size, TAIL_READ_BYTES);
    let tail: Uint8Array = await file.read(file.size - tailLength, tailLength, profile, 'index');
    const trailer = tail.subarray(tail.length - TRAILER_BYTES);
    const view = new DataView(trailer.buffer, trailer.byteOffset, TRAILER_BYTES);
    if (new TextDecoder().decode(trailer.subarray(12)) !== MAGIC) corrupt('bad magic (not a primary key index, or truncated)');
    if (view.getUint32(8, true) !== crc32(trailer, 0, 8)) corrupt('trailer checksum mismatch');
    const bloomSize = view.getUint32(0, true);
    const indexSize = view.getUint32(4, true);
    const metaSize = bloomSize + indexSize + TRAILER_BYTES;
    if (metaSize > file.size) corrupt(`trailer names ${metaSize} bytes of a ${file.size}-byte file`);
    if (metaSize > tail.length) tail = await file.read(file.size - metaSize, metaSize, profile, 'index');
    const metaStart = tail.length - metaSize;
    const bloomBody = unframePage(tail.subarray(metaStart, metaStart + bloomSize), `${what} bloom filter`).body;
    const indexBody = unframePage(tail.subarray(metaStart + bloomSize, metaStart + bloomSize + indexSize), `${what} page index`).body;
    const input = new ByteReader(indexBody, `${what} page index`);
    const version = input.u32();
    if (version !== FORMAT_VERSION) input.fail(`unsupported version ${version}`);
    const numRows = input.u32();
    const pageCount = input.u32();
    const kinds = new TextDecoder().decode(input.bytes(input.u32())).split(',') as PhysicalKind[];
    const pageOffsets = input.typed(Int32Array, pageCount + 1);
    const firstRows = input.typed(Int32Array, pageCount + 1);
    const keyCount = numRows === 0 ? 0 : pageCount + 1;
    const keyOffsets = input.typed(Int32Array, keyCount + 1);
    const pageKeys = input.bytes(keyOffsets[keyCount]);
    const dataEnd = file.size - metaSize;
    if (firstRows[pageCount] !== numRows || pageOffsets[pageCount] !== dataEnd) input.fail(`page index does not cover the file (${pageCount} pages, ${numRows} rows)`);
    const bloom = KeyBloomFilter.decode(bloomBody, `${what} bloom filter`);
    return new PrimaryKeyIndexReader(file, numRows, kinds, pageOffsets, firstRows, keyOffsets, pageKeys, bloom, pageCache);
  }

  /** Whether the index was built from key columns of these physical kinds (else its keys are not comparable). */
  matchesKinds(kinds: readonly PhysicalKind[]): boolean {
    return kinds.length === this.kinds.length && kinds.every((kind, keyIdx) => kind === this.kinds[keyIdx]);
  }

  /**
   * Row id of each key of `keys` in this segment, -1 when absent: bloom first, then one page per key
   * that may be present (pages cached in the page cache when one was given).
   */
  async lookup(keys: EncodedKeys, profile: ProfileSink): Promise<Int32Array> {
    const out = new Int32Array(keys.count).fill(-1);
    const { bytes, offsets } = keys;
    const pageCount = this.pageCount;
    if (this.numRows === 0) return out;
    const lastKey = pageCount; // index of the segment's last key in pageKeys
    let filtered = 0;
    for (let keyIdx = 0; keyIdx < keys.count; keyIdx++) {
      const start = offsets[keyIdx];
      const end = offsets[keyIdx + 1];
      // Outside the segment's key range: absent without a bloom probe.
      if (compareKeyBytes(bytes, start, end, this.pageKeys, this.keyOffsets[lastKey], this.keyOffsets[lastKey + 1]) > 0) continue;
      if (compareKeyBytes(bytes, start, end, this.pageKeys, this.keyOffsets[0], this.keyOffsets[1]) < 0) continue;
      if (!this.bloom.mayContain(bytes, start, end)) {
        filtered++;
        continue;
      }
      // The last page whose first key <= key.
      let lo = 0;
      let hi = pageCount;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compareKeyBytes(this.pageKeys, this.keyOffsets[mid], this.keyOffsets[mid + 1], bytes, start, end) <= 0) lo = mid + 1;
        else hi = mid;
      }
      const pageIdx = lo - 1;
      const page = await this.page(pageIdx, profile);
      let first = 0;
      let last = page.length - 1;
      while (first <= last) {
        const mid = (first + last) >>> 1;
        const diff = compareKeyBytes(page.bytes, page.offsets[mid], page.offsets[mid + 1], bytes, start, end);
        if (diff === 0) {
          out[keyIdx] = this.firstRows[pageIdx] + mid;
          break;
        }
        if (diff < 0) first = mid + 1;
        else last = mid - 1;
      }
    }
    if (filtered > 0) profile.add(COUNTER_BLOOM_FILTERED, filtered);
    return out;
  }

  /** One key page, as a string vector of its encoded keys (the page cache holds vectors). */
  private async page(pageIdx: number, profile: ProfileSink): Promise<{ readonly length: number; readonly offsets: Int32Array; readonly bytes: Uint8Array }> {
    const cacheKey = `${this.file.key}:${this.pageOffsets[pageIdx]}`;
    const cached = this.pageCache?.get(cacheKey, profile);
    if (cached !== undefined && cached.kind === 'string') return cached;
    const start = this.pageOffsets[pageIdx];
    const raw = await this.file.read(start, this.pageOffsets[pageIdx + 1] - start, profile, 'index');
    profile.add(COUNTER_PAGES_READ, 1);
    const what = `primary key index ${this.file.key} page ${pageIdx}`;
    const { codec, rawLength, body } = unframePage(raw, what);
    if (codec !== CODEC_NONE && codec !== CODEC_LZ4) throw new GaleneError('CORRUPTION', [`${what}: unknown codec ${codec}`]);
    const input = new ByteReader(codec === CODEC_NONE ? body : await decompressPage(codec, body, rawLength, what), what);
    const count = input.u32();
    if (count !== this.firstRows[pageIdx + 1] - this.firstRows[pageIdx]) input.fail(`page holds ${count} keys, the page index says ${this.firstRows[pageIdx + 1] - this.firstRows[pageIdx]}`);
    const offsets = input.typed(Int32Array, count + 1);
    const bytes = input.bytes(offsets[count]);
    const vec = { kind: 'string' as const, type: Types.STRING, length: count, offsets, bytes, nulls: null };
    this.pageCache?.put(cacheKey, vec);
    return vec;
  }
}

/** Encoded keys of raw key values (one row per entry of `rows`, each in key-column order); null: a value no key can hold. */
export function encodeRawKeys(rows: readonly (readonly RawValue[])[], kinds: readonly PhysicalKind[]): EncodedKeys | null {
  const offsets = new Int32Array(rows.length + 1);
  const scratch: number[] = [];
  for (let rowIdx = 0; rowIdx < rows.length; rowIdx++) {
    const row = rows[rowIdx];
    for (let colIdx = 0; colIdx < kinds.length; colIdx++) if (!encodeKeyValue(row[colIdx], kinds[colIdx], scratch)) return null;
    offsets[rowIdx + 1] = scratch.length;
  }
  return { count: rows.length, offsets, bytes: Uint8Array.from(scratch) };
}
