/**
 * storage/: the segment file and what builds or reads it (DESIGN §3): the segment writer and reader, page
 * encodings (encoding/), compression, zone maps, the short-key index, row ranges, the decoded-page cache,
 * memtable preparation and the table-model merge shared by loads, scans and compaction. Nothing here knows
 * SQL or operators. DESIGN §6: may import io/ (every file read goes through its FileCache), meta/ (schemas)
 * and common/ (column vectors, types, errors); exec/, load/ and be/ build on it.
 */
export { writeSegment } from './segment-writer';
export type { SegmentWriteOptions } from './segment-writer';
export { SegmentReader } from './segment-reader';
export type { SegmentReaderOptions } from './segment-reader';
export { PageCache } from './page-cache';
export { RowRanges } from './row-ranges';
