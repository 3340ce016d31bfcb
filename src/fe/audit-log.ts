/**
 * The FE audit log: one line per finished statement in `<data_dir>/log/fe.audit.log`, in the shape of
 * Doris's fe.audit.log (`time [query] |Client=...|User=...|Db=...|State=...|...|Stmt=...`), so tools that
 * read Doris audit lines read ours.
 *
 * Cheap by construction: `append` formats one string and pushes it onto an in-memory buffer; the buffer
 * is written with one asynchronous append at most every FLUSH_DELAY_MS (or when it holds FLUSH_BYTES),
 * one write in flight at a time, so statements never wait for the disk. Whatever is still buffered when
 * the process exits is written synchronously from the 'exit' hook. Prepared executions are logged only
 * when the session variable `enable_prepared_stmt_audit_log` is on (the caller decides; see session.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makePrivateDir, makePrivateDirAsync, PRIVATE_FILE_MODE } from '../common/private-files';
import { redactSecrets } from '../common/redact';

/** One statement as the audit log records it. */
export interface AuditRecord {
  /** Epoch ms when the statement started. */
  readonly time: number;
  readonly client: string;
  readonly user: string;
  readonly db: string;
  /** Doris: EOF for a result set, OK for other success, ERR on failure. */
  readonly state: 'EOF' | 'OK' | 'ERR';
  readonly errorCode: number;
  readonly errorMessage: string;
  readonly timeMs: number;
  readonly scanRows: number;
  readonly returnRows: number;
  readonly queryId: string;
  readonly isQuery: boolean;
  /** The prepared statement handle for COM_STMT_PREPARE / COM_STMT_EXECUTE, else undefined. */
  readonly preparedStmtId?: number;
  readonly stmt: string;
}

const FLUSH_DELAY_MS = 100;
const FLUSH_BYTES = 256 * 1024;
export const AUDIT_LOG_FILE = 'fe.audit.log';
/** Longest statement text kept in a line (Doris cuts audited statements at 4096 bytes too). */
export const AUDIT_STMT_MAX_LENGTH = 4096;

const pad2 = (value: number): string => (value < 10 ? '0' : '') + value;

/** Buffered appender of audit lines to one file. */
export class AuditLog {
  private buffer: string[] = [];
  private bufferedBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private stmtCounter = 0;
  private cachedSecond = -1;
  private cachedSecondText = '';
  private dirReady = false;

  constructor(readonly file: string) {}

  /** Format and buffer one record; returns the StmtId it was given. */
  append(record: AuditRecord): number {
    const stmtId = ++this.stmtCounter;
    // Callers pass redacted text already (session.ts); redacting again here keeps the file safe from any caller.
    const stmt = redactSecrets(record.stmt);
    const line =
      `${this.timestamp(record.time)} [query] |Client=${record.client}|User=${record.user}|Ctl=internal|Db=${record.db}` +
      `|State=${record.state}|ErrorCode=${record.errorCode}|ErrorMessage=${oneLine(redactSecrets(record.errorMessage, record.stmt))}|Time(ms)=${record.timeMs}` +
      `|ScanBytes=0|ScanRows=${record.scanRows}|ReturnRows=${record.returnRows}|StmtId=${stmtId}|QueryId=${record.queryId}` +
      `|IsQuery=${record.isQuery}|IsPrepared=${record.preparedStmtId !== undefined}` +
      (record.preparedStmtId !== undefined ? `|PreparedStmtId=${record.preparedStmtId}` : '') +
      `|Stmt=${oneLine(stmt.length > AUDIT_STMT_MAX_LENGTH ? stmt.slice(0, AUDIT_STMT_MAX_LENGTH) + '...' : stmt)}\n`;
    this.buffer.push(line);
    this.bufferedBytes += line.length;
    if (this.bufferedBytes >= FLUSH_BYTES) void this.flush();
    else if (this.timer === null) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
      this.timer.unref();
    }
    return stmtId;
  }

  /** Write everything buffered so far (one append); resolves when it is on disk's page cache. */
  async flush(): Promise<void> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    while (this.writing !== null) await this.writing;
    if (this.buffer.length === 0) return;
    const text = this.take();
    this.writing = (async () => {
      try {
        await this.ensureDir();
        await fs.promises.appendFile(this.file, text, { mode: PRIVATE_FILE_MODE });
      } catch (err) {
        process.stderr.write(`galene: cannot write the audit log ${this.file}: ${(err as Error).message}\n`);
      } finally {
        this.writing = null;
      }
    })();
    await this.writing;
  }

  /** Write what is buffered now, synchronously (process exit). */
  flushSync(): void {
    if (this.buffer.length === 0) return;
    const text = this.take();
    try {
      makePrivateDir(path.dirname(this.file));
      fs.appendFileSync(this.file, text, { mode: PRIVATE_FILE_MODE });
    } catch {
      // Exiting: nowhere left to report it.
    }
  }

  private take(): string {
    const text = this.buffer.join('');
    this.buffer = [];
    this.bufferedBytes = 0;
    return text;
  }

  private async ensureDir(): Promise<void> {
    if (this.dirReady) return;
    await makePrivateDirAsync(path.dirname(this.file));
    // A log created by an older version (or under a wide umask) is narrowed to the owner too.
    await fs.promises.chmod(this.file, PRIVATE_FILE_MODE).catch(() => undefined);
    this.dirReady = true;
  }

  /** `yyyy-MM-dd HH:mm:ss,SSS` in local time, as Doris's log4j pattern prints it. */
  private timestamp(epochMs: number): string {
    const second = Math.floor(epochMs / 1000);
    if (second !== this.cachedSecond) {
      const date = new Date(second * 1000);
      this.cachedSecond = second;
      this.cachedSecondText = `${date.getFullYear()}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())} ${pad2(date.getHours())}:${pad2(date.getMinutes())}:${pad2(date.getSeconds())}`;
    }
    const millis = epochMs - second * 1000;
    return `${this.cachedSecondText},${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}`;
  }
}

function oneLine(text: string): string {
  return text.indexOf('\n') < 0 && text.indexOf('\r') < 0 ? text : text.replace(/\r?\n|\r/g, '\\n');
}

const LOGS = new Map<string, AuditLog>();
let exitHookInstalled = false;

/** The audit log of a data directory (one per directory per process), created on first use. */
export function auditLogFor(dataDir: string): AuditLog {
  const file = path.resolve(dataDir, 'log', AUDIT_LOG_FILE);
  let log = LOGS.get(file);
  if (log === undefined) {
    log = new AuditLog(file);
    LOGS.set(file, log);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.once('exit', () => {
        for (const each of LOGS.values()) each.flushSync();
      });
    }
  }
  return log;
}
