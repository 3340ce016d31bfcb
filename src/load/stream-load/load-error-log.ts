/**
 * The rows a load filtered, with line number, reason and raw text, served at the response's ErrorURL
 * (`/api/_load_error_log?file=...` on the BE web port, as Doris). Bounded: the first MAX_ERROR_ROWS rows
 * are kept (each raw text cut to MAX_RAW_CHARS); the count covers all of them. Files live under
 * `<data_dir>/load_error_log` and are removed with expired labels.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const MAX_ERROR_ROWS = 1000;
const MAX_RAW_CHARS = 1024;
/** File names the error-log endpoint accepts: what `fileName` produces, nothing with a path in it. */
const FILE_NAME_RE = /^error_log_[A-Za-z0-9_:-]+$/;

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
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, name), this.text());
    return name;
  }
}

/** The error-log file name of a load. */
export function errorLogFileName(label: string, txnId: number): string {
  return `error_log_${txnId}_${label.replace(/[^A-Za-z0-9_:-]/g, '_')}`;
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
