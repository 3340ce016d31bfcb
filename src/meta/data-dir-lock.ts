/**
 * The data directory's owner lock: one Galene server per data_dir. Two servers on one directory would
 * each replay the same WALs, allocate the same ids and overwrite each other's metadata.
 *
 * The lock is an OS file lock, not a pid check: `<data_dir>/galene.lock` is a tiny SQLite database held
 * in `locking_mode=EXCLUSIVE` after one write, so the kernel holds a POSIX lock on it for as long as the
 * process lives and drops it when the process dies, SIGKILL included (no stale lock to clean up, no pid
 * reuse to guess about). `<data_dir>/galene.pid` records the holder's pid for the refusal message (Doris's
 * start scripts keep `fe.pid` / `be.pid` the same way). Imports only common/.
 */
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GaleneError } from '../common/errors';

export const LOCK_FILE = 'galene.lock';
export const PID_FILE = 'galene.pid';

/** A held data directory lock; `release` is idempotent. */
export interface DataDirLock {
  readonly dataDir: string;
  release(): void;
}

function holderPid(dataDir: string): string {
  try {
    const text = fs.readFileSync(path.join(dataDir, PID_FILE), 'utf8').trim();
    return /^\d+$/.test(text) ? text : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * Lock `dataDir` for this process or throw IO_ERROR naming the process that holds it. Called by the
 * server start-up before anything under the directory is opened.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  let db: Database.Database;
  try {
    db = new Database(path.join(dataDir, LOCK_FILE), { timeout: 0 });
  } catch (err) {
    throw new GaleneError('IO_ERROR', [`cannot open the lock file of data_dir ${dataDir} (${(err as { code?: string }).code ?? 'unknown'})`], { cause: err });
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS owner (pid INTEGER NOT NULL, start_time INTEGER NOT NULL)');
    db.exec('DELETE FROM owner');
    db.prepare('INSERT INTO owner (pid, start_time) VALUES (?, ?)').run(process.pid, Date.now());
    db.exec('COMMIT');
  } catch (err) {
    db.close();
    const code = (err as { code?: string }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
      throw new GaleneError('IO_ERROR', [`data_dir ${dataDir} is in use by another Galene server (process ${holderPid(dataDir)}); stop it first`], { cause: err });
    }
    throw new GaleneError('IO_ERROR', [`cannot lock data_dir ${dataDir} (${code ?? 'unknown'})`], { cause: err });
  }
  fs.writeFileSync(path.join(dataDir, PID_FILE), `${process.pid}\n`, { mode: 0o600 });
  let held = true;
  return {
    dataDir,
    release() {
      if (!held) return;
      held = false;
      try {
        if (holderPid(dataDir) === String(process.pid)) fs.rmSync(path.join(dataDir, PID_FILE), { force: true });
      } finally {
        db.close();
      }
    },
  };
}
