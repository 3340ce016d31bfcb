/**
 * The server logs, as Doris writes them: one pair per role, `<sys_log_dir>/fe.log` / `fe.warn.log` for the
 * FE and `be.log` / `be.warn.log` for the BE (Doris's BE names them be.INFO / be.WARNING through glog;
 * Galene keeps one naming for both roles). `<role>.log` has every line at or above `sys_log_level`,
 * `<role>.warn.log` the WARN, ERROR and FATAL lines only. Both roles read the same settings, with the
 * names fe.conf and be.conf share (sys_log_dir, sys_log_level, sys_log_roll_mode, sys_log_roll_num). A line is
 * `2026-12-01 14:56:12,123 WARN (role|thread) [query_id=...] message`. Files roll by size
 * (`sys_log_roll_mode` `SIZE-MB-<n>`): `fe.log` becomes `fe.log.1`, `fe.log.1` becomes `fe.log.2`, ... and
 * the oldest past `sys_log_roll_num` is deleted. Writes are synchronous appends (an error logged just
 * before a crash is on disk); the server logs events (start, stop, errors), not every statement.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** What the log reads of the config (config.ts validates its settings with this file's validators). */
export interface LogSettings {
  getString(name: string): string;
  getInt(name: string): number;
  onChange(name: string, listener: (value: unknown) => void): void;
}

export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const WARN_RANK = LOG_LEVELS.indexOf('WARN');

/** The level a sys_log_level value names: any case; be.conf's WARNING (glog's name) is WARN. */
function levelOf(value: unknown): LogLevel | null {
  const upper = String(value).toUpperCase();
  const level = upper === 'WARNING' ? 'WARN' : upper;
  return LOG_LEVELS.includes(level as LogLevel) ? (level as LogLevel) : null;
}

/**
 * sys_log_level's validator: Doris's INFO, WARN (be.conf: WARNING), ERROR, FATAL, and DEBUG, any case.
 * The refusal starts with Doris's FE words (Log4jConfig: "sys_log_level config error").
 */
export function logLevelProblem(value: unknown): string | null {
  return levelOf(value) !== null ? null : `sys_log_level config error: must be one of ${LOG_LEVELS.join(', ')} (WARNING, be.conf's spelling, is WARN)`;
}

/** sys_log_roll_mode's validator: `SIZE-MB-<n>` (Doris's TIME-DAY / TIME-HOUR are refused: Galene rolls by size). */
export function rollModeProblem(value: unknown): string | null {
  return /^SIZE-MB-[1-9]\d*$/i.test(String(value)) ? null : 'must be SIZE-MB-<megabytes> (Galene rolls its logs by size only, not TIME-DAY / TIME-HOUR)';
}

/** One log file that rolls by size. */
class RollingFile {
  private fd: number;
  private size: number;

  constructor(
    private readonly file: string,
    private readonly rollBytes: () => number,
    private readonly rollNum: () => number,
  ) {
    this.fd = fs.openSync(file, 'a', 0o600);
    this.size = fs.fstatSync(this.fd).size;
  }

  write(line: string): void {
    const bytes = Buffer.from(line);
    if (this.size > 0 && this.size + bytes.length > this.rollBytes()) this.roll();
    fs.writeSync(this.fd, bytes);
    this.size += bytes.length;
  }

  private roll(): void {
    fs.closeSync(this.fd);
    const keep = Math.max(0, this.rollNum());
    fs.rmSync(`${this.file}.${keep}`, { force: true });
    for (let generation = keep - 1; generation >= 1; generation--) {
      if (fs.existsSync(`${this.file}.${generation}`)) fs.renameSync(`${this.file}.${generation}`, `${this.file}.${generation + 1}`);
    }
    if (keep > 0) fs.renameSync(this.file, `${this.file}.1`);
    else fs.rmSync(this.file, { force: true });
    this.fd = fs.openSync(this.file, 'a', 0o600);
    this.size = 0;
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

function timestamp(date: Date): string {
  const pad = (value: number, width = 2): string => String(value).padStart(width, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())},${pad(date.getMilliseconds(), 3)}`;
}

export class ServerLog {
  private readonly all: RollingFile;
  private readonly warn: RollingFile;
  private levelRank: number;

  /** Open `<dir>/<role>.log` and `<dir>/<role>.warn.log` (role `fe` or `be`) with the config's sys_log_* settings (followed when they change). */
  constructor(
    config: LogSettings,
    private readonly role: string,
  ) {
    const dir = config.getString('sys_log_dir') || path.join(config.getString('data_dir'), 'log');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const rollBytes = (): number => Number(/(\d+)$/.exec(config.getString('sys_log_roll_mode'))![1]) * 1024 * 1024;
    const rollNum = (): number => config.getInt('sys_log_roll_num');
    this.all = new RollingFile(path.join(dir, `${role}.log`), rollBytes, rollNum);
    this.warn = new RollingFile(path.join(dir, `${role}.warn.log`), rollBytes, rollNum);
    const rank = (): number => LOG_LEVELS.indexOf(levelOf(config.getString('sys_log_level')) ?? 'INFO');
    this.levelRank = rank();
    config.onChange('sys_log_level', () => (this.levelRank = rank()));
  }

  /** One line; `thread` names the part of the server (e.g. `mysql`, `http`); `queryId` when a statement is involved. */
  log(level: LogLevel, thread: string, message: string, queryId?: string): void {
    const levelIdx = LOG_LEVELS.indexOf(level);
    if (levelIdx < this.levelRank || this.closed) return;
    const line = `${timestamp(new Date())} ${level} (${this.role}|${thread})${queryId ? ` [query_id=${queryId}]` : ''} ${message.replace(/\n/g, '\\n')}\n`;
    this.all.write(line);
    if (levelIdx >= WARN_RANK) this.warn.write(line);
  }

  private closed = false;

  /** Close both files; later lines are dropped (a late event during shutdown must not throw). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.all.close();
    this.warn.close();
  }
}
