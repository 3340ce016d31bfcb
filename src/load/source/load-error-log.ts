/**
 * The rows a load filtered, with line number, reason and raw text, served at the response's ErrorURL
 * (`/api/_load_error_log?file=...` on the BE web port, as Doris). Bounded: the first MAX_ERROR_ROWS rows
 * are kept (each raw text cut to MAX_RAW_CHARS); the count covers all of them. Files live under
 * `<data_dir>/load_error_log` and are removed with expired labels.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makePrivateDir, PRIVATE_FILE_MODE } from '../../common/private-files';

export const MAX_ERROR_ROWS = 1000;
const MAX_RAW_CHARS = 1024;
/**
 * File names the error-log endpoint accepts: what `errorLogFileName` produces (txn id, then 128 random
 * bits), nothing with a path in it. The name is the ErrorURL's only key, so it must not be guessable.
 */
const FILE_NAME_RE = /^error_log_\d+_[0-9a-f]{32}$/;

export class LoadErrorLog {
  count = 0;
  private readonly entries: string[] = [];

  add(line: number, reason: string, raw: string): void {
    this.count++;
    if (this.entries.length >= MAX_ERROR_ROWS) return;
    const text = raw.length > MAX_RAW_CHARS ? raw.slice(0, MAX_RAW_CHARS) + '...' : raw;
    this.entries.push(`Line: ${line}; Reason: ${reason}; Src line: [${text}];`);
  }

  /** The log as served: one filtered row per line. */
  text(): string {
    const more = this.count > this.entries.length ? `\n... ${this.count - this.entries.length} more filtered rows not shown` : '';
    return this.entries.join('\n') + more + '\n';
  }

  /** Write the log to `dir` as `name`; returns the file name for the ErrorURL. */
  write(dir: string, name: string): string {
    makePrivateDir(dir);
    fs.writeFileSync(path.join(dir, name), this.text(), { mode: PRIVATE_FILE_MODE });
    return name;
  }
}

/**
 * A new error-log file name for a load: `error_log_<txn id>_<32 hex>`, the hex from 128 bits of
 * crypto.randomBytes so nobody can guess another load's ErrorURL — and so loads sharing a txn id (a
 * Group Commit batch) get files of their own. The label is not part of the name (it is often predictable).
 */
export function errorLogFileName(txnId: number): string {
  return `error_log_${txnId}_${randomBytes(16).toString('hex')}`;
}

/** Read an error log for the HTTP endpoint; null when the name is not one we write or the file is gone. */
export function readErrorLog(dir: string, name: string): string | null {
  if (!FILE_NAME_RE.test(name)) return null;
  try {
    return fs.readFileSync(path.join(dir, name), 'utf8');
  } catch {
    return null;
  }
}

/** Remove error logs older than `cutoffMs` (with their labels). */
export function removeOldErrorLogs(dir: string, cutoffMs: number): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      if (fs.statSync(file).mtimeMs < cutoffMs) fs.unlinkSync(file);
    } catch {
      // already gone
    }
  }
}
