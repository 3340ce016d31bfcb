/**
 * Reads one segment file through the FileCache (format in segment-format.ts).
 *
 * `open` makes one ranged read of the file's tail (TAIL_READ_BYTES; a second only for a larger footer)
 * and keeps it: page indexes, dictionaries and the short-key index that fall inside it cost no further
 * read. Then `pruneRows` narrows rows with zone maps and the short-key index, and `readColumn` /
 * `readRows` read and decode only the pages they need, through the PageCache, coalescing adjacent pages
 * into one read. Every checksum is verified on the way in: damage is a CORRUPTION error naming the file,
 * and it drops the bytes a cache holds of the file (RandomAccessFile.discard), so a repaired object is read anew.
 *
 * A reader is immutable after open and safe to share between concurrent queries; cache one per segment.
 * Vectors it returns may be shared with the page cache: never mutate them.
 */
import type { RawValue, Vector } from '../common/column';
import { compareByteArrays } from '../common/bytes';
import { concatVectors, sliceVector, takeRows, vectorFromRaw } from '../common/column';
import { GaleneError } from '../common/errors';
import type { ProfileSink } from '../common/profile';
import { QueryProfile } from '../common/profile';
import type { DataType, PhysicalKind } from '../common/types';
import { physicalKind, typeFromJson } from '../common/types';
import type { RandomAccessFile } from '../io/file-cache';
import { CODEC_NONE, decompressPage } from './compression';
import { decodePage } from './encoding/page-encoding';
import { decodeDictPage } from './encoding/string-dict';
import type { PageCache } from './page-cache';
import { RowRanges } from './row-ranges';
import type { ScanPredicate } from '../common/scan-predicate';
import type { PageIndexEntryJson, SegmentColumn, SegmentFooterJson } from './segment-format';
import { SEGMENT_FORMAT_VERSION, SEGMENT_MAGIC, TAIL_READ_BYTES, TRAILER_BYTES, unframePage } from './segment-format';
import { crc32 } from './checksum';
import { ShortKeyIndex, encodeKeyValue } from './short-key-index';
import type { ZoneStats } from './zone-map';
import { boundFromJson, zoneMayMatch } from './zone-map';

/** Largest single coalesced read of adjacent pages. */
const MAX_COALESCED_READ = 8 * 1024 * 1024;
const MAX_SHORT_KEY_PREFIXES = 256;

export interface SegmentReaderOptions {
  readonly pageCache: PageCache;
  /** Counts the open's reads (the per-call profile is passed to each read method). */
  readonly profile: ProfileSink;
  /**
   * Called once a read of the open reader failed verification: its kept tail may hold the damaged bytes,
   * so the caller drops the reader from its cache (a repaired object is then opened anew).
   */
  readonly onDamage?: () => void;
}

/** Zone map of one page, values in raw form (strings may be truncated bounds). */
export interface PageZoneMap {
  readonly firstRow: number;
  readonly rowCount: number;
  readonly nullCount: number;
  readonly allNull: boolean;
  /** null when unknown (all NULL, NaN in the page, or an unbounded string max). */
  readonly min: RawValue;
  readonly max: RawValue;
}

interface ColumnIndex {
  readonly firstRow: Int32Array;
  readonly rowCount: Int32Array;
  readonly offset: Float64Array;
  readonly size: Int32Array;
  readonly stats: ZoneStats[];
  /** Page-cache key of each page, built on first use (a point lookup would otherwise build one per read). */
  readonly cacheKeys: (string | undefined)[];
}

function corrupt(key: string, what: string): GaleneError {
  return new GaleneError('CORRUPTION', [`${key}: ${what}`]);
}

/**
 * `read`, but a CORRUPTION it throws first drops the cached bytes of `file` and tells `onDamage` (the
 * object may be repaired: nothing of the bad copy must be served again).
 */
async function discardOnCorruption<T>(file: RandomAccessFile, read: Promise<T>, onDamage?: () => void): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof GaleneError && err.code === 'CORRUPTION') {
      onDamage?.();
      await file.discard?.().catch(() => undefined);
    }
    throw err;
  }
}

export class SegmentReader {
  readonly file: RandomAccessFile;
  readonly key: string;
  readonly numRows: number;
  readonly columns: readonly SegmentColumn[];
  readonly footer: SegmentFooterJson;
  private readonly pageCache: PageCache;
  private readonly tail: Uint8Array;
  private readonly tailStart: number;
  private readonly kinds: PhysicalKind[];
  private readonly byName = new Map<string, number>();
  private readonly indexes: (Promise<ColumnIndex> | null)[];
  private readonly dicts: (Promise<readonly string[]> | null)[];
  private shortKey: Promise<ShortKeyIndex> | null = null;
  private readonly onDamage: (() => void) | undefined;

  private constructor(file: RandomAccessFile, footer: SegmentFooterJson, tail: Uint8Array, tailStart: number, pageCache: PageCache, onDamage: (() => void) | undefined) {
    this.onDamage = onDamage;
    this.file = file;
    this.key = file.key;
    this.footer = footer;
    this.numRows = footer.numRows;
    this.tail = tail;
    this.tailStart = tailStart;
    this.pageCache = pageCache;
    this.columns = footer.columns.map((column) => Object.freeze({ name: column.name, type: typeFromJson(column.type), uniqueId: column.uniqueId }));
    this.kinds = this.columns.map((column) => physicalKind(column.type));
    this.columns.forEach((column, colIdx) => this.byName.set(column.name, colIdx));
    this.indexes = this.columns.map(() => null);
    this.dicts = this.columns.map(() => null);
  }

  /** Open a segment: one ranged read of the tail, footer checks. */
  static open(file: RandomAccessFile, options: SegmentReaderOptions): Promise<SegmentReader> {
    return discardOnCorruption(file, SegmentReader.openChecked(file, options));
  }

  private static async openChecked(file: RandomAccessFile, options: SegmentReaderOptions): Promise<SegmentReader> {
    const key = file.key;
    const size = file.size;
    if (size < TRAILER_BYTES) throw corrupt(key, `file of ${size} bytes is too small for a segment`);
    let tailStart = Math.max(0, size - TAIL_READ_BYTES);
    let tail: Uint8Array = await file.read(tailStart, size - tailStart, options.profile, 'index');
    const trailer = new DataView(tail.buffer, tail.byteOffset + tail.length - TRAILER_BYTES, TRAILER_BYTES);
    const magic = String.fromCharCode(trailer.getUint8(8), trailer.getUint8(9), trailer.getUint8(10), trailer.getUint8(11));
    if (magic !== SEGMENT_MAGIC) throw corrupt(key, 'bad magic: not a segment file, or truncated');
    const footerLength = trailer.getUint32(0, true);
    const footerCrc = trailer.getUint32(4, true);
    if (footerLength + TRAILER_BYTES > size) throw corrupt(key, `footer length ${footerLength} exceeds the file (${size} bytes)`);
    const footerStart = size - TRAILER_BYTES - footerLength;
    if (footerStart < tailStart) {
      const extra = await file.read(footerStart, tailStart - footerStart, options.profile, 'index');
      const joined = new Uint8Array(extra.length + tail.length);
      joined.set(extra);
      joined.set(tail, extra.length);
      tail = joined;
      tailStart = footerStart;
    }
    const footerBytes = tail.subarray(footerStart - tailStart, footerStart - tailStart + footerLength);
    if (crc32(footerBytes) !== footerCrc) throw corrupt(key, 'footer checksum mismatch');
    let footer: SegmentFooterJson;
    try {
      footer = JSON.parse(Buffer.from(footerBytes.buffer, footerBytes.byteOffset, footerBytes.byteLength).toString('utf8')) as SegmentFooterJson;
    } catch (err) {
      throw new GaleneError('CORRUPTION', [`${key}: footer is not valid JSON`], { cause: err });
    }
    if (footer.version !== SEGMENT_FORMAT_VERSION) throw corrupt(key, `unsupported segment format version ${footer.version}`);
    if (!Number.isSafeInteger(footer.numRows) || footer.numRows < 0 || !Array.isArray(footer.columns)) throw corrupt(key, 'footer has a bad row count or column list');
    const inFile = (region: { offset: number; size: number } | null): boolean => region === null || (region.offset >= 0 && region.size >= 0 && region.offset + region.size <= footerStart);
    for (const column of footer.columns) {
      if (!inFile(column.index) || !inFile(column.dict) || !inFile({ offset: column.dataOffset, size: column.dataSize })) throw corrupt(key, `column ${column.name}: region outside the file`);
    }
    if (!inFile(footer.shortKey)) throw corrupt(key, 'short key index outside the file');
    return new SegmentReader(file, footer, tail, tailStart, options.pageCache, options.onDamage);
  }

  /** Bytes of a region: from the kept tail when inside it, else one ranged read. */
  private async readRegion(offset: number, size: number, profile: ProfileSink, kind: 'data' | 'index'): Promise<Uint8Array> {
    if (offset >= this.tailStart && offset + size <= this.tailStart + this.tail.length) {
      return this.tail.subarray(offset - this.tailStart, offset - this.tailStart + size);
    }
    return this.file.read(offset, size, profile, kind);
  }

  /** Unframe, check, decompress one framed region; the result owns its memory (safe to view into). */
  private async openPage(framed: Uint8Array, what: string): Promise<Uint8Array> {
    const { codec, rawLength, body } = unframePage(framed, what);
    const raw = await decompressPage(codec, body, rawLength, what);
    if (codec !== CODEC_NONE) return raw;
    const copy = new Uint8Array(raw.length);
    copy.set(raw);
    return copy;
  }

  private columnIndexOf(column: string): number {
    const colIdx = this.byName.get(column);
    if (colIdx === undefined) throw new GaleneError('INTERNAL', [`${this.key}: no column ${column} in segment`]);
    return colIdx;
  }

  private loadIndex(colIdx: number, profile: ProfileSink): Promise<ColumnIndex> {
    let pending = this.indexes[colIdx];
    if (pending === null) {
      pending = discardOnCorruption(this.file, this.readIndex(colIdx, profile), this.onDamage);
      this.indexes[colIdx] = pending;
      pending.catch(() => (this.indexes[colIdx] = null));
    }
    return pending;
  }

  private async readIndex(colIdx: number, profile: ProfileSink): Promise<ColumnIndex> {
    const column = this.footer.columns[colIdx];
    const what = `${this.key}: page index of column ${column.name}`;
    const raw = await this.openPage(await this.readRegion(column.index.offset, column.index.size, profile, 'index'), what);
    let entries: PageIndexEntryJson[];
    try {
      entries = JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8')) as PageIndexEntryJson[];
    } catch (err) {
      throw new GaleneError('CORRUPTION', [`${what}: not valid JSON`], { cause: err });
    }
    const count = entries.length;
    const index: ColumnIndex = {
      firstRow: new Int32Array(count),
      rowCount: new Int32Array(count),
      offset: new Float64Array(count),
      size: new Int32Array(count),
      stats: new Array<ZoneStats>(count),
      cacheKeys: new Array<string | undefined>(count),
    };
    const kind = this.kinds[colIdx];
    let expectRow = 0;
    let expectOffset = column.dataOffset;
    for (let pageIdx = 0; pageIdx < count; pageIdx++) {
      const [firstRow, rowCount, offset, size, nullCount, min, max] = entries[pageIdx];
      if (firstRow !== expectRow || offset !== expectOffset || rowCount <= 0) throw corrupt(this.key, `page index of column ${column.name} is inconsistent at page ${pageIdx}`);
      expectRow += rowCount;
      expectOffset += size;
      index.firstRow[pageIdx] = firstRow;
      index.rowCount[pageIdx] = rowCount;
      index.offset[pageIdx] = offset;
      index.size[pageIdx] = size;
      index.stats[pageIdx] = { nullCount, rowCount, min: boundFromJson(min, kind), max: boundFromJson(max, kind) };
    }
    if (expectRow !== this.numRows || expectOffset !== column.dataOffset + column.dataSize) throw corrupt(this.key, `page index of column ${column.name} does not cover the column`);
    return index;
  }

  private loadDict(colIdx: number, profile: ProfileSink): Promise<readonly string[]> {
    let pending = this.dicts[colIdx];
    if (pending === null) {
      pending = discardOnCorruption(this.file, (async () => {
        const region = this.footer.columns[colIdx].dict!;
        const cacheKey = `${this.key}:dict:${region.offset}`;
        const cached = this.pageCache.get(cacheKey, profile);
        if (cached !== undefined && cached.kind === 'dict') return cached.dict;
        const what = `${this.key}: dictionary of column ${this.columns[colIdx].name}`;
        const dict = decodeDictPage(await this.openPage(await this.readRegion(region.offset, region.size, profile, 'index'), what), what);
        if (dict.length !== region.entries) throw corrupt(this.key, `dictionary of column ${this.columns[colIdx].name} has ${dict.length} entries, expected ${region.entries}`);
        // Cached as an empty DictVector carrying the dictionary; its byte size is estimated from the strings.
        let bytes = 64;
        for (const entry of dict) bytes += entry.length * 2 + 32;
        this.pageCache.put(cacheKey, { kind: 'dict', type: this.columns[colIdx].type, length: 0, codes: new Int32Array(0), dict, nulls: null }, bytes);
        return dict;
      })(), this.onDamage);
      this.dicts[colIdx] = pending;
      pending.catch(() => (this.dicts[colIdx] = null));
    }
    return pending;
  }

  /** Zone maps of every page of a column. */
  async zoneMaps(column: string, profile: ProfileSink = { add: () => undefined }): Promise<PageZoneMap[]> {
    const colIdx = this.columnIndexOf(column);
    const index = await this.loadIndex(colIdx, profile);
    const kind = this.kinds[colIdx];
    const toRaw = (bound: ZoneStats['min']): RawValue => {
      if (bound === null) return null;
      if (bound instanceof Uint8Array) return Buffer.from(bound.buffer, bound.byteOffset, bound.byteLength).toString('utf8');
      if (kind === 'i64' || kind === 'bigint') return bound;
      return bound;
    };
    return index.stats.map((stats, pageIdx) => ({
      firstRow: index.firstRow[pageIdx],
      rowCount: stats.rowCount,
      nullCount: stats.nullCount,
      allNull: stats.nullCount === stats.rowCount,
      min: toRaw(stats.min),
      max: toRaw(stats.max),
    }));
  }

  /**
   * Rows that may match every predicate: zone maps of the predicate columns' pages (PagesPruned), then
   * the short-key index for predicates on a key prefix (ShortKeyLookups, RowsPrunedByShortKey).
   * Predicates on columns this segment lacks prune nothing.
   */
  async pruneRows(predicates: readonly ScanPredicate[], profile: ProfileSink = { add: () => undefined }): Promise<RowRanges> {
    let result = RowRanges.all(this.numRows);
    for (const pred of predicates) {
      if (result.isEmpty()) break;
      const colIdx = this.byName.get(pred.column);
      if (colIdx === undefined) continue;
      const index = await this.loadIndex(colIdx, profile);
      const kind = this.kinds[colIdx];
      const pairs: [number, number][] = [];
      let pruned = 0;
      for (let pageIdx = 0; pageIdx < index.stats.length; pageIdx++) {
        const first = index.firstRow[pageIdx];
        const last = first + index.rowCount[pageIdx];
        if (!result.overlaps(first, last)) continue;
        if (zoneMayMatch(index.stats[pageIdx], pred, kind)) pairs.push([first, last]);
        else pruned++;
      }
      if (pruned > 0) profile.add('PagesPruned', pruned);
      result = result.intersect(RowRanges.of(pairs));
    }
    if (!result.isEmpty() && this.footer.shortKey !== null && this.footer.numShortKeyColumns > 0) {
      const keyRanges = await this.shortKeyRanges(predicates, profile);
      if (keyRanges !== null) {
        profile.add('ShortKeyLookups', 1);
        profile.add('RowsPrunedByShortKey', this.numRows - keyRanges.count());
        result = result.intersect(keyRanges);
      }
    }
    return result;
  }

  private loadShortKey(profile: ProfileSink): Promise<ShortKeyIndex> {
    if (this.shortKey === null) {
      const region = this.footer.shortKey!;
      const what = `${this.key}: short key index`;
      const pending = discardOnCorruption(this.file, (async () => new ShortKeyIndex(await this.openPage(await this.readRegion(region.offset, region.size, profile, 'index'), what), this.numRows, what))(), this.onDamage);
      this.shortKey = pending;
      pending.catch(() => (this.shortKey = null));
    }
    return this.shortKey;
  }

  /** Rows the short-key index allows for equality / range predicates on a key prefix; null when none apply. */
  private async shortKeyRanges(predicates: readonly ScanPredicate[], profile: ProfileSink): Promise<RowRanges | null> {
    let prefixes: number[][] = [[]];
    let lower: { bytes: number[]; inclusive: boolean } | null = null;
    let upper: { bytes: number[]; inclusive: boolean } | null = null;
    for (let colIdx = 0; colIdx < this.footer.numShortKeyColumns; colIdx++) {
      const name = this.columns[colIdx].name;
      const kind = this.kinds[colIdx];
      const preds = predicates.filter((pred) => pred.column === name);
      const encode = (value: RawValue): number[] | null => {
        if (value === null) return null;
        const out: number[] = [];
        return encodeKeyValue(value, kind, out) ? out : null;
      };
      const eqValues: number[][] | null = (() => {
        for (const pred of preds) {
          if (pred.op === '=') {
            const bytes = encode(pred.value);
            if (bytes) return [bytes];
          }
        }
        for (const pred of preds) {
          if (pred.op === 'in' && pred.values.length > 0 && prefixes.length * pred.values.length <= MAX_SHORT_KEY_PREFIXES) {
            const encoded = pred.values.map(encode);
            if (encoded.every((bytes) => bytes !== null)) return encoded as number[][];
          }
        }
        return null;
      })();
      if (eqValues !== null) {
        prefixes = prefixes.flatMap((prefix) => eqValues.map((bytes) => prefix.concat(bytes)));
        continue;
      }
      for (const pred of preds) {
        if (pred.op !== '<' && pred.op !== '<=' && pred.op !== '>' && pred.op !== '>=') continue;
        const bytes = encode(pred.value);
        if (bytes === null) continue;
        const inclusive = pred.op === '<=' || pred.op === '>=';
        const candidate = { bytes, inclusive };
        if (pred.op === '>' || pred.op === '>=') {
          const order = lower === null ? 1 : compareByteArrays(Uint8Array.from(bytes), Uint8Array.from(lower.bytes));
          if (order > 0 || (order === 0 && !inclusive)) lower = candidate;
        } else {
          const order = upper === null ? -1 : compareByteArrays(Uint8Array.from(bytes), Uint8Array.from(upper.bytes));
          if (order < 0 || (order === 0 && !inclusive)) upper = candidate;
        }
      }
      break;
    }
    if (prefixes.length === 1 && prefixes[0].length === 0 && lower === null && upper === null) return null;
    const index = await this.loadShortKey(profile);
    const pairs: [number, number][] = [];
    for (const prefix of prefixes) {
      const lo = lower as { bytes: number[]; inclusive: boolean } | null;
      const hi = upper as { bytes: number[]; inclusive: boolean } | null;
      const lowerBytes = lo ? Uint8Array.from(prefix.concat(lo.bytes)) : prefix.length > 0 ? Uint8Array.from(prefix) : null;
      const upperBytes = hi ? Uint8Array.from(prefix.concat(hi.bytes)) : prefix.length > 0 ? Uint8Array.from(prefix) : null;
      pairs.push(index.rowRange(lowerBytes, lo ? lo.inclusive : true, upperBytes, hi ? hi.inclusive : true));
    }
    return RowRanges.of(pairs);
  }

  /**
   * Decoded pages `pageIdxs` (ascending) of a column: page cache first, then adjacent missing pages in one
   * read each. Counts PagesRead and BytesRead (bytes read from the file).
   */
  private loadPages(colIdx: number, pageIdxs: readonly number[], profile: ProfileSink): Promise<{ pages: Vector[]; bytesRead: number }> {
    return discardOnCorruption(this.file, this.readPages(colIdx, pageIdxs, profile), this.onDamage);
  }

  private async readPages(colIdx: number, pageIdxs: readonly number[], profile: ProfileSink): Promise<{ pages: Vector[]; bytesRead: number }> {
    const index = await this.loadIndex(colIdx, profile);
    const column = this.columns[colIdx];
    const dict = this.footer.columns[colIdx].encoding === 'dict' ? await this.loadDict(colIdx, profile) : null;
    const pages = new Array<Vector>(pageIdxs.length);
    const missing: number[] = [];
    for (let slot = 0; slot < pageIdxs.length; slot++) {
      const pageIdx = pageIdxs[slot];
      const cached = this.pageCache.get((index.cacheKeys[pageIdx] ??= `${this.key}:${index.offset[pageIdx]}`), profile);
      if (cached !== undefined) pages[slot] = cached;
      else missing.push(slot);
    }
    let bytesRead = 0;
    const reads: Promise<void>[] = [];
    for (let missIdx = 0; missIdx < missing.length; ) {
      const firstSlot = missing[missIdx];
      const start = index.offset[pageIdxs[firstSlot]];
      let end = start + index.size[pageIdxs[firstSlot]];
      let runEnd = missIdx + 1;
      while (runEnd < missing.length) {
        const pageIdx = pageIdxs[missing[runEnd]];
        if (index.offset[pageIdx] !== end || end + index.size[pageIdx] - start > MAX_COALESCED_READ) break;
        end += index.size[pageIdx];
        runEnd++;
      }
      const slots = missing.slice(missIdx, runEnd);
      missIdx = runEnd;
      bytesRead += end - start;
      reads.push(
        (async () => {
          const buf = await this.readRegion(start, end - start, profile, 'data');
          for (const slot of slots) {
            const pageIdx = pageIdxs[slot];
            const offset = index.offset[pageIdx];
            const what = `${this.key}: column ${column.name} page ${pageIdx} at offset ${offset}`;
            const raw = await this.openPage(buf.subarray(offset - start, offset - start + index.size[pageIdx]), what);
            let vec: Vector;
            try {
              vec = decodePage(raw, column.type, dict, what);
            } catch (err) {
              if (err instanceof GaleneError) throw err;
              throw new GaleneError('CORRUPTION', [`${what}: ${(err as Error).message}`], { cause: err });
            }
            if (vec.length !== index.rowCount[pageIdx]) throw corrupt(this.key, `column ${column.name} page ${pageIdx} has ${vec.length} rows, index says ${index.rowCount[pageIdx]}`);
            this.pageCache.put((index.cacheKeys[pageIdx] ??= `${this.key}:${offset}`), vec);
            pages[slot] = vec;
          }
        })(),
      );
    }
    await Promise.all(reads);
    if (missing.length > 0) profile.add('PagesRead', missing.length);
    return { pages, bytesRead };
  }

  private countRead(profile: ProfileSink, column: string, rows: number, bytes: number): void {
    if (profile instanceof QueryProfile) profile.addColumnRead(column, rows, bytes);
    else profile.add('BytesRead', bytes);
  }

  /**
   * The rows of `ranges` (all rows when null) of a column, concatenated in row order. Reads and decodes
   * only the pages overlapping the ranges.
   */
  async readColumn(column: string, ranges: RowRanges | null, profile: ProfileSink): Promise<Vector> {
    const colIdx = this.columnIndexOf(column);
    const type = this.columns[colIdx].type;
    const parts = await this.readColumnParts(column, ranges, profile);
    return parts.length === 0 ? emptyVector(type) : concatPages(type, parts);
  }

  /**
   * The rows of `ranges` (all rows when null) of a column as consecutive pieces, each a decoded page or a
   * zero-copy slice of one (possibly shared with the page cache: never mutate). Scans iterate the pieces
   * instead of concatenating them, so a warm scan copies no column data.
   */
  async readColumnParts(column: string, ranges: RowRanges | null, profile: ProfileSink): Promise<Vector[]> {
    const colIdx = this.columnIndexOf(column);
    const rows = ranges ?? RowRanges.all(this.numRows);
    if (rows.isEmpty()) return [];
    const index = await this.loadIndex(colIdx, profile);
    const pageIdxs: number[] = [];
    for (let pageIdx = 0; pageIdx < index.firstRow.length; pageIdx++) {
      if (rows.overlaps(index.firstRow[pageIdx], index.firstRow[pageIdx] + index.rowCount[pageIdx])) pageIdxs.push(pageIdx);
    }
    const { pages, bytesRead } = await this.loadPages(colIdx, pageIdxs, profile);
    const parts: Vector[] = [];
    let rangeIdx = 0;
    for (let slot = 0; slot < pageIdxs.length; slot++) {
      const pageFirst = index.firstRow[pageIdxs[slot]];
      const pageEnd = pageFirst + index.rowCount[pageIdxs[slot]];
      while (rangeIdx < rows.rangeCount && rows.end(rangeIdx) <= pageFirst) rangeIdx++;
      for (let cursor = rangeIdx; cursor < rows.rangeCount && rows.start(cursor) < pageEnd; cursor++) {
        const start = Math.max(rows.start(cursor), pageFirst);
        const end = Math.min(rows.end(cursor), pageEnd);
        if (end > this.numRows) throw new GaleneError('INTERNAL', [`${this.key}: row range ends at ${rows.end(cursor)} beyond ${this.numRows} rows`]);
        const page = pages[slot];
        parts.push(start === pageFirst && end === pageEnd ? page : sliceVector(page, start - pageFirst, end - pageFirst));
      }
    }
    let rowCount = 0;
    for (const part of parts) rowCount += part.length;
    this.countRead(profile, column, rowCount, bytesRead);
    return parts;
  }

  /**
   * Rows `rowIds` of a column, in the given order (late materialization: only the pages holding them).
   */
  async readRows(column: string, rowIds: Int32Array, profile: ProfileSink): Promise<Vector> {
    const colIdx = this.columnIndexOf(column);
    const type = this.columns[colIdx].type;
    if (rowIds.length === 0) return emptyVector(type);
    let sorted = true;
    for (let idIdx = 0; idIdx < rowIds.length; idIdx++) {
      const rowId = rowIds[idIdx];
      if (rowId < 0 || rowId >= this.numRows) throw new GaleneError('INTERNAL', [`${this.key}: row id ${rowId} outside 0..${this.numRows - 1}`]);
      if (idIdx > 0 && rowId < rowIds[idIdx - 1]) sorted = false;
    }
    if (!sorted) {
      const order = Int32Array.from(rowIds.keys()).sort((a, b) => rowIds[a] - rowIds[b]);
      const sortedIds = new Int32Array(rowIds.length);
      const inverse = new Int32Array(rowIds.length);
      for (let pos = 0; pos < order.length; pos++) {
        sortedIds[pos] = rowIds[order[pos]];
        inverse[order[pos]] = pos;
      }
      return takeRows(await this.readRows(column, sortedIds, profile), inverse);
    }
    const index = await this.loadIndex(colIdx, profile);
    const pageIdxs: number[] = [];
    const groupEnds: number[] = [];
    let pageIdx = 0;
    for (let idIdx = 0; idIdx < rowIds.length; idIdx++) {
      const rowId = rowIds[idIdx];
      while (rowId >= index.firstRow[pageIdx] + index.rowCount[pageIdx]) pageIdx++;
      if (pageIdxs.length === 0 || pageIdxs[pageIdxs.length - 1] !== pageIdx) {
        if (pageIdxs.length > 0) groupEnds.push(idIdx);
        pageIdxs.push(pageIdx);
      }
    }
    groupEnds.push(rowIds.length);
    const { pages, bytesRead } = await this.loadPages(colIdx, pageIdxs, profile);
    const parts: Vector[] = [];
    let groupStart = 0;
    for (let slot = 0; slot < pageIdxs.length; slot++) {
      const base = index.firstRow[pageIdxs[slot]];
      const local = new Int32Array(groupEnds[slot] - groupStart);
      for (let idIdx = groupStart; idIdx < groupEnds[slot]; idIdx++) local[idIdx - groupStart] = rowIds[idIdx] - base;
      parts.push(takeRows(pages[slot], local));
      groupStart = groupEnds[slot];
    }
    const out = concatPages(type, parts);
    this.countRead(profile, column, out.length, bytesRead);
    return out;
  }
}

function emptyVector(type: DataType): Vector {
  return vectorFromRaw(type, []);
}

/** Concatenate decoded pieces; dictionary pieces sharing one dictionary stay a DictVector. */
function concatPages(type: DataType, parts: readonly Vector[]): Vector {
  if (parts.length === 0) return emptyVector(type);
  if (parts.length === 1) return parts[0];
  const first = parts[0];
  if (first.kind === 'dict' && parts.every((part) => part.kind === 'dict' && part.dict === first.dict)) {
    let total = 0;
    let anyNull = false;
    for (const part of parts) {
      total += part.length;
      anyNull ||= part.nulls !== null;
    }
    const codes = new Int32Array(total);
    const nulls = anyNull ? new Uint8Array(total) : null;
    let pos = 0;
    for (const part of parts) {
      codes.set((part as typeof first).codes, pos);
      if (nulls !== null && part.nulls !== null) nulls.set(part.nulls, pos);
      pos += part.length;
    }
    return { kind: 'dict', type, length: total, codes, dict: first.dict, nulls };
  }
  return concatVectors(type, parts);
}
