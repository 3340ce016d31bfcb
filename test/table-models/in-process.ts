/**
 * Test helpers for table-model tests that need the server in this process (to reach its fault hooks):
 * start it on free ports with background compaction off, and pause a compaction after its merge.
 */
import { Config } from '../../src/common/config';
import type { CompactionScheduler } from '../../src/be/compaction';
import { RunningGalene, startGalene } from '../../src/fe/galene-server';

export function startInProcess(dataDir: string): Promise<RunningGalene> {
  return startGalene(new Config({ data_dir: dataDir, query_port: 0, http_port: 0, webserver_port: 0, brpc_port: 0, disable_auto_compaction: true }));
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
