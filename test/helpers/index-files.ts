/**
 * Index files of a data directory for the SIGKILL tests of index builds (ANN and inverted): the final and
 * temporary index files under the object store, the index keys the meta store references, and the
 * invariant after a crash — no half-written file, every index file referenced and only those.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import type { Connection } from 'mysql2/promise';
import { TEMP_MARKER } from '../../src/io/local-object-store';
import { queryRecords } from './mysql-client';

/** Index files (final and temporary) under the object store. */
export function indexFiles(dataDir: string): { final: string[]; temp: string[] } {
  const root = path.join(dataDir, 'objects');
  const final: string[] = [];
  const temp: string[] = [];
  const walk = (dir: string): void => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.includes(TEMP_MARKER)) temp.push(full);
      else if (entry.name.endsWith('.idx')) final.push(path.relative(root, full));
    }
  };
  walk(root);
  return { final: final.sort(), temp };
}

/** Temporary files of index builds in progress. */
export const indexTemps = (dataDir: string): string[] => indexFiles(dataDir).temp.filter((file) => path.basename(file).includes(`.idx${TEMP_MARKER}`));

/** Index keys the meta store's segments reference. */
export function referencedIndexKeys(dataDir: string): string[] {
  const db = new Database(path.join(dataDir, 'meta', 'galene-meta.db'), { readonly: true, fileMustExist: true });
  try {
    const keys: string[] = [];
    for (const row of db.prepare('SELECT segments FROM rowsets').all() as { segments: string }[]) {
      for (const segment of JSON.parse(row.segments) as { indexes?: { key: string }[] }[]) for (const record of segment.indexes ?? []) keys.push(record.key);
    }
    return keys.sort();
  } finally {
    db.close();
  }
}

/** Wait until `ready()` or `ms` passed; true when it became ready. */
export async function until(ready: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await ready()) return true;
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
  return false;
}

export function checkNoHalfFiles(dataDir: string, when: string): void {
  const files = indexFiles(dataDir);
  assert.deepEqual(files.temp, [], `no temporary build file ${when}`);
  assert.deepEqual(files.final, referencedIndexKeys(dataDir), `every index file is referenced, and only those ${when}`);
}

export async function waitForJob(conn: Connection, table: string, states: readonly string[]): Promise<Record<string, string | null>> {
  let last: Record<string, string | null> | undefined;
  await until(async () => {
    [last] = await queryRecords(conn, `SHOW BUILD INDEX WHERE TableName = "${table}" ORDER BY JobId DESC LIMIT 1`);
    return last !== undefined && states.includes(String(last.State));
  }, 60_000);
  assert.ok(last && states.includes(String(last.State)), JSON.stringify(last));
  return last!;
}

