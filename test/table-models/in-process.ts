/**
 * Test helpers for table-model tests that need the server in this process (to reach its fault hooks):
 * start it on free ports with background compaction off (on the matrix's S3 vault under
 * GALENE_TEST_STORAGE=s3), and pause a compaction after its merge.
 */
import { Config } from '../../src/common/config';
import type { CompactionScheduler } from '../../src/be/compaction';
import { RunningGalene, startGalene } from '../../src/fe/galene-server';
import * as mysql from 'mysql2/promise';
import { TEST_STORAGE, useTestVault } from '../helpers/storage-matrix';

export async function startInProcess(dataDir: string): Promise<RunningGalene> {
  const server = await startGalene(new Config({ data_dir: dataDir, query_port: 0, http_port: 0, webserver_port: 0, brpc_port: 0, disable_auto_compaction: true }));
  // The storage matrix, as for servers in their own process (galene-process.ts).
  if (TEST_STORAGE === 's3') {
    const conn = await mysql.createConnection({ host: '127.0.0.1', port: server.ports.query_port, user: 'root', password: '' });
    try {
      await useTestVault(conn, dataDir);
    } finally {
      await conn.end();
    }
  }
  return server;
}

/** The next compaction of `scheduler` stops after its merge: `reached` resolves then, `release` lets it swap. */
export function pauseAfterMerge(scheduler: CompactionScheduler): { reached: Promise<void>; release: () => void } {
  let onReached!: () => void;
  const reached = new Promise<void>((resolve) => (onReached = resolve));
  let release!: () => void;
  const paused = new Promise<void>((resolve) => (release = resolve));
  scheduler.afterMergeHook = () => {
    scheduler.afterMergeHook = null;
    onReached();
    return paused;
  };
  return { reached, release };
}
