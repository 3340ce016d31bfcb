/**
 * Nothing Galene accepts is silently ignored. Two walkers over the registries:
 * - every session variable (SESSION_VARIABLES): a read-only one refuses SET; one Galene honours has its
 *   effect shown here (EFFECTS, which must name exactly the honoured variables); every other answers a
 *   Note naming it when SET to a value other than its default;
 * - every CREATE TABLE property key (TABLE_PROPERTIES): one Galene honours has its effect shown here
 *   (PROPERTY_EFFECTS, exactly the honoured keys); every other answers a Note on CREATE TABLE (and on
 *   ALTER TABLE ... SET) unless its value asks for what Galene does anyway.
 * Over mysql2 against a real server. (Stream Load headers have their own walker in test/stream-load.)
 */
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { after, before, test } from 'node:test';
import type * as mysql from 'mysql2/promise';
import { SESSION_VARIABLES, type SessionVariableDef } from '../../src/fe/session-variables';
import { TABLE_PROPERTIES, type TablePropertyDef } from '../../src/fe/statements/table-properties';
import { insertInfo, waitForRows } from '../group-commit/helpers';
import { auditLines, GaleneProcess, startGalene } from '../helpers/galene-process';
import { connect, lastQueryProfile, queryRows } from '../helpers/mysql-client';
import { sharedS3BehindProxy } from '../helpers/s3-behind-proxy';

let server: GaleneProcess;
let root: mysql.Connection;
const ROWS = 2000;

before(async () => {
  server = await startGalene();
  root = await connect(server.ports.query_port);
  await root.query('CREATE DATABASE w');
  await root.query('CREATE TABLE w.t (k INT, v VARCHAR(20)) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
  await root.query(`INSERT INTO w.t VALUES ${Array.from({ length: ROWS }, (_, idx) => `(${idx}, 'value ${idx % 7}')`).join(', ')}`);
  await root.query('CREATE TABLE w.sink (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
  // Group Commit batches of this table commit after 100 ms (the default is 10 s).
  await root.query('CREATE TABLE w.quick (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("group_commit_interval_ms" = "100")');
});

after(async () => {
  await root?.end();
  await server?.stop();
});

/** A fresh connection to database w, closed after `use`. */
async function withConnection<T>(use: (conn: mysql.Connection) => Promise<T>, options: Partial<mysql.ConnectionOptions> = {}): Promise<T> {
  const conn = await connect(server.ports.query_port, { database: 'w', ...options });
  try {
    return await use(conn);
  } finally {
    conn.destroy();
  }
}

/** A statement that runs for minutes: the 8e9-row cross join of w.t with itself (stopped by a limit). */
const ENDLESS = 'SELECT count(*) FROM t a, t b, t c';

/** A SET GLOBAL for the time of `use`, then DEFAULT again. */
async function withGlobal(name: string, value: string | number, use: () => Promise<void>): Promise<void> {
  await root.query(`SET GLOBAL ${name} = ${value}`);
  try {
    await use();
  } finally {
    await root.query(`SET GLOBAL ${name} = DEFAULT`);
  }
}

/** EXPLAIN of `sql`, one string. */
async function explainText(conn: mysql.Connection, sql: string): Promise<string> {
  return (await queryRows(conn, `EXPLAIN ${sql}`)).map((row) => row[0]).join('\n');
}

/** The value of the one profile counter whose name matches `pattern` (undefined when none does). */
function findCounter(profile: Map<string, string>, pattern: RegExp): string | undefined {
  return [...profile].find(([name]) => pattern.test(name))?.[1];
}

/** Each variable Galene honours, and what its value visibly does. */
const EFFECTS: Record<string, () => Promise<void>> = {
  async time_zone() {
    await withConnection(async (conn) => {
      await conn.query("SET time_zone = '+08:00'");
      assert.deepEqual(await queryRows(conn, 'SELECT from_unixtime(0)'), [['1970-01-01 08:00:00']]);
      await conn.query("SET time_zone = 'UTC'");
      assert.deepEqual(await queryRows(conn, 'SELECT from_unixtime(0)'), [['1970-01-01 00:00:00']]);
    });
  },
  async sql_select_limit() {
    await withConnection(async (conn) => {
      await conn.query('SET sql_select_limit = 2');
      assert.equal((await queryRows(conn, 'SELECT k FROM t')).length, 2);
    });
  },
  async query_timeout() {
    await withConnection(async (conn) => {
      await conn.query('SET query_timeout = 1');
      await assert.rejects(conn.query(ENDLESS), /Timeout.*query_timeout \(1 s\)/);
    });
  },
  async inline_cte_referenced_threshold() {
    await withConnection(async (conn) => {
      const twice = 'EXPLAIN WITH c AS (SELECT k FROM t) SELECT count(*) FROM c a, c b WHERE a.k = b.k';
      assert.match((await queryRows(conn, twice)).join('\n'), /CTE ANCHOR/);
      await conn.query('SET inline_cte_referenced_threshold = 2');
      assert.doesNotMatch((await queryRows(conn, twice)).join('\n'), /CTE ANCHOR/);
    });
  },
  async enable_cte_materialize() {
    await withConnection(async (conn) => {
      const twice = 'EXPLAIN WITH c AS (SELECT k FROM t) SELECT count(*) FROM c a, c b WHERE a.k = b.k';
      assert.match((await queryRows(conn, twice)).join('\n'), /CTE ANCHOR/);
      await conn.query('SET enable_cte_materialize = false');
      assert.doesNotMatch((await queryRows(conn, twice)).join('\n'), /CTE ANCHOR/);
    });
  },
  async cte_max_recursion_depth() {
    await withConnection(async (conn) => {
      const rounds = 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 10) SELECT count(*) FROM c';
      assert.deepEqual(await queryRows(conn, rounds), [['10']]);
      await conn.query('SET cte_max_recursion_depth = 5');
      await assert.rejects(conn.query(rounds), /Recursive query aborted after 6 iterations/);
    });
  },
  async insert_timeout() {
    await withConnection(async (conn) => {
      await conn.query('SET insert_timeout = 1');
      await assert.rejects(conn.query('INSERT INTO sink SELECT a.k FROM t a, t b, t c'), /Timeout/);
    });
  },
  async exec_mem_limit() {
    await withConnection(async (conn) => {
      await conn.query('SET exec_mem_limit = 1048576');
      await assert.rejects(conn.query('SELECT a.k, b.k, count(*) FROM t a, t b GROUP BY a.k, b.k'), /MEM_LIMIT_EXCEEDED/);
    });
  },
  async wait_timeout() {
    await withConnection(async (conn) => {
      await conn.query('SET wait_timeout = 1');
      const core = (conn as unknown as { connection: NodeJS.EventEmitter }).connection;
      const err = await new Promise<Error>((resolve) => core.once('error', resolve));
      assert.match(err.message, /inactivity/);
    });
  },
  async interactive_timeout() {
    await withGlobal('interactive_timeout', 7, async () => {
      await withConnection(async (conn) => assert.deepEqual(await queryRows(conn, 'SELECT @@wait_timeout'), [['7']]), { flags: ['INTERACTIVE'] });
    });
  },
  async connect_timeout() {
    await withGlobal('connect_timeout', 2, async () => {
      const started = Date.now();
      const socket = net.connect(server.ports.query_port, '127.0.0.1');
      socket.on('data', () => undefined); // the greeting; no handshake response is ever sent
      await new Promise<void>((resolve) => socket.once('close', () => resolve()));
      const seconds = (Date.now() - started) / 1000;
      assert.ok(seconds >= 1.5 && seconds < 8, `dropped after ${seconds} s`);
    });
  },
  async max_connections() {
    const sessions = (await queryRows(root, 'SHOW PROCESSLIST')).length;
    await withGlobal('max_connections', sessions, async () => {
      await assert.rejects(connect(server.ports.query_port), { errno: 1040 });
    });
  },
  async max_user_connections() {
    await root.query("CREATE USER 'walker'@'%' IDENTIFIED BY 'pw'");
    try {
      await withGlobal('max_user_connections', 1, async () => {
        await withConnection(async () => {
          await assert.rejects(connect(server.ports.query_port, { user: 'walker', password: 'pw' }), { errno: 1203 });
        }, { user: 'walker', password: 'pw', database: undefined });
      });
    } finally {
      await root.query("DROP USER 'walker'@'%'");
    }
  },
  async max_allowed_packet() {
    await withGlobal('max_allowed_packet', 1024, async () => {
      await withConnection(async (conn) => {
        await assert.rejects(conn.query(`SELECT '${'x'.repeat(4000)}'`), { errno: 1153 });
      });
    });
  },
  async group_commit() {
    await withConnection(async (conn) => {
      await conn.query("SET group_commit = 'sync_mode'");
      assert.match((await insertInfo(conn, 'INSERT INTO quick VALUES (1)')).label, /^group_commit_/);
    });
  },
  async enable_prepared_stmt_audit_log() {
    await withConnection(async (conn) => {
      await conn.query('SET enable_prepared_stmt_audit_log = true');
      await conn.execute('SELECT ? AS walker_audited', [1]);
      assert.ok((await auditLines(server.dataDir, 'walker_audited', 1)).length >= 1, 'the prepared execution is audited');
    });
  },
  async enable_short_circuit_query() {
    await root.query('CREATE TABLE w.sc (k INT, v INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 2');
    await root.query('INSERT INTO w.sc VALUES (1, 10), (2, 20)');
    await withConnection(
      async (conn) => {
        const lookup = async (): Promise<[unknown, string | undefined]> => {
          const [rows] = await conn.execute({ sql: 'SELECT v FROM sc WHERE k = ?', rowsAsArray: true }, [2]);
          return [rows, (await lastQueryProfile(conn)).get('ShortCircuitQueries')];
        };
        assert.deepEqual(await lookup(), [[[20]], '1'], 'on (the default): EXECUTE takes the short-circuit path');
        await conn.query('SET enable_short_circuit_query = false');
        assert.deepEqual(await lookup(), [[[20]], undefined], 'off: planned like any query');
      },
      { typeCast: true },
    );
  },
  async max_prepared_stmt_count() {
    await withConnection(async (conn) => {
      await conn.query('SET max_prepared_stmt_count = 0');
      await assert.rejects(conn.query("PREPARE s FROM 'SELECT 1'"), { errno: 1461 });
    });
  },
  async enable_unique_key_partial_update() {
    await root.query('CREATE TABLE w.pu (k INT, a INT, b INT) UNIQUE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1');
    await root.query('INSERT INTO w.pu VALUES (1, 10, 20)');
    await withConnection(async (conn) => {
      await conn.query('SET enable_unique_key_partial_update = true');
      await conn.query('INSERT INTO pu (k, a) VALUES (1, 11)');
    });
    assert.deepEqual(await queryRows(root, 'SELECT k, a, b FROM w.pu'), [['1', '11', '20']], 'b kept: only a was updated');
  },
  async disable_nereids_rules() {
    await withConnection(async (conn) => {
      const plan = async (): Promise<string> => (await queryRows(conn, 'EXPLAIN SELECT k FROM t WHERE k > 1 + 1')).map((row) => row[0]).join('\n');
      assert.match(await plan(), /predicate: \(k > 2\)/);
      await conn.query("SET disable_nereids_rules = 'constant_folding'");
      assert.match(await plan(), /predicate: \(k > CAST\(\(1 \+ 1\) AS INT\)\)/);
    });
  },
  async experimental_enable_virtual_slot_for_cse() {
    await withConnection(async (conn) => {
      const sql = 'SELECT k, upper(v), lower(v) FROM t WHERE length(upper(v)) > 3 ORDER BY k LIMIT 5';
      const plan = async (): Promise<string> => (await queryRows(conn, `EXPLAIN ${sql}`)).map((row) => row[0]).join('\n');
      assert.doesNotMatch(await plan(), /virtual columns/);
      const off = await queryRows(conn, sql);
      await conn.query('SET experimental_enable_virtual_slot_for_cse = true');
      assert.match(await plan(), /virtual columns: \[v0 := upper\(v\)\]/);
      assert.deepEqual(await queryRows(conn, sql), off);
    });
  },
  async runtime_filter_mode() {
    await withConnection(async (conn) => {
      const sql = 'SELECT a.k, b.v FROM t a JOIN t b ON a.k = b.k WHERE b.k < 3';
      assert.match(await explainText(conn, sql), /runtime filters: RF000\[in_or_bloom\] <- k, RF001\[min_max\] <- k/);
      const filtered = await queryRows(conn, sql);
      assert.equal(filtered.length, 3);
      await conn.query("SET runtime_filter_mode = 'OFF'");
      assert.doesNotMatch(await explainText(conn, sql), /runtime filters/);
      assert.deepEqual(await queryRows(conn, sql), filtered);
      await assert.rejects(conn.query("SET runtime_filter_mode = 'SOMETIMES'"), { errno: 1231 });
    });
  },
  async runtime_filter_type() {
    await withConnection(async (conn) => {
      const sql = 'SELECT a.k FROM t a JOIN t b ON a.k = b.k WHERE b.k < 3';
      await conn.query("SET runtime_filter_type = 'MIN_MAX'");
      assert.match(await explainText(conn, sql), /runtime filters: RF000\[min_max\] <- k\n/);
      await conn.query('SET runtime_filter_type = 3'); // Doris's bit mask: IN | BLOOM_FILTER
      assert.match(await explainText(conn, sql), /runtime filters: RF000\[in\] <- k, RF001\[bloom\] <- k\n/);
      await assert.rejects(conn.query("SET runtime_filter_type = 'NO_SUCH'"), { errno: 1231 });
    });
  },
  async enable_runtime_filter_prune() {
    await withConnection(async (conn) => {
      const whole = 'SELECT count(*) FROM t a JOIN t b ON a.k = b.k';
      assert.doesNotMatch(await explainText(conn, whole), /runtime filters/, 'a build side nothing filters plans no filter');
      assert.match(await explainText(conn, `${whole} WHERE b.k < 3`), /runtime filters: RF000/);
      await conn.query('SET enable_runtime_filter_prune = false');
      assert.match(await explainText(conn, whole), /runtime filters: RF000\[in_or_bloom\] <- k/);
      assert.deepEqual(await queryRows(conn, whole), [[String(ROWS)]]);
    });
  },
  async runtime_filters_max_num() {
    await withConnection(async (conn) => {
      const sql = 'SELECT a.k FROM t a JOIN t b ON a.k = b.k WHERE b.k < 3';
      await conn.query('SET runtime_filters_max_num = 1');
      assert.match(await explainText(conn, sql), /runtime filters: RF000\[in_or_bloom\] <- k\n/);
      await conn.query('SET runtime_filters_max_num = 0');
      assert.doesNotMatch(await explainText(conn, sql), /runtime filters/);
    });
  },
  async runtime_filter_max_in_num() {
    await withConnection(async (conn) => {
      const sql = 'SELECT a.k FROM t a JOIN t b ON a.k = b.k WHERE b.k < 3';
      const rows = await queryRows(conn, sql);
      assert.equal(Number(findCounter(await lastQueryProfile(conn), /\.RF000\.InFilterSize$/)), 3);
      await conn.query('SET runtime_filter_max_in_num = 2');
      assert.deepEqual(await queryRows(conn, sql), rows);
      const profile = await lastQueryProfile(conn);
      assert.equal(findCounter(profile, /\.RF000\.InFilterSize$/), undefined, 'three keys are more than 2: a bloom filter');
      assert.ok(Number(findCounter(profile, /\.RF000\.BloomFilterBytes$/)) > 0);
    });
  },
  async runtime_bloom_filter_max_size() {
    await withConnection(async (conn) => {
      const sql = 'SELECT count(*) FROM t a JOIN t b ON a.k = b.k';
      await conn.query('SET enable_runtime_filter_prune = false'); // the build side is the whole table
      await conn.query('SET runtime_filter_max_in_num = 0');
      assert.deepEqual(await queryRows(conn, sql), [[String(ROWS)]]);
      assert.equal(Number(findCounter(await lastQueryProfile(conn), /\.RF000\.BloomFilterBytes$/)), 4096, '2 bytes per build row');
      await conn.query('SET runtime_bloom_filter_max_size = 1024');
      assert.deepEqual(await queryRows(conn, sql), [[String(ROWS)]]);
      assert.equal(Number(findCounter(await lastQueryProfile(conn), /\.RF000\.BloomFilterBytes$/)), 1024);
      await assert.rejects(conn.query('SET runtime_bloom_filter_max_size = 10'), { errno: 1231 });
    });
  },
  async topn_lazy_materialization_threshold() {
    await withConnection(async (conn) => {
      const sql = 'SELECT k, v FROM t ORDER BY k DESC LIMIT 3';
      const plan = async (): Promise<string> => (await queryRows(conn, `EXPLAIN ${sql}`)).map((row) => row[0]).join('\n');
      assert.match(await plan(), /MATERIALIZE #\d+\n\s+table: w\.t\n\s+lazy materialization: \[v\]/);
      const lazy = await queryRows(conn, sql);
      await conn.query('SET topn_lazy_materialization_threshold = 2');
      assert.doesNotMatch(await plan(), /MATERIALIZE/);
      assert.deepEqual(await queryRows(conn, sql), lazy);
    });
  },
  async hnsw_ef_search() {
    await withConnection(async (conn) => {
      await conn.query(`CREATE TABLE IF NOT EXISTS vec (k INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX idx_e (e) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="l2_distance", "dim"="2"))
        DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1`);
      await conn.query('INSERT INTO vec VALUES (1, [0, 0]), (2, [1, 1]), (3, [2, 2])');
      const sql = 'SELECT k FROM vec ORDER BY l2_distance_approximate(e, [1, 1.2]) LIMIT 2';
      const plan = async (): Promise<string> => (await queryRows(conn, `EXPLAIN ${sql}`)).map((row) => row[0]).join('\n');
      assert.match(await plan(), /hnsw_ef_search: 32\n/);
      await conn.query('SET hnsw_ef_search = 200');
      assert.match(await plan(), /hnsw_ef_search: 200\n/);
      assert.deepEqual(await queryRows(conn, sql), [['2'], ['3']]);
      await assert.rejects(conn.query('SET hnsw_ef_search = 0'), { errno: 1231 });
    });
  },
  async optimize_index_scan_parallelism() {
    // 10 segments of 6,600 rows (no index file: below ann_index_build_min_segment_rows; no compaction), 66,000
    // rows in all, so the table scans in the workers; ann_search_in_thread_max_segments 0 keeps the search there.
    await root.query(`CREATE TABLE w.vecp (k INT NOT NULL, e ARRAY<FLOAT> NOT NULL, INDEX idx_e (e) USING ANN PROPERTIES("index_type"="hnsw", "metric_type"="l2_distance", "dim"="2"))
      DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("disable_auto_compaction" = "true")`);
    const SEGMENT_ROWS = 6600;
    for (let segmentIdx = 0; segmentIdx < 10; segmentIdx++) {
      const first = segmentIdx * SEGMENT_ROWS;
      await root.query(`INSERT INTO w.vecp VALUES ${Array.from({ length: SEGMENT_ROWS }, (_, idx) => `(${first + idx}, [${(first + idx) % 1000}, ${Math.floor((first + idx) / 1000)}])`).join(', ')}`);
    }
    await root.query('ADMIN SET FRONTEND CONFIG ("ann_search_in_thread_max_segments" = "0")');
    try {
      await withConnection(async (conn) => {
        const sql = 'SELECT k FROM vecp ORDER BY l2_distance_approximate(e, [500.2, 30.1]) LIMIT 3';
        const tasks = async (): Promise<{ rows: string[][]; tasks: number }> => {
          const rows = (await queryRows(conn, sql)) as string[][];
          const [[id]] = await queryRows(conn, 'SHOW QUERY PROFILE "/"');
          const profile = new Map((await queryRows(conn, `SHOW QUERY PROFILE "/${id}"`)).map(([name, value]) => [name, value]));
          return { rows, tasks: Number(profile.get('ParallelScanTasks') ?? 0) };
        };
        const grouped = await tasks();
        assert.equal(grouped.tasks, 1, 'off: the 10 small segments share one task (66,000 rows < 2,097,152)');
        await conn.query('SET optimize_index_scan_parallelism = true');
        const perSegment = await tasks();
        assert.equal(perSegment.tasks, 10, 'on: one task per segment');
        assert.deepEqual(perSegment.rows, grouped.rows);
        assert.deepEqual(grouped.rows, [['30500'], ['30501'], ['31500']]);
      });
    } finally {
      await root.query('ADMIN SET FRONTEND CONFIG ("ann_search_in_thread_max_segments" = "8")');
    }
  },
  async names() {
    await withConnection(async (conn) => {
      await conn.query('SET NAMES utf8');
      assert.deepEqual(await queryRows(conn, 'SELECT @@names, @@character_set_client, @@character_set_connection, @@character_set_results'), [['utf8', 'utf8', 'utf8', 'utf8']]);
      await assert.rejects(conn.query('SET NAMES latin1'), { errno: 1115 });
    });
  },
};

/** A value other than the default, as SET syntax. */
function otherValue(def: SessionVariableDef): string {
  switch (def.type) {
    case 'bool':
      return def.defaultValue === true ? 'false' : 'true';
    case 'int':
      return String(Number(def.defaultValue) + 1);
    case 'double':
      return String(Number(def.defaultValue) + 0.5);
    default:
      return "'galene_walker'";
  }
}

test('session variables: the honoured ones are exactly those with an effect shown here', () => {
  const honoured = SESSION_VARIABLES.filter((def) => def.honoured && !def.readOnly).map((def) => def.name).sort();
  assert.deepEqual(Object.keys(EFFECTS).sort(), honoured);
});

for (const def of SESSION_VARIABLES.filter((item) => item.honoured && !item.readOnly)) {
  test(`session variable ${def.name} is honoured`, { timeout: 60_000 }, async () => EFFECTS[def.name]());
}

test('every read-only session variable refuses SET; every other one Galene does not act on answers a Note', async () => {
  await withConnection(async (conn) => {
    let noted = 0;
    for (const def of SESSION_VARIABLES) {
      if (def.readOnly) {
        await assert.rejects(conn.query(`SET ${def.globalOnly ? 'GLOBAL ' : ''}${def.name} = ${otherValue(def)}`), { errno: 1231 }, def.name);
        continue;
      }
      if (def.honoured) continue;
      const scope = def.globalOnly ? 'GLOBAL ' : '';
      const [header] = await conn.query(`SET ${scope}${def.name} = ${otherValue(def)}`);
      assert.equal((header as mysql.ResultSetHeader).warningStatus, 1, `SET ${def.name} answers one warning`);
      const warnings = await queryRows(conn, 'SHOW WARNINGS');
      assert.deepEqual(warnings, [['Note', '1105', `Variable '${def.name}' is accepted for Doris compatibility; its value changes nothing in Galene`]], def.name);
      await conn.query(`SET ${scope}${def.name} = DEFAULT`);
      noted++;
    }
    assert.ok(noted >= 200, `${noted} variables answer a Note`);
  });
});

/** Versions (rowsets) of a table's tablets, from SHOW TABLETS. */
async function versions(table: string): Promise<{ count: number; bytes: number }> {
  const rows = await queryRows(root, `SHOW TABLETS FROM w.${table}`);
  return { count: rows.reduce((sum, row) => sum + Number(row[2]), 0), bytes: rows.reduce((sum, row) => sum + Number(row[4]), 0) };
}

let tableCounter = 0;
/** CREATE TABLE w.<fresh name> (k INT, seq INT, v VARCHAR(200)) of `model` with `properties`; returns the name. */
async function createTable(model: string, properties: Record<string, string>): Promise<string> {
  const name = `p${++tableCounter}`;
  const props = Object.entries(properties).map(([key, value]) => `"${key}" = "${value}"`).join(', ');
  await root.query(`CREATE TABLE w.${name} (k INT, seq INT, v VARCHAR(200)) ${model}(k) DISTRIBUTED BY HASH(k) BUCKETS 1${props ? ` PROPERTIES (${props})` : ''}`);
  return name;
}

/** The walker's S3 vault (created on first use) and the object keys under its root path. */
async function walkerVault(): Promise<{ name: string; id: string; keys: () => Promise<string[]> }> {
  const s3 = await sharedS3BehindProxy();
  await s3.createVault(root, 'walker_vault', 'walker-vault', { ifNotExists: true });
  const id = (await queryRows(root, 'SHOW STORAGE VAULTS')).find((row) => row[0] === 'walker_vault')![1]!;
  const keys = (): Promise<string[]> => s3.bucketKeys('walker-vault');
  return { name: 'walker_vault', id, keys };
}

/** A table created with `properties` keeps its rows in the walker's vault (its bucket gets the segment). */
async function showLivesInVault(properties: (vault: { name: string; id: string }) => Record<string, string>): Promise<void> {
  const vault = await walkerVault();
  const before = (await vault.keys()).length;
  const table = await createTable('DUPLICATE KEY', properties(vault));
  await root.query(`INSERT INTO w.${table} VALUES (1, 1, 'in the vault')`);
  assert.deepEqual(await queryRows(root, `SELECT v FROM w.${table}`), [['in the vault']]);
  assert.equal((await vault.keys()).length, before + 1, 'one segment object in the vault');
  assert.match((await queryRows(root, `SHOW CREATE TABLE w.${table}`))[0][1]!, new RegExp(`"storage_vault_id" = "${vault.id}"`));
}

/** The same 2,000 distinct rows into each table (the row-store effects compare their segment sizes). */
async function fillForRowStore(tables: readonly string[]): Promise<void> {
  const rows = Array.from({ length: 2000 }, (_, idx) => `(${idx}, ${idx * 7}, 'row ${idx} ${'r'.repeat(idx % 50)}')`).join(', ');
  for (const table of tables) await root.query(`INSERT INTO w.${table} VALUES ${rows}`);
}

/** Each table property Galene honours, and what it visibly does. */
/** Poll `done` every 250 ms for up to 30 s. */
async function waitFor(done: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await done())) {
    assert.ok(Date.now() < deadline, what);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The partition names of a new DATE-partitioned table with these dynamic_partition.* properties (and their buckets). */
async function dynamicPartitions(properties: Record<string, string>): Promise<{ names: string[]; buckets: string[] }> {
  const name = `dyn${++tableCounter}`;
  const props = Object.entries(properties).map(([key, value]) => `"${key}" = "${value}"`).join(', ');
  await root.query(`CREATE TABLE w.${name} (d DATE NOT NULL, v INT) DUPLICATE KEY(d) PARTITION BY RANGE(d) () DISTRIBUTED BY HASH(d) BUCKETS 3 PROPERTIES (${props})`);
  const rows = await queryRows(root, `SHOW PARTITIONS FROM w.${name}`);
  return { names: rows.map((row) => row[1]!), buckets: rows.map((row) => row[8]!) };
}

/** yyyyMMdd of today + `offset` days (the server's time zone is the test's). */
function dayName(offset: number): string {
  const now = new Date();
  const at = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset);
  return `${at.getFullYear()}${String(at.getMonth() + 1).padStart(2, '0')}${String(at.getDate()).padStart(2, '0')}`;
}

const DAY_AHEAD = { 'dynamic_partition.time_unit': 'DAY', 'dynamic_partition.end': '1' };

const PROPERTY_EFFECTS: Record<string, () => Promise<void>> = {
  async 'dynamic_partition.enable'() {
    assert.deepEqual((await dynamicPartitions({ ...DAY_AHEAD, 'dynamic_partition.enable': 'true' })).names, [`p${dayName(0)}`, `p${dayName(1)}`]);
    assert.deepEqual((await dynamicPartitions({ ...DAY_AHEAD, 'dynamic_partition.enable': 'false' })).names, []);
  },
  async 'dynamic_partition.time_unit'() {
    const year = String(new Date().getFullYear());
    assert.deepEqual((await dynamicPartitions({ ...DAY_AHEAD, 'dynamic_partition.time_unit': 'YEAR' })).names, [`p${year}`, `p${Number(year) + 1}`]);
    await assert.rejects(dynamicPartitions({ ...DAY_AHEAD, 'dynamic_partition.time_unit': 'DECADE' }), /Unsupported time unit DECADE/);
  },
  async 'dynamic_partition.start'() {
    const history = { ...DAY_AHEAD, 'dynamic_partition.create_history_partition': 'true' };
    assert.deepEqual((await dynamicPartitions({ ...history, 'dynamic_partition.start': '-1' })).names, [`p${dayName(-1)}`, `p${dayName(0)}`, `p${dayName(1)}`]);
    await assert.rejects(dynamicPartitions({ ...history, 'dynamic_partition.start': '0' }), /Dynamic partition start must less than 0/);
  },
  async 'dynamic_partition.end'() {
    assert.deepEqual((await dynamicPartitions({ ...DAY_AHEAD, 'dynamic_partition.end': '2' })).names, [0, 1, 2].map((offset) => `p${dayName(offset)}`));
  },
  async 'dynamic_partition.prefix'() {
    assert.deepEqual((await dynamicPartitions({ ...DAY_AHEAD, 'dynamic_partition.prefix': 'day_' })).names, [`day_${dayName(0)}`, `day_${dayName(1)}`]);
  },
  async 'dynamic_partition.buckets'() {
    assert.deepEqual((await dynamicPartitions({ ...DAY_AHEAD, 'dynamic_partition.buckets': '5' })).buckets, ['5', '5']);
    assert.deepEqual((await dynamicPartitions(DAY_AHEAD)).buckets, ['3', '3'], "default: the table's buckets");
  },
  async 'dynamic_partition.create_history_partition'() {
    const old = { ...DAY_AHEAD, 'dynamic_partition.start': '-2' };
    assert.deepEqual((await dynamicPartitions({ ...old, 'dynamic_partition.create_history_partition': 'true' })).names.length, 4);
    assert.deepEqual((await dynamicPartitions({ ...old, 'dynamic_partition.create_history_partition': 'false' })).names.length, 2);
  },
  async storage_vault_name() {
    await showLivesInVault((vault) => ({ storage_vault_name: vault.name }));
    await assert.rejects(createTable('DUPLICATE KEY', { storage_vault_name: 'no_such_vault' }), /Storage vault 'no_such_vault' does not exist/);
  },
  async storage_vault_id() {
    await showLivesInVault((vault) => ({ storage_vault_id: vault.id }));
    await assert.rejects(createTable('DUPLICATE KEY', { storage_vault_id: '1' }), /Storage vault with id 1 does not exist/);
  },
  async file_cache_ttl_seconds() {
    const vault = await walkerVault();
    const kept = await createTable('DUPLICATE KEY', { storage_vault_name: vault.name, file_cache_ttl_seconds: '3600' });
    const plain = await createTable('DUPLICATE KEY', { storage_vault_name: vault.name });
    const cacheTypes = async (table: string): Promise<string[]> => {
      const tablets = (await queryRows(root, `SHOW TABLETS FROM w.${table}`)).map((row) => row[0]);
      return (await queryRows(root, `SELECT DISTINCT TYPE FROM information_schema.file_cache_info WHERE TABLET_ID IN (${tablets.join(', ')}) ORDER BY TYPE`)).map((row) => row[0]!);
    };
    for (const table of [kept, plain]) {
      await root.query(`INSERT INTO w.${table} VALUES (1, 1, 'cached'), (2, 2, 'blocks')`);
      assert.deepEqual(await queryRows(root, `SELECT count(*), max(v) FROM w.${table}`), [['2', 'cached']]);
    }
    // Blocks are written into the cache in the background: wait for them to show.
    for (let attempt = 0; attempt < 50 && ((await cacheTypes(kept)).length === 0 || (await cacheTypes(plain)).length === 0); attempt++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(await cacheTypes(kept), ['ttl'], 'every block of the TTL table is in the TTL queue');
    const plainTypes = await cacheTypes(plain);
    assert.ok(plainTypes.length > 0 && !plainTypes.includes('ttl'), `the other table's blocks are not TTL blocks: ${plainTypes.join(', ')}`);
    await assert.rejects(createTable('DUPLICATE KEY', { file_cache_ttl_seconds: 'soon' }), /file_cache_ttl_seconds/);
  },
  async compression() {
    const plain = await createTable('DUPLICATE KEY', { compression: 'NONE' });
    const packed = await createTable('DUPLICATE KEY', { compression: 'ZSTD' });
    // Distinct values (no dictionary page), each very compressible.
    const rows = Array.from({ length: 500 }, (_, idx) => `(${idx}, 0, '${idx} ${'galene '.repeat(20)}')`).join(', ');
    for (const table of [plain, packed]) await root.query(`INSERT INTO w.${table} VALUES ${rows}`);
    const [none, zstd] = [(await versions(plain)).bytes, (await versions(packed)).bytes];
    assert.ok(zstd * 2 < none, `ZSTD segments (${zstd} bytes) are much smaller than uncompressed ones (${none})`);
  },
  async enable_unique_key_merge_on_write() {
    // A partial-column INSERT updates only its columns in a merge-on-write table; merge-on-read replaces the row.
    const mow = await createTable('UNIQUE KEY', { enable_unique_key_merge_on_write: 'true' });
    const mor = await createTable('UNIQUE KEY', { enable_unique_key_merge_on_write: 'false' });
    await withConnection(async (conn) => {
      await conn.query('SET enable_unique_key_partial_update = true');
      for (const table of [mow, mor]) {
        await conn.query(`INSERT INTO ${table} VALUES (1, 1, 'kept')`);
        await conn.query(`INSERT INTO ${table} (k, seq) VALUES (1, 2)`);
      }
    });
    assert.deepEqual(await queryRows(root, `SELECT v FROM w.${mow}`), [['kept']]);
    assert.deepEqual(await queryRows(root, `SELECT v FROM w.${mor}`), [[null]]);
  },
  async 'function_column.sequence_col'() {
    const table = await createTable('UNIQUE KEY', { 'function_column.sequence_col': 'seq' });
    await root.query(`INSERT INTO w.${table} VALUES (1, 5, 'newer')`);
    await root.query(`INSERT INTO w.${table} VALUES (1, 3, 'older')`);
    assert.deepEqual(await queryRows(root, `SELECT seq, v FROM w.${table}`), [['5', 'newer']], 'the smaller sequence value did not replace the row');
  },
  async group_commit_mode() {
    const table = await createTable('DUPLICATE KEY', { group_commit_mode: 'sync_mode', group_commit_interval_ms: '100' });
    assert.match((await insertInfo(root, `INSERT INTO w.${table} VALUES (1, 1, 'a')`)).label, /^group_commit_/);
  },
  async group_commit_interval_ms() {
    const table = await createTable('DUPLICATE KEY', { group_commit_mode: 'async_mode', group_commit_interval_ms: '1500' });
    const started = Date.now();
    await root.query(`INSERT INTO w.${table} VALUES (1, 1, 'a')`);
    assert.deepEqual(await queryRows(root, `SELECT count(*) FROM w.${table}`), [['0']], 'not visible before the interval');
    await waitForRows(root, `SELECT count(*) FROM w.${table}`, (rows) => rows[0][0] === '1', 20_000);
    assert.ok(Date.now() - started >= 1400, 'visible once the interval passed');
  },
  async group_commit_data_bytes() {
    // A 10-minute interval: only the 1-byte size limit can commit the batch this soon.
    const table = await createTable('DUPLICATE KEY', { group_commit_mode: 'async_mode', group_commit_interval_ms: '600000', group_commit_data_bytes: '1' });
    await root.query(`INSERT INTO w.${table} VALUES (1, 1, 'a')`);
    await waitForRows(root, `SELECT count(*) FROM w.${table}`, (rows) => rows[0][0] === '1', 20_000);
  },
  async disable_auto_compaction() {
    const kept = await createTable('DUPLICATE KEY', { disable_auto_compaction: 'true' });
    const compacted = await createTable('DUPLICATE KEY', {});
    for (let load = 0; load < 8; load++) {
      for (const table of [kept, compacted]) await root.query(`INSERT INTO w.${table} VALUES (${load}, 0, 'x')`);
    }
    const deadline = Date.now() + 30_000;
    while ((await versions(compacted)).count >= 8) {
      assert.ok(Date.now() < deadline, 'the other table was compacted within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.equal((await versions(kept)).count, 8, 'the table with disable_auto_compaction kept its rowsets');
  },
  async 'binlog.enable'() {
    const logged = await createTable('DUPLICATE KEY', { 'binlog.enable': 'true' });
    const plain = await createTable('DUPLICATE KEY', { 'binlog.enable': 'false' });
    for (const table of [logged, plain]) await root.query(`INSERT INTO w.${table} VALUES (1, 1, 'a'), (2, 2, 'b')`);
    assert.deepEqual(await queryRows(root, `SELECT k, __op FROM binlog("w.${logged}") ORDER BY __seq`), [['1', 'INSERT'], ['2', 'INSERT']]);
    await assert.rejects(root.query(`SELECT * FROM binlog("w.${plain}")`), /has no row binlog/);
  },
  async 'binlog.format'() {
    const table = await createTable('UNIQUE KEY', { 'binlog.enable': 'true', 'binlog.format': 'ROW' });
    await root.query(`INSERT INTO w.${table} VALUES (1, 1, 'a')`);
    assert.deepEqual(await queryRows(root, `SELECT k, __op FROM binlog("w.${table}")`), [['1', 'UPSERT']]);
    await assert.rejects(createTable('DUPLICATE KEY', { 'binlog.enable': 'true', 'binlog.format': 'SQL' }), /Invalid binlog.format value: SQL/);
  },
  async 'binlog.ttl_seconds'() {
    // Retention applies when the tablet's data rowsets are compacted: ttl 0 drops every change-log rowset then.
    const expiring = await createTable('DUPLICATE KEY', { 'binlog.enable': 'true', 'binlog.ttl_seconds': '0' });
    await root.query(`INSERT INTO w.${expiring} VALUES (0, 0, 'x')`);
    assert.equal((await queryRows(root, `SELECT count(*) FROM binlog("w.${expiring}")`))[0][0], '1', 'logged until a compaction');
    for (let load = 1; load < 8; load++) await root.query(`INSERT INTO w.${expiring} VALUES (${load}, 0, 'x')`);
    await waitFor(async () => (await queryRows(root, `SELECT count(*) FROM binlog("w.${expiring}")`))[0][0] === '0', 'the compaction dropped the expired change log within 30 s');
    assert.equal((await queryRows(root, `SELECT count(*) FROM w.${expiring}`))[0][0], '8', 'the data stays');
  },
  async 'binlog.max_history_nums'() {
    const capped = await createTable('DUPLICATE KEY', { 'binlog.enable': 'true', 'binlog.max_history_nums': '2' });
    for (let load = 0; load < 8; load++) await root.query(`INSERT INTO w.${capped} VALUES (${load}, 0, 'x')`);
    await waitFor(async () => (await queryRows(root, `SELECT count(*) FROM binlog("w.${capped}")`))[0][0] === '2', 'the compaction kept the newest two change-log rowsets');
    assert.deepEqual(await queryRows(root, `SELECT k FROM binlog("w.${capped}")`), [['6'], ['7']]);
  },
  async 'binlog.need_historical_value'() {
    const table = await createTable('UNIQUE KEY', { 'binlog.enable': 'true', 'binlog.need_historical_value': 'false' });
    await root.query(`INSERT INTO w.${table} VALUES (1, 1, 'old')`);
    await root.query(`INSERT INTO w.${table} VALUES (1, 2, 'new')`);
    assert.deepEqual(await queryRows(root, `SELECT v, __op FROM binlog("w.${table}")`), [['old', 'UPSERT'], ['new', 'UPSERT']], 'no before-image row');
    await assert.rejects(createTable('UNIQUE KEY', { 'binlog.enable': 'true', 'binlog.need_historical_value': 'true' }), /not supported/);
  },
  async light_schema_change() {
    const table = await createTable('DUPLICATE KEY', { light_schema_change: 'false' });
    await withConnection(async (conn) => {
      await conn.query("SET group_commit = 'sync_mode'");
      const [result] = await conn.query(`INSERT INTO ${table} VALUES (1, 1, 'a')`);
      assert.doesNotMatch((result as { info: string }).info ?? '', /group_commit_/, 'no Group Commit for the table, as Doris');
    });
  },
  async store_row_column() {
    // The row store is a second copy of every row in each segment (docs/object-storage.md): the segments grow.
    const plain = await createTable('UNIQUE KEY', {});
    const rowStore = await createTable('UNIQUE KEY', { store_row_column: 'true' });
    await fillForRowStore([plain, rowStore]);
    const [without, withRows] = [(await versions(plain)).bytes, (await versions(rowStore)).bytes];
    assert.ok(withRows > without * 1.5, `segments with the row store (${withRows} bytes) hold a second copy of the rows (${without} without)`);
    assert.deepEqual(await queryRows(root, `SELECT k, seq, v FROM w.${rowStore} WHERE k = 77`), await queryRows(root, `SELECT k, seq, v FROM w.${plain} WHERE k = 77`));
    assert.match((await queryRows(root, `SHOW CREATE TABLE w.${rowStore}`))[0][1]!, /"store_row_column" = "true"/);
  },
  async row_store_columns() {
    const all = await createTable('UNIQUE KEY', { store_row_column: 'true' });
    const keyOnly = await createTable('UNIQUE KEY', { row_store_columns: 'k,seq' });
    await fillForRowStore([all, keyOnly]);
    assert.ok((await versions(keyOnly)).bytes < (await versions(all)).bytes, 'a row store of two small columns is smaller than one of every column');
    await assert.rejects(createTable('UNIQUE KEY', { row_store_columns: 'k,nope' }), /nope/);
  },
  async row_store_page_size() {
    const small = await createTable('UNIQUE KEY', { store_row_column: 'true', row_store_page_size: '256' });
    const large = await createTable('UNIQUE KEY', { store_row_column: 'true', row_store_page_size: '65536' });
    await fillForRowStore([small, large]);
    assert.ok((await versions(small)).bytes > (await versions(large)).bytes, 'many small row-store pages (a header each, less to compress across) take more bytes');
  },
  async 'function_column.sequence_type'() {
    await assert.rejects(createTable('UNIQUE KEY', { 'function_column.sequence_type': 'int' }), { errno: 1235 });
  },
};

/** A CREATE TABLE key for a registry entry (a prefix entry gets its `enable` key). */
// A prefix entry's sample key: one no honoured entry names (dynamic_partition.enable is honoured on its own).
const keyOf = (def: TablePropertyDef): string => (def.name.endsWith('.') ? `${def.name}${def.name === 'dynamic_partition.' ? 'time_zone' : 'enable'}` : def.name);

test('table properties: the honoured ones are exactly those with an effect shown here', () => {
  assert.deepEqual(Object.keys(PROPERTY_EFFECTS).sort(), TABLE_PROPERTIES.filter((def) => def.honoured).map((def) => def.name).sort());
});

for (const def of TABLE_PROPERTIES.filter((item) => item.honoured)) {
  test(`table property ${def.name} is honoured`, { timeout: 60_000 }, async () => PROPERTY_EFFECTS[def.name]());
}

test('every other table property answers a Note on CREATE TABLE and ALTER TABLE, unless its value is what Galene does anyway', async () => {
  let noted = 0;
  for (const def of TABLE_PROPERTIES.filter((item) => !item.honoured)) {
    const key = keyOf(def);
    const value = key === 'replication_num' ? '3' : 'galene_walker';
    const [header] = await root.query(`CREATE TABLE w.note_${noted} (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("${key}" = "${value}")`);
    assert.equal((header as mysql.ResultSetHeader).warningStatus, 1, key);
    const [warning] = await queryRows(root, 'SHOW WARNINGS');
    assert.deepEqual(warning.slice(0, 2), ['Note', '1105'], key);
    assert.match(warning[2]!, new RegExp(`^Table property '${key.replace(/\./g, '\\.')}' is accepted for Doris compatibility; it changes nothing in Galene`), key);
    const [altered] = await root.query(`ALTER TABLE w.note_${noted} SET ("${key}" = "${value}")`);
    assert.equal((altered as mysql.ResultSetHeader).warningStatus, 1, `ALTER ... ${key}`);
    for (const inert of def.inert ?? []) {
      const [quiet] = await root.query(`CREATE TABLE w.quiet_${noted}_${(def.inert ?? []).indexOf(inert)} (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("${key}" = "${inert}")`);
      assert.equal((quiet as mysql.ResultSetHeader).warningStatus, 0, `${key} = ${inert} is what Galene does`);
    }
    noted++;
  }
  assert.ok(noted >= 20, `${noted} properties answer a Note`);
  await assert.rejects(root.query('CREATE TABLE w.unknown_prop (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1 PROPERTIES ("no_such_property" = "1")'), /Unknown table property: no_such_property/);
});
