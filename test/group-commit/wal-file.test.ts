/**
 * The WAL file and its record codec in-process: every vector kind round-trips bit for bit, a cut tail or
 * a flipped byte loses only its own record (test/hostile/durability.test.ts flips every byte), and
 * concurrent appends share fsyncs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Batch, getRaw, vectorFromRaw } from '../../src/common/column';
import { Types } from '../../src/common/types';
import { decodeBatch, encodeBatch } from '../../src/load/group-commit/batch-codec';
import { readWal, WalHeader, WalWriter } from '../../src/load/group-commit/wal-file';

const TYPES = [Types.INT, Types.BIGINT, Types.varchar(20), Types.DOUBLE, Types.LARGEINT, Types.DATE];

function sampleBatch(rows: number, seed: number): Batch {
  const raw = (colIdx: number, rowIdx: number): number | bigint | string | null => {
    if ((rowIdx + colIdx + seed) % 7 === 0) return null;
    switch (colIdx) {
      case 0: return rowIdx * 3 - seed;
      case 1: return BigInt(rowIdx) * 1_000_000_007n - BigInt(seed);
      case 2: return `s${seed}-${rowIdx}-ü`;
      case 3: return rowIdx / 7 + seed;
      case 4: return BigInt(rowIdx) ** 3n - 170141183460469231731687303715884105727n;
      default: return 19000 + rowIdx;
    }
  };
  return { length: rows, columns: TYPES.map((type, colIdx) => vectorFromRaw(type, Array.from({ length: rows }, (_, rowIdx) => raw(colIdx, rowIdx)))) };
}

const rowsOf = (batch: Batch): unknown[][] => Array.from({ length: batch.length }, (_, rowIdx) => batch.columns.map((vec) => getRaw(vec, rowIdx)));

test('a batch of every vector kind survives encode / decode unchanged (nulls included)', () => {
  const batch = sampleBatch(50, 3);
  const decoded = decodeBatch(encodeBatch(batch), TYPES);
  assert.deepEqual(rowsOf(decoded), rowsOf(batch));
  assert.deepEqual(decoded.columns.map((vec) => vec.kind), batch.columns.map((vec) => vec.kind));
  assert.throws(() => decodeBatch(encodeBatch(batch), TYPES.slice(1)), /columns/);
});

test('readWal stops at a cut tail and skips a corrupt record; concurrent appends share fsyncs', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-wal-'));
  try {
    const header: WalHeader = { dbId: 1, tableId: 2, tableName: 't', label: 'group_commit_x', txnId: 9, schemaVersion: 1, columnIds: [1, 2, 3, 4, 5, 6], createTime: 0 };
    const file = path.join(dir, '1', '2', '9_group_commit_x');
    const writer = await WalWriter.create(file, header, () => true);
    const batches = Array.from({ length: 20 }, (_, idx) => sampleBatch(5 + idx, idx));
    await Promise.all(batches.map((batch) => writer.append(encodeBatch(batch))));
    assert.ok(writer.syncs < batches.length, `20 concurrent appends took ${writer.syncs} fsyncs`);
    await writer.close();
    const whole = readWal(file)!;
    assert.deepEqual(whole.header, header);
    assert.equal(whole.cut, null);
    assert.deepEqual(whole.payloads.map((payload) => rowsOf(decodeBatch(payload, TYPES))), batches.map(rowsOf));

    const size = fs.statSync(file).size;
    for (const cutBytes of [1, 4, 5, 30]) {
      const copy = path.join(dir, `cut-${cutBytes}`);
      fs.writeFileSync(copy, fs.readFileSync(file).subarray(0, size - cutBytes));
      const cut = readWal(copy)!;
      assert.equal(cut.payloads.length, batches.length - 1, `cut ${cutBytes} bytes`);
      assert.match(cut.cut ?? '', /incomplete/);
    }
    const flipped = fs.readFileSync(file);
    flipped[flipped.length - 20] ^= 0xff;
    const flippedFile = path.join(dir, 'flipped');
    fs.writeFileSync(flippedFile, flipped);
    const corrupt = readWal(flippedFile)!;
    assert.equal(corrupt.payloads.length, batches.length - 1);
    assert.equal(corrupt.cut, null, 'a damaged record is reported as corruption, not as a torn tail');
    assert.match(corrupt.corrupt.map((item) => item.reason).join(), /checksum mismatch/);
    fs.writeFileSync(flippedFile, fs.readFileSync(file).subarray(0, 10));
    assert.equal(readWal(flippedFile), null, 'a cut header: nothing was acknowledged');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a preallocated WAL: records overwrite its zero tail, an append past it writes a new one; the reader ends at the zeros and takes a record cut by them for a torn tail', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-wal-prealloc-'));
  try {
    const header: WalHeader = { dbId: 1, tableId: 2, tableName: 't', label: 'group_commit_p', txnId: 4, schemaVersion: 1, columnIds: [1, 2, 3, 4, 5, 6], createTime: 0 };
    const file = path.join(dir, '1', '2', '4_group_commit_p');
    const preallocate = 64 * 1024;
    const writer = await WalWriter.create(file, header, () => true, preallocate);
    const headerBytes = writer.bytes;
    assert.equal(fs.statSync(file).size, headerBytes + preallocate, 'created with its zero tail');
    const batches = Array.from({ length: 6 }, (_, idx) => sampleBatch(10 + idx, idx));
    for (const batch of batches) await writer.append(encodeBatch(batch));
    assert.equal(fs.statSync(file).size, headerBytes + preallocate, 'appends inside the zeros keep the size');
    // One record larger than what is left: written past the zeros, with a new zero tail after it.
    const big = sampleBatch(3000, 99);
    await writer.append(encodeBatch(big));
    const grown = fs.statSync(file).size;
    assert.ok(writer.bytes > headerBytes + preallocate && grown >= writer.bytes + preallocate, `grown to ${grown} for ${writer.bytes} bytes of records`);
    await writer.close();
    const all = [...batches, big];
    const whole = readWal(file)!;
    assert.deepEqual([whole.header, whole.cut, whole.corrupt], [header, null, []]);
    assert.deepEqual(whole.payloads.map((payload) => rowsOf(decodeBatch(payload, TYPES))), all.map(rowsOf));

    // A crash mid-write of the last record leaves its first bytes followed by zeros: cut at every byte of
    // its frame, it is a torn tail (never acknowledged), every record before it intact, nothing corrupt.
    const data = fs.readFileSync(file);
    const lastStart = whole.offsets[whole.offsets.length - 1];
    const copy = path.join(dir, 'copy');
    const frameBytes = writer.bytes - lastStart;
    const cuts = [...Array.from({ length: 40 }, (_, idx) => idx + 1), ...Array.from({ length: Math.floor(frameBytes / 997) }, (_, idx) => (idx + 1) * 997), ...Array.from({ length: 8 }, (_, idx) => frameBytes - 8 + idx)];
    for (const written of cuts) {
      const torn = Buffer.from(data);
      torn.fill(0, lastStart + written, writer.bytes);
      fs.writeFileSync(copy, torn);
      const contents = readWal(copy)!;
      assert.equal(contents.payloads.length, all.length - 1, `${written} bytes of the last frame written`);
      assert.deepEqual(contents.corrupt, [], `${written} bytes written: not corruption`);
      assert.match(contents.cut ?? '', /incomplete/, `${written} bytes written`);
    }
    // A complete record that is damaged is still corruption, also just before the zeros.
    for (const pos of [lastStart + 30, writer.bytes - 5, writer.bytes - 1]) {
      const flipped = Buffer.from(data);
      flipped[pos] ^= 0x5a;
      fs.writeFileSync(copy, flipped);
      const contents = readWal(copy)!;
      assert.equal(contents.payloads.length, all.length - 1, `flip at ${pos}`);
      assert.equal(contents.cut, null, `flip at ${pos}: not a torn tail`);
      assert.match(contents.corrupt.map((item) => item.reason).join(), /checksum mismatch/, `flip at ${pos}`);
    }
    // Garbage inside the zero tail, away from the last record, is reported; the records are all kept.
    const garbage = Buffer.from(data);
    garbage[writer.bytes + 100] = 7;
    fs.writeFileSync(copy, garbage);
    const dirty = readWal(copy)!;
    assert.equal(dirty.payloads.length, all.length);
    assert.equal(dirty.corrupt.length, 1);
    // Without fsync nothing is preallocated (the zeros would only cost writes).
    const unsynced = await WalWriter.create(path.join(dir, '1', '2', '5_group_commit_q'), header, () => false, preallocate);
    assert.equal(fs.statSync(unsynced.filePath).size, unsynced.bytes);
    await unsynced.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
