/**
 * The rig of the fault tests: the shared S3 fixture (s3rver behind the fault proxy,
 * test/helpers/s3-behind-proxy.ts), one Galene server process with a storage vault `fv` on the proxy, a
 * mysql2 connection, and a direct view of the bucket (S3 requests to s3rver itself, past the proxy's
 * faults).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Connection } from 'mysql2/promise';
import { S3ObjectStore } from '../../src/io/s3-object-store';
import type { FaultProxy } from '../helpers/fault-proxy';
import { makeDataDir, startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';
import { startS3BehindProxy } from '../helpers/s3-behind-proxy';
import { sleep } from '../stream-load/helpers';

export const VAULT = 'fv';
/** The table property putting a table into the rig's vault. */
export const IN_VAULT = `"storage_vault_name" = "${VAULT}"`;

export interface FaultRig {
  readonly proxy: FaultProxy;
  readonly dataDir: string;
  readonly root: string;
  server: GaleneProcess;
  conn: Connection;
  /** The bucket's keys under the vault's root path (`data/<tablet>/<txn>_<seg>.dat`, ...), sorted. */
  bucketKeys(prefix?: string): Promise<string[]>;
  /** The vault's bucket, read and written directly (past the proxy). */
  bucket: S3ObjectStore;
  /** Stop (SIGTERM) or kill the server, then start it again on the same data directory. */
  restart(how?: 'stop' | 'kill', args?: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Start the rig: `args` for the server, `vault` overrides of the vault's properties (e.g. a short
 * `s3.connection.request.timeout`). The database `fdb` is created and used.
 */
export async function startFaultRig(options: { args?: readonly string[]; vault?: Record<string, string> } = {}): Promise<FaultRig> {
  const fixture = await startS3BehindProxy();
  const proxy = fixture.proxy;
  const dataDir = makeDataDir('galene-faults-');
  const root = `faults-${path.basename(dataDir)}`;
  const serverArgs = [...(options.args ?? [])];
  const server = await startGalene({ dataDir, args: serverArgs, storage: 'local' });
  const conn = await connect(server.ports.query_port);
  await fixture.createVault(conn, VAULT, root, { overrides: options.vault });
  await conn.query('CREATE DATABASE fdb');
  await conn.query('USE fdb');
  const bucket = new S3ObjectStore(fixture.storeOptions(root, { endpoint: fixture.s3.endpoint }));
  const rig: FaultRig = {
    proxy,
    dataDir,
    root,
    server,
    conn,
    bucket,
    bucketKeys: (prefix = 'data/') => bucket.list(prefix),
    async restart(how = 'stop', args = serverArgs) {
      rig.conn.destroy();
      if (how === 'kill') await rig.server.kill('SIGKILL');
      else await rig.server.stop();
      rig.server = await startGalene({ dataDir, args: [...args], storage: 'local' });
      rig.conn = await connect(rig.server.ports.query_port);
      await rig.conn.query('USE fdb');
    },
    async close() {
      rig.conn?.destroy();
      await rig.server?.stop();
      bucket.close();
      await fixture.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return rig;
}

/** A CSV file of rows `id,name_<id>,<id*7 % 1000>` for ids [start, start + rows). */
export function csvRows(dir: string, name: string, rows: number, start = 0): string {
  const file = path.join(dir, name);
  const lines: string[] = [];
  for (let id = start; id < start + rows; id++) lines.push(`${id},name_${id % 977},${(id * 7) % 1000}`);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** Wait (polling, up to `timeoutMs`) until `check` returns true; false when the time ran out. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 60_000, stepMs = 200): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(stepMs);
  }
}

/** Tablet ids of a table (SHOW TABLETS), in bucket order. */
export async function tabletIds(conn: Connection, table: string): Promise<string[]> {
  return (await queryRows(conn, `SHOW TABLETS FROM ${table}`)).map((row) => String(row[0]));
}

/** Segments of visible rowsets of a table (SHOW TABLETS SegmentCount, summed). */
export async function visibleSegments(conn: Connection, table: string): Promise<number> {
  return (await queryRows(conn, `SHOW TABLETS FROM ${table}`)).reduce((sum, row) => sum + Number(row[5]), 0);
}

/** Bucket keys of the given tablets. */
export function keysOfTablets(keys: readonly string[], tablets: readonly string[]): string[] {
  return keys.filter((key) => tablets.includes(key.split('/')[1]));
}

/** Bucket keys written by transaction `txnId` (segments and index files). */
export function keysOfTxn(keys: readonly string[], txnId: number): string[] {
  return keys.filter((key) => new RegExp(`^data/\\d+/${txnId}_\\d+\\.`).test(key));
}

/** A BE metric's value from /metrics (the first sample of `name`). */
export async function metric(webserverPort: number, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${webserverPort}/metrics`)).text();
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
  if (match === null) throw new Error(`no metric ${name}`);
  return Number(match[1]);
}
