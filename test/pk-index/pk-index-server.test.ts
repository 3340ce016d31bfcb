/**
 * The primary-key index of merge-on-write UNIQUE KEY tables end to end (a server in this process,
 * compactions run by hand): random upserts and deletes over many loads, with and without compaction,
 * leave exactly the rows of a model; point lookups on the full key (plain and prepared, the short-circuit
 * path on and off) equal the model and read one tablet through the index; segments written before the
 * index existed (their records removed) still publish and answer correctly; EXPLAIN shows bucket pruning.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as mysql from 'mysql2/promise';
import type { Connection } from 'mysql2/promise';
import { CompactionScheduler, DEFAULT_COMPACTION_POLICY } from '../../src/be/compaction';
import { Config } from '../../src/common/config';
import { mulberry32 } from '../../src/common/prng';
import { RunningGalene, startGalene } from '../../src/fe/galene-server';
import { purgeIndexRecords } from '../../src/fe/statements/build-index';
import { PRIMARY_KEY_INDEX_NAME } from '../../src/storage/primary-key-index';
import { makeDataDir } from '../helpers/galene-process';
import { connect, lastQueryProfile, queryRows } from '../helpers/mysql-client';

let server: RunningGalene;
let conn: Connection;
/** For prepared statements: mysql2's binary rows, without the text typeCast of `connect`. */
let ps: Connection;
let compaction: CompactionScheduler;

const BUCKETS = 8;

before(async () => {
  server = await startGalene(new Config({ data_dir: makeDataDir('galene-pkindex-'), query_port: 0, http_port: 0, webserver_port: 0, brpc_port: 0, disable_auto_compaction: true }));
  compaction = new CompactionScheduler(server.frontend.catalog, server.frontend.backend, { ...DEFAULT_COMPACTION_POLICY, retiredFileGraceMs: 0 });
  conn = await connect(server.ports.query_port);
  await conn.query('CREATE DATABASE pk');
  await conn.query('USE pk');
  ps = await mysql.createConnection({ host: '127.0.0.1', port: server.ports.query_port, user: 'root', password: '', database: 'pk', dateStrings: true });
});

after(async () => {
  compaction?.stop();
  await ps?.end();
  await conn?.end();
  await server?.stop();
});

const counter = (profile: Map<string, string>, name: string): number => Number(profile.get(name) ?? 0);
const keyOf = (k1: number, k2: string): string => `${k1}|${k2}`;

/** A table and the model of its current rows: key -> [k1, k2, v, s]. */
class Model {
  readonly rows = new Map<string, [number, string, number, string | null]>();
  constructor(readonly table: string) {}

  async upsert(rows: readonly [number, string, number, string | null][]): Promise<void> {
    for (const row of rows) this.rows.set(keyOf(row[0], row[1]), row);
    await conn.query(`INSERT INTO ${this.table} VALUES ${rows.map(([k1, k2, v, s]) => `(${k1}, '${k2}', ${v}, ${s === null ? 'NULL' : `'${s}'`})`).join(',')}`);
  }

  async remove(keys: readonly [number, string][]): Promise<void> {
    for (const [k1, k2] of keys) {
      this.rows.delete(keyOf(k1, k2));
      await conn.query(`DELETE FROM ${this.table} WHERE k1 = ${k1} AND k2 = '${k2}'`);
    }
  }

  expected(): string[][] {
    return [...this.rows.values()].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)).map((row) => row.map((value) => (value === null ? null : String(value))) as string[]);
  }

  async check(label: string): Promise<void> {
    const got = await queryRows(conn, `SELECT k1, k2, v, s FROM ${this.table} ORDER BY k1, k2`);
    assert.deepEqual(got, this.expected(), `${label}: whole table`);
  }

  /** Point lookups of present and absent keys, plain and prepared (short-circuit on and off). */
  async checkLookups(label: string, rand: () => number, expectIndex: boolean): Promise<void> {
    const present = [...this.rows.values()];
    for (let probeIdx = 0; probeIdx < 12; probeIdx++) {
      const [k1, k2] = probeIdx % 3 === 2 || present.length === 0 ? [Math.floor(rand() * 400), `x${probeIdx}`] : present[Math.floor(rand() * present.length)];
      const row = this.rows.get(keyOf(k1, k2));
      const expected = row === undefined ? [] : [[String(row[2]), row[3]]];
      const plain = `SELECT v, s FROM ${this.table} WHERE k1 = ${k1} AND k2 = '${k2}'`;
      assert.deepEqual(await queryRows(conn, plain), expected, `${label}: ${plain}`);
      const profile = await lastQueryProfile(conn);
      assert.equal(counter(profile, 'TabletsScanned'), 1, `${label}: one tablet read`);
      assert.equal(counter(profile, 'TabletsPruned'), BUCKETS - 1);
      if (expectIndex) assert.ok(counter(profile, 'PrimaryKeyIndexLookups') > 0, `${label}: the primary-key index answered`);
      for (const shortCircuit of ['true', 'false']) {
        await ps.query(`SET enable_short_circuit_query = ${shortCircuit}`);
        const [result] = await ps.execute({ sql: `SELECT v, s FROM ${this.table} WHERE k1 = ? AND k2 = ?`, rowsAsArray: true }, [k1, k2]);
        assert.deepEqual((result as unknown[][]).map((cells) => cells.map((cell) => (cell === null ? null : String(cell)))), expected, `${label}: prepared, short circuit ${shortCircuit}`);
        const prepared = await lastQueryProfile(ps);
        assert.equal(counter(prepared, 'ShortCircuitQueries'), shortCircuit === 'true' ? 1 : 0, `${label}: short circuit ${shortCircuit} in the profile`);
      }
    }
    await ps.query('SET enable_short_circuit_query = true');
  }
}

async function compactAll(table: string): Promise<void> {
  const state = server.frontend.catalog.getTable('pk', table);
  for (const tablet of state.tablets) {
    const fresh = server.frontend.catalog.getTable('pk', table);
    const rowsets = fresh.rowsets.filter((rowset) => rowset.tabletId === tablet.id);
    if (rowsets.length > 1) await compaction.compactTablet(fresh, tablet.id, rowsets);
  }
}

function randomRows(rand: () => number, count: number, round: number): [number, string, number, string | null][] {
  return Array.from({ length: count }, () => {
    const k1 = Math.floor(rand() * 400);
    return [k1, `k${Math.floor(rand() * 3)}`, round * 1000 + Math.floor(rand() * 1000), rand() < 0.1 ? null : `s${round}`];
  });
}

async function createTable(name: string): Promise<Model> {
  await conn.query(`CREATE TABLE ${name} (k1 INT NOT NULL, k2 VARCHAR(8) NOT NULL, v INT, s VARCHAR(16))
    UNIQUE KEY(k1, k2) DISTRIBUTED BY HASH(k1) BUCKETS ${BUCKETS} PROPERTIES ("enable_unique_key_merge_on_write" = "true", "disable_auto_compaction" = "true")`);
  return new Model(name);
}

test('random upserts and deletes over many loads, with compaction: rows equal the model; lookups use the index', async () => {
  const model = await createTable('u');
  const rand = mulberry32(42);
  for (let round = 1; round <= 14; round++) {
    await model.upsert(randomRows(rand, 60 + Math.floor(rand() * 80), round));
    if (round % 3 === 0) {
      const present = [...model.rows.values()];
      await model.remove(Array.from({ length: 5 }, () => present[Math.floor(rand() * present.length)]).map(([k1, k2]) => [k1, k2] as [number, string]));
    }
    if (round % 5 === 0) await compactAll('u');
    await model.check(`round ${round}`);
  }
  const state = server.frontend.catalog.getTable('pk', 'u');
  const segments = state.rowsets.flatMap((rowset) => rowset.segments);
  assert.ok(segments.length > BUCKETS, 'several segments per tablet');
  assert.ok(segments.every((segment) => segment.indexes?.some((record) => record.name === PRIMARY_KEY_INDEX_NAME && record.kind === 'primary_key')), 'every segment, loaded or compacted, has a primary-key index');
  await model.checkLookups('after loads', rand, true);
  const explain = (await queryRows(conn, "EXPLAIN SELECT v FROM u WHERE k1 = 17 AND k2 = 'k1'")).map(([line]) => line).join('\n');
  assert.match(explain, new RegExp(`tablets=1/${BUCKETS}`));
  const inList = (await queryRows(conn, 'EXPLAIN SELECT v FROM u WHERE k1 IN (1, 2)')).map(([line]) => line).join('\n');
  assert.match(inList, new RegExp(`tablets=[12]/${BUCKETS}`));
  assert.doesNotMatch((await queryRows(conn, 'EXPLAIN SELECT v FROM u WHERE k1 > 3')).map(([line]) => line).join('\n'), /tablets=/);
});

test('segments written before the index existed: publishes and lookups fall back, new segments get one', async () => {
  const model = await createTable('old');
  const rand = mulberry32(7);
  for (let round = 1; round <= 4; round++) await model.upsert(randomRows(rand, 120, round));
  const state = server.frontend.catalog.getTable('pk', 'old');
  const purged = purgeIndexRecords(server.frontend.catalog, state.schema.id, [PRIMARY_KEY_INDEX_NAME]);
  assert.ok(purged.length >= 4, 'the index records were removed');
  await model.check('without indexes');
  await model.checkLookups('without indexes', rand, false);
  for (let round = 5; round <= 9; round++) {
    await model.upsert(randomRows(rand, 120, round));
    if (round === 7) {
      const present = [...model.rows.values()];
      await model.remove(present.slice(0, 6).map(([k1, k2]) => [k1, k2] as [number, string]));
    }
    await model.check(`mixed, round ${round}`);
  }
  await model.checkLookups('mixed segments', rand, false);
  await compactAll('old');
  await model.check('compacted');
  await model.checkLookups('compacted', rand, true);
});

test('the short-circuit path declines what it cannot answer exactly: other shapes and parameter types run the normal way', async () => {
  const model = await createTable('sc');
  await model.upsert([[5, 'a', 50, 'five'], [6, 'b', 60, null]]);
  const run = async (sql: string, params: unknown[]): Promise<[unknown[][], number]> => {
    const [result] = await ps.execute({ sql, rowsAsArray: true }, params as never);
    return [(result as unknown[][]).map((cells) => cells.map((cell) => (cell === null ? null : String(cell)))), counter(await lastQueryProfile(ps), 'ShortCircuitQueries')];
  };
  assert.deepEqual(await run('SELECT * FROM sc WHERE k1 = ? AND k2 = ?', [5, 'a']), [[['5', 'a', '50', 'five']], 1]);
  assert.deepEqual(await run('SELECT s, v FROM sc t WHERE t.k2 = ? AND t.k1 = ?', ['b', 6]), [[[null, '60']], 1]);
  assert.deepEqual(await run('SELECT v FROM sc WHERE k1 = ? AND k2 = ?', [5.5, 'a']), [[], 0], 'a non-integral number for an INT key');
  assert.deepEqual(await run('SELECT v FROM sc WHERE k1 = ? AND k2 = ?', [null, 'a']), [[], 1], 'k = NULL matches nothing');
  assert.deepEqual(await run('SELECT v FROM sc WHERE k1 = ?', [5]), [[['50']], 0], 'not the full key');
  assert.deepEqual(await run('SELECT v + 1 FROM sc WHERE k1 = ? AND k2 = ?', [5, 'a']), [[['51']], 0], 'an expression in the select list');
  assert.deepEqual(await run('SELECT v FROM sc WHERE k1 = ? AND k2 = ? AND v > ?', [5, 'a', 1]), [[['50']], 0], 'a predicate beyond the key');
});
