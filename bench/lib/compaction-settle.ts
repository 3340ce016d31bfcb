/**
 * Waiting out the background compaction that follows a load: queries timed while it merges rowsets would
 * measure the merge. Used by the benchmarks that load and then time queries (core, tpch).
 */
import type { Connection } from 'mysql2/promise';

/** Wait until every tablet's version count of `tables` holds for one 2.5 s interval, at most `maxMs`. */
export async function waitForCompactionToSettle(conn: Connection, tables: readonly string[], maxMs = 120_000): Promise<void> {
  const start = performance.now();
  let lastVersions = '';
  while (performance.now() - start < maxMs) {
    let versions = '';
    for (const table of tables) {
      const [tablets] = await conn.query({ sql: `SHOW TABLETS FROM ${table}`, rowsAsArray: true });
      versions += (tablets as unknown as string[][]).map((row) => row[2]).join(',') + ';';
    }
    if (versions === lastVersions) return;
    lastVersions = versions;
    await new Promise((resolve) => setTimeout(resolve, 2500));
  }
}
