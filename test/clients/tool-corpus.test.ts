/**
 * Runs the corpus of queries GUI and BI tools send on connect and while browsing (test/tool-corpus/*.sql,
 * each statement with the tool source it comes from) through mysql2 against a real Galene process. Every
 * statement must succeed; `-- expect: A, B` checks the leading result columns by name, `-- rows: N` /
 * `-- rows: >=N` the row count. A new tool query is one more block in a corpus file.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Connection, FieldPacket } from 'mysql2/promise';
import { GaleneProcess, PROJECT_ROOT, startGalene } from '../helpers/galene-process';
import { connect } from '../helpers/mysql-client';

const CORPUS_DIR = path.join(PROJECT_ROOT, 'test', 'tool-corpus');
let server: GaleneProcess;
let conn: Connection;

interface CorpusEntry {
  readonly file: string;
  readonly source: string;
  readonly sql: string;
  readonly expectColumns: string[] | null;
  readonly rows: { readonly atLeast: boolean; readonly count: number } | null;
}

/** Statements end with `;` at a line end; `-- key: value` comment lines before a statement annotate it. */
export function parseCorpus(file: string, text: string): CorpusEntry[] {
  const entries: CorpusEntry[] = [];
  let notes: Record<string, string> = {};
  let sqlLines: string[] = [];
  for (const line of text.split('\n')) {
    const note = /^--\s*(source|expect|rows):\s*(.*)$/.exec(line);
    if (sqlLines.length === 0 && note) {
      notes[note[1]] = note[2].trim();
      continue;
    }
    if (sqlLines.length === 0 && (line.startsWith('--') || line.trim() === '')) continue;
    sqlLines.push(line);
    if (line.trimEnd().endsWith(';')) {
      const rows = notes.rows === undefined ? null : { atLeast: notes.rows.startsWith('>='), count: Number(notes.rows.replace('>=', '')) };
      entries.push({ file, source: notes.source ?? '(unnamed)', sql: sqlLines.join('\n').trim().replace(/;$/, ''), expectColumns: notes.expect ? notes.expect.split(',').map((name) => name.trim()) : null, rows });
      notes = {};
      sqlLines = [];
    }
  }
  assert.equal(sqlLines.length, 0, `${file}: statement without a closing ';'`);
  return entries;
}

const corpus = fs.readdirSync(CORPUS_DIR).filter((name) => name.endsWith('.sql')).sort().flatMap((name) => parseCorpus(name, fs.readFileSync(path.join(CORPUS_DIR, name), 'utf8')));

before(async () => {
  server = await startGalene();
  conn = await connect(server.ports.query_port, { multipleStatements: true });
  await conn.query(`CREATE DATABASE corpus; USE corpus;
    CREATE TABLE items (id BIGINT NOT NULL, name VARCHAR(32) NOT NULL COMMENT 'item name', price DECIMAL(10,2), added DATETIME,
      INDEX idx_name (name) USING INVERTED) UNIQUE KEY(id, name) COMMENT 'catalog items' DISTRIBUTED BY HASH(id) BUCKETS 1;
    CREATE TABLE visits (d DATE NOT NULL, item BIGINT, n INT) DUPLICATE KEY(d) DISTRIBUTED BY HASH(d) BUCKETS 1;
    CREATE TABLE daily (d DATE NOT NULL, total BIGINT SUM) AGGREGATE KEY(d) DISTRIBUTED BY HASH(d) BUCKETS 1;
    INSERT INTO items VALUES (1, 'pen', 1.50, '2024-01-01 10:00:00'), (2, 'ink', NULL, '2024-01-01 10:04:00');`);
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

test('the corpus has DBeaver, Metabase and Grafana queries', () => {
  const files = new Set(corpus.map((entry) => entry.file));
  assert.ok(files.has('dbeaver-mysql.sql') && files.has('metabase-mysql.sql') && files.has('grafana-mysql.sql'));
  assert.ok(corpus.length >= 30, `${corpus.length} corpus statements`);
});

for (const entry of corpus) {
  test(`${entry.file}: ${entry.source}`, async () => {
    let rows: unknown;
    let fields: FieldPacket[] | undefined;
    try {
      [rows, fields] = await conn.query({ sql: entry.sql, rowsAsArray: true });
    } catch (err) {
      assert.fail(`${entry.sql}\n-> ${(err as Error).message}`);
    }
    if (entry.expectColumns !== null) {
      const names = (fields ?? []).map((field) => field.name);
      assert.deepEqual(names.slice(0, entry.expectColumns.length), entry.expectColumns, entry.sql);
    }
    if (entry.rows !== null) {
      const count = Array.isArray(rows) ? rows.length : 0;
      if (entry.rows.atLeast) assert.ok(count >= entry.rows.count, `${count} rows, expected at least ${entry.rows.count}: ${entry.sql}`);
      else assert.equal(count, entry.rows.count, entry.sql);
    }
  });
}
