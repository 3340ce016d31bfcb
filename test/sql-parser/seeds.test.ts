/**
 * The SQL of the four source documents (shared/seeds) parses, and the parser is fast enough for
 * prepared statements and point lookups (measured once and logged, not asserted).
 *
 * Statements are copied here verbatim so the test does not depend on the seeds folder. Seed lines that
 * are pseudo-code (`[...]` as a vector, `id[, dist(...)]` optional select items, `LIMIT N`, `where where`)
 * cannot parse as written; their concrete forms are included instead.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseStatement, parseStatements } from '../../src/sql/parser';
import { assertFragment } from './ast-match';

const SEED_STATEMENTS: string[] = [
  // 004 Group Commit
  `CREATE TABLE \`dt\` (
    \`id\` int(11) NOT NULL,
    \`name\` varchar(50) NULL,
    \`score\` int(11) NULL
) ENGINE=OLAP
DUPLICATE KEY(\`id\`)
DISTRIBUTED BY HASH(\`id\`) BUCKETS 1
PROPERTIES (
    "replication_num" = "1"
);`,
  `CREATE TABLE \`dt\` (
    \`id\` int(11) NOT NULL,
    \`name\` varchar(50) NULL,
    \`score\` int(11) NULL
) ENGINE=OLAP
DUPLICATE KEY(\`id\`)
DISTRIBUTED BY HASH(\`id\`) BUCKETS 1
PROPERTIES (
    "replication_num" = "1",
    "group_commit_mode" = "async_mode"
);`,
  'ALTER TABLE dt SET ("group_commit_mode" = "sync_mode");',
  'ALTER TABLE dt SET ("group_commit_mode" = "off_mode");',
  'SHOW CREATE TABLE dt;',
  'set group_commit = async_mode;',
  "insert into dt values(1, 'Bob', 90), (2, 'Alice', 99);",
  "insert into dt(id, name) values(3, 'John');",
  'select * from dt;',
  'set group_commit = sync_mode;',
  "insert into dt values(4, 'Bob', 90), (5, 'Alice', 99);",
  'set group_commit = off_mode;',
  'SET group_commit = async_mode;',
  'insert into tbl values(?, ?, ?)',
  'set enable_prepared_stmt_audit_log=true;',
  'ALTER TABLE dt SET ("group_commit_interval_ms" = "2000");',
  'ALTER TABLE dt SET ("group_commit_data_bytes" = "134217728");',
  'INSERT INTO dt WITH LABEL my_label VALUES (1, \'a\', 2)',
  'INSERT INTO dt VALUES (1 + 100)',
  'BEGIN; INSERT INTO dt VALUES (1, \'a\', 2); COMMIT',
  `CREATE TABLE IF NOT EXISTS lineitem (
  L_ORDERKEY    INTEGER NOT NULL,
  L_PARTKEY     INTEGER NOT NULL,
  L_SUPPKEY     INTEGER NOT NULL,
  L_LINENUMBER  INTEGER NOT NULL,
  L_QUANTITY    DECIMAL(15,2) NOT NULL,
  L_EXTENDEDPRICE  DECIMAL(15,2) NOT NULL,
  L_DISCOUNT    DECIMAL(15,2) NOT NULL,
  L_TAX         DECIMAL(15,2) NOT NULL,
  L_RETURNFLAG  CHAR(1) NOT NULL,
  L_LINESTATUS  CHAR(1) NOT NULL,
  L_SHIPDATE    DATE NOT NULL,
  L_COMMITDATE  DATE NOT NULL,
  L_RECEIPTDATE DATE NOT NULL,
  L_SHIPINSTRUCT CHAR(25) NOT NULL,
  L_SHIPMODE     CHAR(10) NOT NULL,
  L_COMMENT      VARCHAR(44) NOT NULL
)
DUPLICATE KEY(L_ORDERKEY, L_PARTKEY, L_SUPPKEY, L_LINENUMBER)
DISTRIBUTED BY HASH(L_ORDERKEY) BUCKETS 32
PROPERTIES (
  "replication_num" = "3"
);`,
  'set group_commit=async_mode',
  'set enable_nereids_planner=false',
  // 003 vector search (concrete forms of the document's pseudo-code)
  'set experimental_enable_virtual_slot_for_cse=true;',
  `SELECT counterid,
       COUNT(*)               AS hit_count,
       COUNT(DISTINCT userid) AS unique_users
FROM   hits
WHERE  ( UPPER(regexp_extract(referer, '^https?://([^/]+)', 1)) = 'GOOGLE.COM'
         OR UPPER(regexp_extract(referer, '^https?://([^/]+)', 1)) = 'GOOGLE.RU'
         OR UPPER(regexp_extract(referer, '^https?://([^/]+)', 1)) LIKE '%GOOGLE%' )
       AND ( LENGTH(regexp_extract(referer, '^https?://([^/]+)', 1)) > 3
              OR regexp_extract(referer, '^https?://([^/]+)', 1) != ''
              OR regexp_extract(referer, '^https?://([^/]+)', 1) IS NOT NULL )
       AND eventdate = '2013-07-15'
GROUP  BY counterid
HAVING hit_count > 100
ORDER  BY hit_count DESC
LIMIT  20;`,
  'set optimize_index_scan_parallelism=true;',
  'SELECT l2_distance_approximate(embedding, [0.1, 0.2, 0.3]) AS dist FROM tbl ORDER BY dist LIMIT 100;',
  'SELECT id, l2_distance_approximate(embedding, [0.1, 0.2, 0.3]) AS dist FROM tbl ORDER BY dist LIMIT 100;',
  'select id, l2_distance(embedding, [1, 2]) from tbl where l2_distance(embedding, [1, 2]) <= 10;',
  'select id from tbl where dist <= 10 order by id limit 10;',
  'select id from tbl where dist > 10;',
  'select id, inner_product_approximate(embedding, [1, 2]) from tbl order by inner_product_approximate(embedding, [1, 2]) asc limit 10;',
  "select id from tbl where comment match_any 'olap' ORDER BY l2_distance_approximate(embedding, [1, 2]) LIMIT 10;",
  "select id from tbl where comment match_any 'olap' and l2_distance_approximate(embedding, [1, 2]) < 10 AND abs(l2_distance_approximate(embedding, [1, 2]) + 10) > 10 ORDER BY l2_distance_approximate(embedding, [1, 2]) LIMIT 10;",
  "select id from tbl where comment match_any 'olap' and l2_distance_approximate(embedding, [1, 2]) < 10 AND array_size(embedding) > 10 ORDER BY l2_distance_approximate(embedding, [1, 2]) LIMIT 10;",
  `CREATE TABLE tbl (
    id BIGINT NOT NULL,
    comment STRING,
    INDEX idx_comment (comment) USING INVERTED PROPERTIES ("parser" = "english"),
    INDEX idx_emb (embedding) USING ANN PROPERTIES ("index_type" = "hnsw", "metric_type" = "l2_distance", "dim" = "3")
) DUPLICATE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 1 PROPERTIES ("replication_num" = "1")`,
];

test('the statements of the source documents parse', () => {
  for (const sql of SEED_STATEMENTS) {
    try {
      assert.ok(parseStatements(sql).length >= 1);
    } catch (err) {
      assert.fail(`${sql.slice(0, 80)}: ${(err as Error).message}`);
    }
  }
  assertFragment(parseStatement(SEED_STATEMENTS[0]), {
    kind: 'createTable', name: 'dt', engine: 'OLAP', keysType: 'DUPLICATE', keys: ['id'],
    columns: [{ name: 'id', type: { name: 'INT' }, nullable: false }, { name: 'name', type: { name: 'VARCHAR', length: 50 }, nullable: true }, { name: 'score' }],
    distribution: { type: 'HASH', columns: ['id'], buckets: 1 }, properties: { replication_num: '1' },
  });
  assertFragment(parseStatement("select id from tbl where comment match_any 'olap'"), {
    query: { where: { kind: 'call', name: 'match_any', args: [{ kind: 'column', name: 'comment' }, { kind: 'literal', value: 'olap' }] } },
  });
});

test('parse speed of a 200-character SELECT (logged, not asserted)', () => {
  const sql = "SELECT id, name, score, total_amount, created_at FROM db1.orders o WHERE o.customer_id = ? AND o.status IN ('paid', 'shipped') " +
    "AND o.created_at >= '2024-01-01' ORDER BY o.created_at DESC LIMIT 20";
  assert.ok(sql.length >= 190 && sql.length <= 230, `length ${sql.length}`);
  for (let warmIdx = 0; warmIdx < 3000; warmIdx++) parseStatement(sql);
  const runs = 5000;
  const started = process.hrtime.bigint();
  for (let runIdx = 0; runIdx < runs; runIdx++) parseStatement(sql);
  const microsPerParse = Number(process.hrtime.bigint() - started) / 1000 / runs;
  console.log(`sql-parser: ${sql.length}-char SELECT parses in ${microsPerParse.toFixed(2)} µs (mean of ${runs})`);
  assert.ok(microsPerParse > 0);
});
