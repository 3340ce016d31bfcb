/**
 * One Group Commit WAL file: the rows of one async batch, written before the loads are acknowledged and
 * deleted once the batch's transaction is visible.
 *
 * Layout: `GWAL` magic, u32 format version, u32 header length, header JSON (label, txn id, table, column
 * unique ids), u32 CRC32 of the header; then records `u32 length, payload, u32 CRC32(payload)` (the
 * shape of Doris's WAL: length, block, checksum). A record is acknowledged only after it was written and
 * fsync'd, so a file cut mid-write (a crash) ends in at most one incomplete record: the reader stops at
 * the last complete one, and nothing it drops was ever acknowledged.
 *
 * Writers share fsyncs: appends that arrive while one write + fsync is running are written together by
 * the next one, so N concurrent loads cost about one fsync per round trip, not N.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GaleneError } from '../../common/errors';
import { crc32 } from '../../storage/checksum';

const MAGIC = Buffer.from('GWAL', 'latin1');
const FORMAT_VERSION = 1;

/** What a WAL says about its batch; enough to replay it without the process that wrote it. */
export interface WalHeader {
  readonly dbId: number;
  readonly tableId: number;
  readonly tableName: string;
  readonly label: string;
  readonly txnId: number;
  readonly schemaVersion: number;
  /** Unique ids of the table's columns, in the order the records hold them. */
  readonly columnIds: readonly number[];
  readonly createTime: number;
}

/** `<wal_dir>/<db_id>/<table_id>/<txn_id>_<label>` (Doris's older `<wal_id>_<label>` form under db and table). */
export function walFilePath(walDir: string, header: Pick<WalHeader, 'dbId' | 'tableId' | 'txnId' | 'label'>): string {
  return path.join(walDir, String(header.dbId), String(header.tableId), `${header.txnId}_${header.label}`);
}

function encodeHeader(header: WalHeader): Buffer {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const out = Buffer.alloc(12 + json.length + 4);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(FORMAT_VERSION, 4);
  out.writeUInt32LE(json.length, 8);
  json.copy(out, 12);
  out.writeUInt32LE(crc32(json), 12 + json.length);
  return out;
}

/** Frame one payload as a record. */
export function frameRecord(payload: Uint8Array): Buffer {
  const out = Buffer.alloc(payload.length + 8);
  out.writeUInt32LE(payload.length, 0);
  out.set(payload, 4);
  out.writeUInt32LE(crc32(payload), payload.length + 4);
  return out;
}

async function fsyncDirectory(dir: string): Promise<void> {
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

interface PendingAppend {
  readonly record: Buffer;
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
}

/** An open WAL being appended to. Created by `WalWriter.create`; `close` waits for pending appends. */
export class WalWriter {
  private queue: PendingAppend[] = [];
  private flushing: Promise<void> | null = null;
  private closed = false;
  /** Bytes in the file, header included. */
  bytes: number;
  /** fsync calls made (each covers every append queued before it). */
  syncs = 0;

  private constructor(
    readonly filePath: string,
    private readonly handle: fs.promises.FileHandle,
    headerBytes: number,
    private readonly shouldSync: () => boolean,
  ) {
    this.bytes = headerBytes;
  }

  /**
   * Create the file (it must not exist) with its header, durable (file and directory entry fsync'd)
   * before any record is acknowledged.
   */
  static async create(filePath: string, header: WalHeader, shouldSync: () => boolean): Promise<WalWriter> {
    const dir = path.dirname(filePath);
    await fs.promises.mkdir(dir, { recursive: true });
    const handle = await fs.promises.open(filePath, 'wx');
    try {
      const head = encodeHeader(header);
      await writeAll(handle, head);
      if (shouldSync()) {
        await handle.datasync();
        await fsyncDirectory(dir);
      }
      return new WalWriter(filePath, handle, head.length, shouldSync);
    } catch (err) {
      await handle.close().catch(() => undefined);
      throw new GaleneError('IO_ERROR', [`cannot create WAL ${filePath}: ${err instanceof Error ? err.message : String(err)}`], { cause: err });
    }
  }

  /** Append one record payload; resolves once it is on disk (fsync'd unless group_commit_wal_fsync=false). */
  append(payload: Uint8Array): Promise<void> {
    if (this.closed) return Promise.reject(new GaleneError('INTERNAL', [`WAL ${this.filePath} is closed`]));
    const record = frameRecord(payload);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ record, resolve, reject });
      if (this.flushing === null) this.flushing = this.flushLoop();
    });
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const group = this.queue;
        this.queue = [];
        try {
          const data = group.length === 1 ? group[0].record : Buffer.concat(group.map((item) => item.record));
          await writeAll(this.handle, data);
          if (this.shouldSync()) {
            await this.handle.datasync();
            this.syncs++;
          }
          this.bytes += data.length;
          for (const item of group) item.resolve();
        } catch (err) {
          const wrapped = new GaleneError('IO_ERROR', [`WAL ${this.filePath}: ${err instanceof Error ? err.message : String(err)}`], { cause: err });
          for (const item of group) item.reject(wrapped);
        }
      }
    } finally {
      this.flushing = null;
    }
  }

  /** Wait for queued appends, then close the file (it stays on disk until the batch is visible). */
  async close(): Promise<void> {
    this.closed = true;
    while (this.flushing !== null) await this.flushing;
    await this.handle.close();
  }
}

async function writeAll(handle: fs.promises.FileHandle, data: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    offset += bytesWritten;
  }
}

/** What a WAL file holds: its header and every complete record, and why reading stopped early, if it did. */
export interface WalContents {
  readonly header: WalHeader;
  readonly payloads: Uint8Array[];
  /** null when the file ended exactly after its last record. */
  readonly cut: string | null;
}

/**
 * Read a WAL. A missing or cut header gives null (a batch whose header never reached disk acknowledged
 * nothing). Records are read up to the first incomplete or mismatching one.
 */
export function readWal(filePath: string): WalContents | null {
  const data = fs.readFileSync(filePath);
  if (data.length < 12 || !data.subarray(0, 4).equals(MAGIC)) return null;
  if (data.readUInt32LE(4) !== FORMAT_VERSION) throw new GaleneError('CORRUPTION', [`WAL ${filePath}: unknown format version ${data.readUInt32LE(4)}`]);
  const headerLength = data.readUInt32LE(8);
  if (data.length < 12 + headerLength + 4) return null;
  const json = data.subarray(12, 12 + headerLength);
  if (crc32(json) !== data.readUInt32LE(12 + headerLength)) return null;
  const header = JSON.parse(json.toString('utf8')) as WalHeader;
  const payloads: Uint8Array[] = [];
  let pos = 12 + headerLength + 4;
  let cut: string | null = null;
  while (pos < data.length) {
    if (data.length - pos < 4) {
      cut = `incomplete length field at byte ${pos}`;
      break;
    }
    const length = data.readUInt32LE(pos);
    if (data.length - pos - 4 < length + 4) {
      cut = `incomplete record at byte ${pos}`;
      break;
    }
    const payload = data.subarray(pos + 4, pos + 4 + length);
    if (crc32(payload) !== data.readUInt32LE(pos + 4 + length)) {
      cut = `checksum mismatch in the record at byte ${pos}`;
      break;
    }
    payloads.push(payload);
    pos += length + 8;
  }
  return { header, payloads, cut };
}

/** Every WAL file under the WAL directories (`<dir>/<db>/<table>/<file>`), oldest name order per table. */
export function listWalFiles(walDirs: readonly string[]): string[] {
  const out: string[] = [];
  for (const walDir of walDirs) {
    if (!fs.existsSync(walDir)) continue;
    for (const dbEntry of fs.readdirSync(walDir, { withFileTypes: true })) {
      if (!dbEntry.isDirectory()) continue;
      const dbDir = path.join(walDir, dbEntry.name);
      for (const tableEntry of fs.readdirSync(dbDir, { withFileTypes: true })) {
        if (!tableEntry.isDirectory()) continue;
        const tableDir = path.join(dbDir, tableEntry.name);
        const files = fs.readdirSync(tableDir).filter((name) => !name.startsWith('.'));
        files.sort((a, b) => Number(a.split('_')[0]) - Number(b.split('_')[0]) || (a < b ? -1 : 1));
        for (const name of files) out.push(path.join(tableDir, name));
      }
    }
  }
  return out;
}
