/**
 * Stream Load test helpers: real curl (as users run it) and raw node http requests against a server
 * process, plus the orphan-object check (every segment file belongs to a visible rowset).
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { Connection } from 'mysql2/promise';
import { queryRows } from '../helpers/mysql-client';
import { storedObjectKeys } from '../helpers/storage-matrix';

export interface CurlResult {
  readonly status: number;
  readonly body: string;
  readonly json: Record<string, unknown>;
}

/** `curl --location-trusted -u <auth> -T <file> -H ... <url>`; headers as 'name:value'. */
export function curlLoad(url: string, file: string, headers: readonly string[], auth: string | null = 'root:', extraArgs: readonly string[] = []): Promise<CurlResult> {
  const args = ['-sS', '--location-trusted', ...(auth === null ? [] : ['-u', auth]), '-T', file, ...headers.flatMap((header) => ['-H', header]), ...extraArgs, '-w', '\n%{http_code}', url];
  return new Promise((resolve, reject) => {
    execFile('curl', args, { maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`curl failed: ${stderr || err.message}`));
      const cut = stdout.lastIndexOf('\n');
      const body = stdout.slice(0, cut);
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        // not JSON (error-log text)
      }
      resolve({ status: Number(stdout.slice(cut + 1)), body, json });
    });
  });
}

/** Plain GET with curl (the ErrorURL, as a user would open it). */
export function curlGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    execFile('curl', ['-sS', '-w', '\n%{http_code}', url], (err, stdout, stderr) => {
      if (err) return reject(new Error(`curl failed: ${stderr || err.message}`));
      const cut = stdout.lastIndexOf('\n');
      resolve({ status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) });
    });
  });
}

export function httpGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

/** A PUT with node http; `write` drives the body (resolve when done writing; the helper ends it). */
export function httpPut(port: number, urlPath: string, headers: Record<string, string>, write: (req: http.ClientRequest) => Promise<void>): Promise<{ status: number; body: string; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: urlPath, method: 'PUT', headers: { Authorization: 'Basic ' + Buffer.from('root:').toString('base64'), ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(body) as Record<string, unknown>;
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, body, json });
      });
    });
    req.on('error', reject);
    write(req).then(() => req.end(), reject);
  });
}

export async function count(conn: Connection, table: string): Promise<number> {
  const [[value]] = await queryRows(conn, `SELECT count(*) FROM ${table}`);
  return Number(value);
}

/** Segment files stored (local directory or the matrix's bucket) vs segments of visible rowsets (SHOW TABLETS over the given tables). */
export async function segmentFiles(conn: Connection, dataDir: string, tables: readonly string[]): Promise<{ onDisk: number; referenced: number }> {
  let referenced = 0;
  for (const table of tables) {
    const rows = await queryRows(conn, `SHOW TABLETS FROM ${table}`);
    referenced += rows.reduce((sum, row) => sum + Number(row[5]), 0);
  }
  const onDisk = (await storedObjectKeys(dataDir)).filter((key) => key.endsWith('.dat')).length;
  return { onDisk, referenced };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stream Load `files` (CSV, comma-separated) to `urlPath`, one after another on each of `clients`
 * connections (file i on client i % clients, label `kill_<i>`), for tests that SIGKILL the server while
 * they run: each client's promise settles when its loads end or the server is gone (never rejects).
 */
export function streamLoadFilesOnClients(port: number, urlPath: string, files: readonly string[], clients = 3): Promise<unknown>[] {
  const results: Promise<unknown>[] = [];
  for (let client = 0; client < clients; client++) {
    results.push(
      (async () => {
        for (let loadIdx = client; loadIdx < files.length; loadIdx += clients) {
          await httpPut(port, urlPath, { column_separator: ',', label: `kill_${loadIdx}` }, async (req) => {
            req.write(fs.readFileSync(files[loadIdx]));
          });
        }
      })().catch(() => 'gone'),
    );
  }
  return results;
}
