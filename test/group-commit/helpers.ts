/**
 * Group Commit test helpers: the INSERT OK-packet info parsed, polling until a query shows what a batch
 * commit makes visible, plain HTTP calls to the FE / BE APIs, and the WAL files on disk.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { Connection } from 'mysql2/promise';
import { queryRows, TextRow } from '../helpers/mysql-client';

export interface GroupCommitInfo {
  label: string;
  status: string;
  txnId: string;
  query_id?: string;
}

/** Parse Doris's `{'label':'...', 'status':'...', 'txnId':'...'}` info text. */
export function parseInfo(info: string): GroupCommitInfo {
  const fields: Record<string, string> = {};
  for (const match of info.matchAll(/'([A-Za-z_]+)':'([^']*)'/g)) fields[match[1]] = match[2];
  assert.ok(fields.label !== undefined, `no label in info: ${info}`);
  return fields as unknown as GroupCommitInfo;
}

/** The info of an INSERT run with conn.query. */
export async function insertInfo(conn: Connection, sql: string, params?: unknown[]): Promise<GroupCommitInfo> {
  const [result] = params === undefined ? await conn.query(sql) : await conn.execute(sql, params as never);
  return parseInfo((result as { info: string }).info);
}

/** Poll `sql` until `done(rows)` (a batch commit is asynchronous); fails after `timeoutMs`. */
export async function waitForRows(conn: Connection, sql: string, done: (rows: TextRow[]) => boolean, timeoutMs = 20_000): Promise<TextRow[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await queryRows(conn, sql);
    if (done(rows)) return rows;
    if (Date.now() > deadline) assert.fail(`timed out waiting on ${sql}; last rows: ${JSON.stringify(rows).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Versions (rowsets) per tablet of a table, from SHOW TABLETS (column 3: VersionCount). */
export async function tabletVersions(conn: Connection, table: string): Promise<number[]> {
  const rows = await queryRows(conn, `SHOW TABLETS FROM ${table}`);
  return rows.map((row) => Number(row[2]));
}

export function httpRequest(method: string, url: string, options: { auth?: string; body?: Buffer | string; headers?: http.OutgoingHttpHeaders } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { ...options.headers };
    if (options.auth !== undefined) headers.Authorization = 'Basic ' + Buffer.from(options.auth).toString('base64');
    const req = http.request(url, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** `POST /api/update_config?name=value` on the BE web port; the parsed JSON answer. */
export { updateBackendConfig as updateConfig } from '../helpers/galene-process';

/** Every WAL file under `<dataDir>/wal`. */
export function walFiles(dataDir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(full);
    }
  };
  walk(path.join(dataDir, 'wal'));
  return out.sort();
}
