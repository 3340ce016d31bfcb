/**
 * Runs the SQL corpus (test/sql/**\/*.test, sqllogictest dialect) against a live Galene server over the
 * MySQL protocol with mysql2. Each file runs in its own database, so files are independent.
 *
 * Records:
 *   statement ok | statement error <errno or message fragment>
 *   <SQL, up to a blank line>
 *
 *   query <column type letters> [rowsort|nosort]
 *   <SQL>
 *   ----
 *   <expected rows: values separated by a tab; NULL for NULL, (empty) for an empty string>
 *
 * A value containing line breaks continues on the following lines (rowsort sorts whole lines, so use
 * nosort for such queries). `SLT_COMPLETE=1 npm test` rewrites the expected rows of every query from the server's answers (review
 * the diff before committing). Lines starting with # are comments.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { GaleneProcess, PROJECT_ROOT, startGalene } from '../helpers/galene-process';
import { connect } from '../helpers/mysql-client';
import { showCreateUnderTestStorage, TEST_STORAGE } from '../helpers/storage-matrix';

const CORPUS_DIR = path.join(PROJECT_ROOT, 'test', 'sql');
const COMPLETE = process.env.SLT_COMPLETE === '1';
/** SLT_ONLY=fragment runs only the corpus files whose path contains it (a quick loop over one file). */
const ONLY = process.env.SLT_ONLY;
if (COMPLETE && TEST_STORAGE === 's3') throw new Error('SLT_COMPLETE=1 rewrites the corpus from the local directory only');
const SHOW_CREATE_TABLE = /^\s*SHOW\s+CREATE\s+TABLE\b/i;

interface SltRecord {
  kind: 'statement' | 'query';
  expectError: string | null;
  sql: string;
  sort: 'rowsort' | 'nosort';
  expected: string[];
  /** Line numbers for messages and for --complete rewriting. */
  line: number;
  expectedStart: number;
  expectedEnd: number;
}

function parseCorpusFile(text: string): SltRecord[] {
  const lines = text.split('\n');
  const records: SltRecord[] = [];
  let lineIdx = 0;
  while (lineIdx < lines.length) {
    const header = lines[lineIdx].trim();
    if (header === '' || header.startsWith('#')) {
      lineIdx++;
      continue;
    }
    const words = header.split(/\s+/);
    const record: SltRecord = { kind: 'statement', expectError: null, sql: '', sort: 'nosort', expected: [], line: lineIdx + 1, expectedStart: -1, expectedEnd: -1 };
    if (words[0] === 'statement') {
      if (words[1] === 'error') record.expectError = words.slice(2).join(' ');
      else if (words[1] !== 'ok') throw new Error(`line ${lineIdx + 1}: expected 'statement ok' or 'statement error'`);
    } else if (words[0] === 'query') {
      record.kind = 'query';
      if (words[2] === 'rowsort') record.sort = 'rowsort';
    } else {
      throw new Error(`line ${lineIdx + 1}: unknown record '${header}'`);
    }
    lineIdx++;
    const sqlLines: string[] = [];
    while (lineIdx < lines.length && lines[lineIdx].trim() !== '' && lines[lineIdx].trim() !== '----') sqlLines.push(lines[lineIdx++]);
    record.sql = sqlLines.join('\n');
    if (record.kind === 'query') {
      if (lines[lineIdx]?.trim() !== '----') throw new Error(`line ${record.line}: query without ----`);
      lineIdx++;
      record.expectedStart = lineIdx;
      while (lineIdx < lines.length && lines[lineIdx].trim() !== '') record.expected.push(lines[lineIdx++]);
      record.expectedEnd = lineIdx;
    }
    records.push(record);
  }
  return records;
}

function formatRow(row: unknown[]): string {
  return row.map((value) => (value === null ? 'NULL' : value === '' ? '(empty)' : String(value))).join('\t');
}

function findCorpusFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findCorpusFiles(full));
    else if (entry.name.endsWith('.test')) out.push(full);
  }
  return out.sort();
}

describe('SQL corpus', () => {
  let server: GaleneProcess;
  before(async () => {
    server = await startGalene();
  });
  after(async () => {
    await server?.stop();
  });

  for (const file of findCorpusFiles(CORPUS_DIR).filter((file) => ONLY === undefined || file.includes(ONLY))) {
    const name = path.relative(CORPUS_DIR, file);
    test(name, async () => {
      const text = fs.readFileSync(file, 'utf8');
      const records = parseCorpusFile(text);
      const database = 'slt_' + name.replace(/[^A-Za-z0-9]/g, '_');
      const conn: Connection = await connect(server.ports.query_port);
      const rewritten = text.split('\n');
      const rewrites: { start: number; end: number; lines: string[] }[] = [];
      try {
        await conn.query(`DROP DATABASE IF EXISTS ${database}`);
        await conn.query(`CREATE DATABASE ${database}`);
        await conn.query(`USE ${database}`);
        for (const record of records) {
          const where = `${name}:${record.line}`;
          if (record.kind === 'statement') {
            if (record.expectError === null) {
              await conn.query(record.sql).catch((err: Error) => assert.fail(`${where}: statement failed: ${err.message}\n${record.sql}`));
            } else {
              const expected = record.expectError;
              await assert.rejects(conn.query(record.sql), (err: { errno?: number; message: string }) => {
                const matches = expected === '' || String(err.errno) === expected || err.message.toLowerCase().includes(expected.toLowerCase());
                assert.ok(matches, `${where}: expected error '${expected}', got ${err.errno}: ${err.message}`);
                return true;
              }, `${where}: expected an error\n${record.sql}`);
            }
            continue;
          }
          const [rows] = await conn.query({ sql: record.sql, rowsAsArray: true }).catch((err: Error) => assert.fail(`${where}: query failed: ${err.message}\n${record.sql}`));
          // A value with line breaks (SHOW CREATE TABLE) spans several expected lines.
          let actual = (rows as unknown[][]).flatMap((row) => formatRow(row).split('\n'));
          if (record.sort === 'rowsort') actual = actual.sort();
          if (COMPLETE) {
            rewrites.push({ start: record.expectedStart, end: record.expectedEnd, lines: actual });
            continue;
          }
          // The corpus is written for the local directory; under the s3 matrix SHOW CREATE TABLE also names the vault.
          const expected = SHOW_CREATE_TABLE.test(record.sql) ? await showCreateUnderTestStorage(conn, record.expected) : record.expected;
          assert.deepEqual(actual, record.sort === 'rowsort' ? [...expected].sort() : expected, `${where}: wrong result for\n${record.sql}`);
        }
      } finally {
        await conn.query(`DROP DATABASE IF EXISTS ${database}`).catch(() => undefined);
        await conn.end();
      }
      if (COMPLETE && rewrites.length > 0) {
        for (const rewrite of rewrites.reverse()) rewritten.splice(rewrite.start, rewrite.end - rewrite.start, ...rewrite.lines);
        fs.writeFileSync(file, rewritten.join('\n'));
      }
    });
  }
});
