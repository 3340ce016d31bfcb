/**
 * Child processes (Galene servers, s3rver) a test file started and that are still running. When the test
 * file's process exits — run-all.js passes --test-force-exit, so a failed assertion that skipped a stop()
 * does not hang the file — they are killed with it instead of outliving the run.
 */
import type { ChildProcess } from 'node:child_process';

const LIVE_CHILDREN = new Set<ChildProcess>();
let exitHookInstalled = false;

export function killOnExit(child: ChildProcess): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const live of LIVE_CHILDREN) live.kill('SIGKILL');
    });
  }
  LIVE_CHILDREN.add(child);
  child.once('exit', () => LIVE_CHILDREN.delete(child));
}
