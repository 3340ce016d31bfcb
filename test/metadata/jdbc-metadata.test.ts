/**
 * JDBC DatabaseMetaData against a real Galene process, through the MariaDB JDBC driver from Debian
 * (Connector/J, /usr/share/java/mariadb-java-client.jar) running test/metadata/MetadataClient.java:
 * getCatalogs, getSchemas, getTables, getColumns, getPrimaryKeys, getIndexInfo and getImportedKeys, with
 * server-side prepared statements on and off (the driver sends its metadata queries either way). These are
 * the calls DBeaver, DataGrip and Metabase make to list a database; they read information_schema.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { GaleneProcess, PROJECT_ROOT, startGalene } from '../helpers/galene-process';

const MARIADB = '/usr/bin/mariadb';
const JAVA = '/usr/bin/java';
const JDBC_JAR = '/usr/share/java/mariadb-java-client.jar';
const skip = existsSync(JAVA) && existsSync(JDBC_JAR) && existsSync(MARIADB) ? false : 'java, libmariadb-java or the mariadb client not installed';
let server: GaleneProcess;

function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
    });
  });
}

before(async () => {
  if (skip) return;
  server = await startGalene();
  const created = await run(MARIADB, [
    '-h127.0.0.1',
    `-P${server.ports.query_port}`,
    '-uroot',
    '-e',
    `CREATE DATABASE md; USE md;
     CREATE TABLE orders (id BIGINT NOT NULL COMMENT 'order id', region VARCHAR(16) NOT NULL, amount DECIMAL(10,2), note STRING,
       INDEX idx_note (note) USING INVERTED) UNIQUE KEY(id, region) COMMENT 'all orders' DISTRIBUTED BY HASH(id) BUCKETS 1;
     CREATE TABLE events (d DATE NOT NULL, ts DATETIME(3), v INT, flag BOOLEAN) DUPLICATE KEY(d) DISTRIBUTED BY HASH(d) BUCKETS 1;
     CREATE TABLE totals (k INT NOT NULL, n BIGINT SUM) AGGREGATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1;`,
  ]);
  assert.equal(created.code, 0, created.stderr);
});

after(async () => {
  await server?.stop();
});

// TABLE_CAT is the database (Connector/J's default catalog term); types are java.sql.Types codes.
const EXPECTED = `# catalogs
information_schema
md
# schemas
# tables
md|events|TABLE|
md|orders|TABLE|all orders
md|totals|TABLE|
# columns
events|d|91|DATE|10|null|NO|0|1|
events|ts|93|DATETIME|23|null|YES|1|2|
events|v|4|INT|10|0|YES|1|3|
events|flag|-7|BIT|3|0|YES|1|4|
orders|id|-5|BIGINT|19|0|NO|0|1|order id
orders|region|12|VARCHAR|16|null|NO|0|2|
orders|amount|3|DECIMAL|10|2|YES|1|3|
orders|note|-1|TEXT|2147483643|null|YES|1|4|
totals|k|4|INT|10|0|NO|0|1|
totals|n|-5|BIGINT|19|0|YES|1|2|
# primary keys orders
md|orders|id|1|PRIMARY
md|orders|region|2|PRIMARY
# index info orders
orders|0|PRIMARY|1|id
orders|0|PRIMARY|2|region
orders|1|idx_note|1|note
# imported keys orders
# primary keys events
# index info events
# imported keys events
# primary keys totals
# index info totals
# imported keys totals
`;

for (const serverPrepared of [true, false]) {
  test(`MariaDB JDBC DatabaseMetaData with useServerPrepStmts=${serverPrepared}`, { skip }, async () => {
    const url = `jdbc:mariadb://127.0.0.1:${server.ports.query_port}/md?useServerPrepStmts=${serverPrepared}`;
    const source = path.join(PROJECT_ROOT, 'test', 'metadata', 'MetadataClient.java');
    const result = await run(JAVA, ['-cp', JDBC_JAR, source, url, 'md', 'orders', 'events', 'totals']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, EXPECTED);
  });
}
