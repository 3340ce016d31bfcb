/**
 * Building one segment's inverted-index file from the indexed column's vector (strings, numbers, dates,
 * or ARRAYs of them) and the index's analyzer: every row's value is analyzed into terms (parser none: the
 * whole value is one term; numbers are one term in an order-preserving byte form), the terms are sorted
 * and written in the format of inverted-file.ts. Pure and synchronous: the builder worker runs it off the
 * event loop (inverted-builder.ts), tests call it directly.
 */
import type { Vector } from '../../common/column';
import { decodeUtf8 } from '../../common/column';
import { GaleneError } from '../../common/errors';
import { ByteWriter } from '../encoding/byte-buffer';
import { bitWidth, packBits } from '../encoding/bit-pack';
import { crc32 } from '../checksum';
import type { AnalyzerConfig, Token } from './analyzer';
import { analyze } from './analyzer';
import type { InvertedFooter, KeyKind } from './inverted-file';
import { compareBytes, encodeHeader, encodeKey, encodeTrailer, INVERTED_FORMAT_VERSION, INVERTED_HEADER_BYTES, SMALL_POSTINGS, TERMS_PER_BLOCK, withCrc } from './inverted-file';
import { RowSet } from './row-set';

/** One term's occurrences while the segment is read: rows ascending, tf per row, positions per row in order. */
interface TermAcc {
  readonly rows: number[];
  readonly tfs: number[];
  readonly positions: number[];
}

export interface BuiltInvertedIndex {
  /** The file, front to back. */
  readonly parts: Uint8Array[];
  readonly size: number;
  readonly footer: InvertedFooter;
}

/** The key kind of an indexed vector (an ARRAY's elements decide for it). */
export function keyKindOf(vec: Vector): KeyKind {
  const leaf = vec.kind === 'array' ? vec.child : vec;
  switch (leaf.kind) {
    case 'string':
    case 'dict':
      return 'text';
    case 'object':
      return 'int';
    case 'fixed':
      return leaf.values instanceof BigInt64Array ? 'int' : 'f64';
    case 'array':
    case 'struct':
      throw new GaleneError('UNSUPPORTED', ['inverted index on nested ARRAY, MAP or STRUCT columns']);
  }
}

/** Reads one value (row or array element) of a leaf vector as tokens. */
type ValueTokens = (valueIdx: number) => readonly Token[];

const LATIN1 = new TextDecoder('latin1');

function leafTokens(leaf: Vector, kind: KeyKind, config: AnalyzerConfig): ValueTokens {
  if (leaf.kind === 'string') return (valueIdx) => analyze(decodeUtf8(leaf.bytes, leaf.offsets[valueIdx], leaf.offsets[valueIdx + 1]), config);
  if (leaf.kind === 'dict') {
    // Each dictionary entry is analyzed once.
    const cache: (readonly Token[] | undefined)[] = new Array(leaf.dict.length);
    return (valueIdx) => (cache[leaf.codes[valueIdx]] ??= analyze(leaf.dict[leaf.codes[valueIdx]], config));
  }
  if (kind === 'text') throw new GaleneError('INTERNAL', [`inverted index: text key for a ${leaf.kind} vector`]);
  const numericKind = kind as Exclude<KeyKind, 'text'>;
  if (leaf.kind === 'fixed' || leaf.kind === 'object') {
    const values = leaf.values as ArrayLike<number | bigint>;
    // A numeric term is held as the latin1 string of its key bytes: string order is byte order.
    return (valueIdx) => [{ term: LATIN1.decode(encodeKey(numericKind, values[valueIdx])), position: 0 }];
  }
  throw new GaleneError('UNSUPPORTED', ['inverted index on nested ARRAY columns']);
}

function isNullAt(nulls: Uint8Array | null, idx: number): boolean {
  return nulls !== null && nulls[idx] === 1;
}

/** Build the file of one segment's column `vec` (one row per segment row). */
export function buildInvertedIndex(vec: Vector, config: AnalyzerConfig): BuiltInvertedIndex {
  const kind = keyKindOf(vec);
  const tokenized = kind === 'text' && config.parser !== 'none';
  const hasPositions = tokenized && config.supportPhrase;
  const numRows = vec.length;
  const leaf = vec.kind === 'array' ? vec.child : vec;
  const tokensOf = leafTokens(leaf, kind, config);
  const terms = new Map<string, TermAcc>();
  const nullRows: number[] = [];
  const docLengths = tokenized ? new Uint32Array(numRows) : null;
  let totalTokens = 0;

  const addToken = (row: number, term: string, position: number): void => {
    let acc = terms.get(term);
    if (acc === undefined) {
      acc = { rows: [], tfs: [], positions: [] };
      terms.set(term, acc);
    }
    const last = acc.rows.length - 1;
    if (last >= 0 && acc.rows[last] === row) acc.tfs[last]++;
    else {
      acc.rows.push(row);
      acc.tfs.push(1);
    }
    if (hasPositions) acc.positions.push(position);
  };

  for (let row = 0; row < numRows; row++) {
    if (isNullAt(vec.nulls, row)) {
      nullRows.push(row);
      continue;
    }
    let rowTokens = 0;
    if (vec.kind === 'array') {
      let base = 0;
      for (let elemIdx = vec.offsets[row]; elemIdx < vec.offsets[row + 1]; elemIdx++) {
        if (isNullAt(leaf.nulls, elemIdx)) continue;
        const tokens = tokensOf(elemIdx);
        for (const token of tokens) addToken(row, token.term, base + token.position);
        rowTokens += tokens.length;
        base += tokens.length === 0 ? 0 : tokens[tokens.length - 1].position + 1;
      }
    } else {
      const tokens = tokensOf(row);
      for (const token of tokens) addToken(row, token.term, token.position);
      rowTokens = tokens.length;
    }
    if (docLengths) docLengths[row] = rowTokens;
    totalTokens += rowTokens;
  }

  const encoder = new TextEncoder();
  const sorted = [...terms.entries()].map(([term, acc]) => ({ bytes: kind === 'text' ? encoder.encode(term) : Uint8Array.from(term, (ch) => ch.charCodeAt(0)), acc }));
  sorted.sort((a, b) => compareBytes(a.bytes, b.bytes));

  const parts: Uint8Array[] = [encodeHeader()];
  let offset = INVERTED_HEADER_BYTES;
  const push = (bytes: Uint8Array): number => {
    const at = offset;
    parts.push(bytes);
    offset += bytes.length;
    return at;
  };

  // Term data, and for each term what its dictionary entry needs.
  const termDataStart = offset;
  const entries: { postingsLength: number; blobLength: number; crc: number; dataOffset: number }[] = [];
  for (const { acc } of sorted) {
    const postings = encodePostings(acc.rows);
    const blob = encodeBlob(acc, hasPositions);
    const dataOffset = push(postings);
    if (blob.length > 0) push(blob);
    entries.push({ postingsLength: postings.length, blobLength: blob.length, crc: crc32(blob, 0, blob.length, crc32(postings)), dataOffset });
  }
  const termData = { offset: termDataStart, size: offset - termDataStart };

  // Dictionary blocks and the block index.
  const blockIndex = new ByteWriter(1024);
  let blockCount = 0;
  for (let first = 0; first < sorted.length; first += TERMS_PER_BLOCK) {
    const last = Math.min(sorted.length, first + TERMS_PER_BLOCK);
    const block = new ByteWriter(4096);
    block.varint(last - first);
    block.varint(entries[first].dataOffset);
    let prev: Uint8Array = new Uint8Array(0);
    for (let termIdx = first; termIdx < last; termIdx++) {
      const bytes = sorted[termIdx].bytes;
      let shared = 0;
      while (shared < prev.length && shared < bytes.length && prev[shared] === bytes[shared]) shared++;
      block.varint(shared);
      block.varint(bytes.length - shared);
      block.bytes(bytes.subarray(shared));
      block.varint(sorted[termIdx].acc.rows.length);
      block.varint(entries[termIdx].postingsLength);
      block.varint(entries[termIdx].blobLength);
      block.u32(entries[termIdx].crc);
      prev = bytes;
    }
    const framed = withCrc(block.finish());
    const at = push(framed);
    blockIndex.varint(sorted[first].bytes.length);
    blockIndex.bytes(sorted[first].bytes);
    blockIndex.varint(at);
    blockIndex.varint(framed.length);
    blockIndex.varint(last - first);
    blockCount++;
  }

  let docLengthRegion: InvertedFooter['docLengths'] = null;
  if (docLengths) {
    let max = 0;
    for (let row = 0; row < numRows; row++) max = Math.max(max, docLengths[row]);
    const width = Math.max(1, bitWidth(max));
    const words = packBits(docLengths, numRows, width);
    const body = new ByteWriter(8 + words.byteLength);
    body.u8(width);
    body.typed(words);
    const framed = withCrc(body.finish());
    docLengthRegion = { offset: push(framed), size: framed.length };
  }
  const nullBytes = withCrc(RowSet.of(nullRows).serialize());
  const nulls = { offset: push(nullBytes), size: nullBytes.length };
  const indexBytes = withCrc(blockIndex.finish());
  const blockIndexRegion = { offset: push(indexBytes), size: indexBytes.length };

  const footer: InvertedFooter = {
    version: INVERTED_FORMAT_VERSION,
    numRows,
    keyKind: kind,
    analyzer: config,
    isArray: vec.kind === 'array',
    hasPositions,
    termCount: sorted.length,
    docCount: numRows - nullRows.length,
    totalTokens,
    nullCount: nullRows.length,
    termData,
    docLengths: docLengthRegion,
    nulls,
    blockIndex: blockIndexRegion,
    blockCount,
  };
  const footerBytes = encoder.encode(JSON.stringify(footer));
  push(footerBytes);
  push(encodeTrailer(footerBytes));
  return { parts, size: offset, footer };
}

/** Rows of a term: delta varints when few, else a RowSet. The reader tells them apart by doc frequency. */
function encodePostings(rows: readonly number[]): Uint8Array {
  if (rows.length <= SMALL_POSTINGS) {
    const out = new ByteWriter(rows.length * 3);
    let prev = 0;
    for (const row of rows) {
      out.varint(row - prev);
      prev = row;
    }
    return out.finish();
  }
  return RowSet.of(rows).serialize();
}

/** Per row of the postings: tf (+ delta-coded positions); empty when there are no positions and every tf is 1. */
function encodeBlob(acc: TermAcc, hasPositions: boolean): Uint8Array {
  if (!hasPositions && acc.tfs.every((tf) => tf === 1)) return new Uint8Array(0);
  const deltas: number[] = [];
  if (hasPositions) {
    let posIdx = 0;
    for (const tf of acc.tfs) {
      let prev = 0;
      for (let occurrence = 0; occurrence < tf; occurrence++) {
        const position = acc.positions[posIdx++];
        deltas.push(position - prev);
        prev = position;
      }
    }
  }
  if (acc.rows.length <= SMALL_POSTINGS) {
    const out = new ByteWriter(acc.rows.length * 2 + deltas.length * 2);
    let deltaIdx = 0;
    for (const tf of acc.tfs) {
      out.varint(tf);
      if (hasPositions) for (let occurrence = 0; occurrence < tf; occurrence++) out.varint(deltas[deltaIdx++]);
    }
    return out.finish();
  }
  const tfMinusOne = acc.tfs.map((tf) => tf - 1);
  const tfWidth = bitWidth(tfMinusOne.reduce((max, tf) => Math.max(max, tf), 0));
  const deltaWidth = bitWidth(deltas.reduce((max, delta) => Math.max(max, delta), 0));
  const out = new ByteWriter(16 + ((tfMinusOne.length * tfWidth + deltas.length * deltaWidth) >> 3));
  out.u8(tfWidth);
  out.u8(deltaWidth);
  packedBytes(out, tfMinusOne, tfWidth);
  packedBytes(out, deltas, deltaWidth);
  return out.finish();
}

/** `values` packed at `width` bits, as whole bytes (the reader knows the count). */
function packedBytes(out: ByteWriter, values: readonly number[], width: number): void {
  const words = packBits(values, values.length, width);
  out.bytes(new Uint8Array(words.buffer, words.byteOffset, Math.ceil((values.length * width) / 8)));
}
