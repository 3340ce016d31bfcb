/**
 * Durability under hostile conditions: a Group Commit WAL with one flipped byte anywhere keeps every intact
 * record and reports the damaged one (in-process over every byte position, and end to end through a real
 * server after SIGKILL, with the replay summary in the ready line); WAL files are owner-only; a second
 * server on a data directory is refused while a SIGKILLed one leaves no stale lock; the meta store never
 * lets a raw SQLite error out; and the test runner's preload fails a process whose FileHandle was closed
 * by garbage collection.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { GaleneError } from '../../src/common/errors';
import { mulberry32 } from '../../src/common/prng';
import { crc32 } from '../../src/storage/checksum';
import { readWal, WalHeader, WalWriter } from '../../src/load/group-commit/wal-file';
import { MetaStore } from '../../src/meta/meta-store';
import type { TableSchema } from '../../src/meta/schema';
import { httpRequest } from '../group-commit/helpers';
import { PROJECT_ROOT, startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

const HEADER: WalHeader = { dbId: 3, tableId: 7, tableName: 't', label: 'group_commit_abc', txnId: 11, schemaVersion: 1, columnIds: [1, 2], createTime: 1 };

const tempDir = (name: string): string => fs.mkdtempSync(path.join(os.tmpdir(), `galene-dur-${name}-`));

/** Payloads of varied sizes; one holds the frame magic so a resync cannot be fooled by payload bytes. */
function samplePayloads(count: number, seed: number): Buffer[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, (_, recordIdx) => {
    const payload = Buffer.alloc(1 + Math.floor(random() * 120));
    for (let byteIdx = 0; byteIdx < payload.length; byteIdx++) payload[byteIdx] = Math.floor(random() * 256);
    if (recordIdx === 3 && payload.length >= 8) Buffer.from('GWFR').copy(payload, 2);
    return payload;
  });
}

async function writeWal(file: string, payloads: readonly Buffer[]): Promise<void> {
  const writer = await WalWriter.create(file, HEADER, () => false);
  for (const payload of payloads) await writer.append(payload);
  await writer.close();
}

test('one flipped byte at every position of a WAL: every intact record is kept, the damaged one reported', async () => {
  const dir = tempDir('flip');
  try {
    const file = path.join(dir, '3', '7', '11_group_commit_abc');
    const payloads = samplePayloads(12, 5);
    await writeWal(file, payloads);
    const original = fs.readFileSync(file);
    const clean = readWal(file)!;
    assert.deepEqual(clean.payloads.map((payload) => Buffer.from(payload)), payloads);
    assert.deepEqual([clean.corrupt, clean.cut, clean.formatVersion], [[], null, 2]);
    // Each record's frame: [offset, offset + 16 + length + 4).
    const frames = clean.offsets.map((offset, recordIdx) => ({ start: offset, end: offset + 20 + payloads[recordIdx].length }));
    const random = mulberry32(17);
    const copy = path.join(dir, 'copy');
    for (let pos = 0; pos < original.length; pos++) {
      const flipped = Buffer.from(original);
      flipped[pos] ^= 1 + Math.floor(random() * 255);
      fs.writeFileSync(copy, flipped);
      const contents = readWal(copy);
      assert.ok(contents !== null, `flip at ${pos}: the file is not treated as empty`);
      assert.deepEqual(contents.header, HEADER, `flip at ${pos}: the header survives in its copy`);
      const intact = payloads.filter((_, recordIdx) => pos < frames[recordIdx].start || pos >= frames[recordIdx].end);
      assert.deepEqual(contents.payloads.map((payload) => Buffer.from(payload)), intact, `flip at ${pos}: every intact record is kept`);
      assert.equal(contents.corrupt.length, 1, `flip at ${pos}: exactly one damaged stretch reported: ${JSON.stringify(contents.corrupt)}`);
      assert.ok(contents.corrupt[0].offset <= pos, `flip at ${pos}: reported at ${contents.corrupt[0].offset}`);
      assert.equal(contents.cut, null, `flip at ${pos}: not mistaken for a torn tail`);
    }
    // A torn tail is not corruption; a file cut inside its first header copy acknowledged nothing.
    fs.writeFileSync(copy, original.subarray(0, original.length - 3));
    const torn = readWal(copy)!;
    assert.deepEqual([torn.payloads.length, torn.corrupt.length], [payloads.length - 1, 0]);
    assert.match(torn.cut ?? '', /incomplete record/);
    fs.writeFileSync(copy, original.subarray(0, 20));
    assert.equal(readWal(copy), null);
    // Both header copies damaged: not "empty" (that would delete it), the records are still listed.
    const noHeader = Buffer.from(original);
    noHeader[8 + 20] ^= 0xff;
    noHeader[frames[0].start - 3] ^= 0xff;
    fs.writeFileSync(copy, noHeader);
    const headless = readWal(copy)!;
    assert.equal(headless.header, null);
    assert.equal(headless.payloads.length, payloads.length);
    assert.equal(headless.corrupt.length, 2);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('format version 1 WALs (no frame magic) are still read', () => {
  const dir = tempDir('v1');
  try {
    const json = Buffer.from(JSON.stringify(HEADER));
    const head = Buffer.alloc(12 + json.length + 4);
    head.write('GWAL', 0, 'latin1');
    head.writeUInt32LE(1, 4);
    head.writeUInt32LE(json.length, 8);
    json.copy(head, 12);
    head.writeUInt32LE(crc32(json), 12 + json.length);
    const payloads = samplePayloads(3, 9);
    const records = payloads.map((payload) => {
      const out = Buffer.alloc(payload.length + 8);
      out.writeUInt32LE(payload.length, 0);
      payload.copy(out, 4);
      out.writeUInt32LE(crc32(payload), payload.length + 4);
      return out;
    });
    const file = path.join(dir, 'v1');
    fs.writeFileSync(file, Buffer.concat([head, ...records]));
    const contents = readWal(file)!;
    assert.equal(contents.formatVersion, 1);
    assert.deepEqual(contents.header, HEADER);
    assert.deepEqual(contents.payloads.map((payload) => Buffer.from(payload)), payloads);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('WAL files are created 0600 and their directories 0700', async () => {
  const dir = tempDir('mode');
  try {
    const file = path.join(dir, 'wal', '3', '7', '11_group_commit_abc');
    await writeWal(file, samplePayloads(1, 1));
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700);
    assert.equal(fs.statSync(path.dirname(path.dirname(file))).mode & 0o777, 0o700);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const ASYNC_TABLE = (name: string): string =>
  `CREATE TABLE ${name} (id INT NOT NULL, note VARCHAR(40)) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("replication_num" = "1", "group_commit_mode" = "async_mode", "group_commit_interval_ms" = "600000")`;

/** WAL files still waiting for replay (the quarantine folder `.corrupt` excluded). */
function liveWals(dataDir: string): string[] {
  const root = path.join(dataDir, 'wal');
  const out: string[] = [];
  if (!fs.existsSync(root)) return out;
  for (const db of fs.readdirSync(root)) {
    if (db.startsWith('.')) continue;
    for (const table of fs.readdirSync(path.join(root, db))) for (const name of fs.readdirSync(path.join(root, db, table))) out.push(path.join(root, db, table, name));
  }
  return out;
}

test('SIGKILL, then flipped bytes in the WALs: restart keeps every intact acknowledged row and reports each damaged record', async () => {
  const dataDir = tempDir('e2e');
  let server = await startGalene({ dataDir });
  try {
    let conn = await connect(server.ports.query_port);
    await conn.query('CREATE DATABASE d');
    await conn.query('USE d');
    for (const name of ['a', 'b', 'c']) {
      await conn.query(ASYNC_TABLE(name));
      for (let id = 1; id <= 5; id++) await conn.query(`INSERT INTO ${name} VALUES (${id}, '${name}${id}')`);
    }
    await conn.end();
    await server.kill('SIGKILL');
    const wals = new Map(liveWals(dataDir).map((file) => [readWal(file)!.header!.tableName, file]));
    assert.deepEqual([...wals.keys()].sort(), ['a', 'b', 'c']);
    const flip = (table: string, positions: (contents: NonNullable<ReturnType<typeof readWal>>) => number[]): void => {
      const file = wals.get(table)!;
      const contents = readWal(file)!;
      assert.equal(contents.payloads.length, 5, `table ${table}: one WAL record per acknowledged INSERT`);
      const bytes = fs.readFileSync(file);
      for (const pos of positions(contents)) bytes[pos] ^= 0x5a;
      fs.writeFileSync(file, bytes);
    };
    // a: record 2 loses a payload byte, record 4 its length field; b: a header copy's CRC; c: both header copies.
    flip('a', (contents) => [contents.offsets[1] + 22, contents.offsets[3] + 9]);
    flip('b', () => [8 + 13]);
    flip('c', (contents) => [8 + 30, contents.offsets[0] - 30]);
    server = await startGalene({ dataDir });
    conn = await connect(server.ports.query_port, { database: 'd' });
    assert.deepEqual(await queryRows(conn, 'SELECT id FROM a ORDER BY id'), [['1'], ['3'], ['5']]);
    assert.deepEqual(await queryRows(conn, 'SELECT id FROM b ORDER BY id'), [['1'], ['2'], ['3'], ['4'], ['5']]);
    assert.deepEqual(await queryRows(conn, 'SELECT count(*) FROM c'), [['0']]);
    await conn.end();
    const stderr = server.stderr();
    for (const table of ['a', 'b', 'c']) assert.ok(stderr.includes(`WAL ${wals.get(table)}: corrupt data at byte `), `a log line names the WAL of ${table}:\n${stderr}`);
    assert.match(stderr, /no intact copy of its header; not replayed, moved to .*\.corrupt/);
    assert.match(stderr, /WAL replay: 3 files, 2 replayed, 0 failed, 5 corrupt records skipped, 1 quarantined/);
    const metrics = (await httpRequest('GET', `http://127.0.0.1:${server.ports.webserver_port}/metrics`)).body;
    assert.match(metrics, /^doris_be_wal_corrupt_records_total 5$/m);
    assert.match(metrics, /^doris_be_wal_quarantined_total 1$/m);
    assert.deepEqual(liveWals(dataDir), []);
    assert.equal(fs.readdirSync(path.join(dataDir, 'wal', '.corrupt')).length, 1, 'the unreplayable WAL is kept');
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the ready line on stdout carries the WAL replay summary', async () => {
  const dataDir = tempDir('ready');
  const file = path.join(dataDir, 'wal', '3', '7', '11_group_commit_abc');
  await writeWal(file, samplePayloads(2, 3));
  const bytes = fs.readFileSync(file);
  const firstRecord = readWal(file)!.offsets[0];
  bytes[8 + 30] ^= 0xff;
  bytes[firstRecord - 30] ^= 0xff;
  fs.writeFileSync(file, bytes);
  const args = [path.join(PROJECT_ROOT, 'bin', 'galene.js'), 'start', '--query_port', '0', '--http_port', '0', '--webserver_port', '0', '--brpc_port', '0', '--data_dir', dataDir];
  const child = spawn(process.execPath, args, { cwd: dataDir, stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`galene exited with ${code}`)));
      readline.createInterface({ input: child.stdout! }).on('line', (line) => {
        if (line.startsWith('{')) resolve(JSON.parse(line) as Record<string, unknown>);
      });
    });
    assert.equal(ready.event, 'ready');
    assert.deepEqual([ready.wal_files, ready.wal_replayed, ready.wal_replay_failed, ready.wal_corrupt_records, ready.wal_quarantined], [1, 0, 0, 2, 1]);
    assert.equal(fs.existsSync(file), false, 'moved aside, not replayed');
    assert.deepEqual(fs.readdirSync(path.join(dataDir, 'wal', '.corrupt')), ['3_7_11_group_commit_abc']);
  } finally {
    child.kill('SIGKILL');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a second server on the same data_dir is refused; a SIGKILLed server leaves no stale lock', async () => {
  const dataDir = tempDir('lock');
  let first = await startGalene({ dataDir });
  try {
    await assert.rejects(startGalene({ dataDir }), (err: Error) => {
      assert.match(err.message, /exited with 1 before ready/);
      assert.match(err.message, new RegExp(`data_dir ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use by another Galene server \\(process ${first.child.pid}\\); stop it first`));
      return true;
    });
    const conn = await connect(first.ports.query_port);
    await conn.query('CREATE DATABASE still_mine');
    await conn.end();
    await first.kill('SIGKILL');
    first = await startGalene({ dataDir });
    const again = await connect(first.ports.query_port);
    assert.deepEqual(await queryRows(again, "SHOW DATABASES LIKE 'still_mine'"), [['still_mine']]);
    await again.end();
  } finally {
    await first.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the meta store turns SQLite errors into coded errors: no raw "UNIQUE constraint failed"', () => {
  const dir = tempDir('meta');
  const meta = new MetaStore(dir);
  try {
    meta.createDatabase('x', {});
    assert.throws(
      () => meta.createDatabase('x', {}),
      (err: unknown) => {
        assert.ok(err instanceof GaleneError);
        assert.equal(err.code, 'DATABASE_EXISTS');
        assert.equal(err.message, "Can't create database 'x'; database exists");
        assert.equal((err.cause as { code?: string }).code, 'SQLITE_CONSTRAINT_UNIQUE');
        return true;
      },
    );
    const db = meta.createDatabase('y', {});
    const schema = { id: 1000, name: 't', distribution: { buckets: 1 } } as unknown as TableSchema;
    meta.createTable(db.id, schema);
    assert.throws(() => meta.createTable(db.id, { ...schema, id: 1001 }), (err: unknown) => err instanceof GaleneError && err.message === "Table 't' already exists");
    // The same id under another name is not "exists": a coded IO error naming the SQLite code, not its text.
    assert.throws(
      () => meta.createTable(db.id, { ...schema, name: 'u' }),
      (err: unknown) => err instanceof GaleneError && err.code === 'IO_ERROR' && /meta store createTable failed \(SQLITE_CONSTRAINT_PRIMARYKEY\)$/.test(err.message) && !/constraint failed/.test(err.message),
    );
    assert.equal(meta.listTables().length, 1, 'nothing changed');
  } finally {
    meta.close();
  }
  try {
    // better-sqlite3 throws a bare TypeError on a closed connection: it arrives as a coded GaleneError too.
    assert.throws(() => meta.listDatabases(), (err: unknown) => err instanceof GaleneError && err.code === 'INTERNAL' && err.cause instanceof TypeError);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the test runner preload fails a process whose FileHandle is closed by garbage collection', () => {
  const dir = tempDir('gc');
  try {
    const preload = path.join(PROJECT_ROOT, 'test', 'fail-on-gc-close.js');
    const leaky = path.join(dir, 'leaky.js');
    fs.writeFileSync(leaky, "require('node:fs/promises').open(__filename, 'r');\n");
    const tidy = path.join(dir, 'tidy.js');
    fs.writeFileSync(tidy, "require('node:fs/promises').open(__filename, 'r').then((handle) => handle.close());\n");
    const leak = spawnSync(process.execPath, ['--require', preload, leaky], { encoding: 'utf8' });
    assert.equal(leak.status, 1);
    assert.match(leak.stderr, /a FileHandle was closed by garbage collection/);
    const clean = spawnSync(process.execPath, ['--require', preload, tidy], { encoding: 'utf8' });
    assert.equal(clean.status, 0, clean.stderr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
