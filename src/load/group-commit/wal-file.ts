/**
 * One Group Commit WAL file: the rows of one async batch, written before the loads are acknowledged and
 * deleted once the batch's transaction is visible.
 *
 * Layout (format version 2): `GWAL` magic and u32 format version, then frames. A frame is
 * `GWFR` magic, u32 kind, u32 payload length, u32 CRC32 of those 12 bytes, payload, u32 CRC32(payload).
 * The batch header (JSON: label, txn id, table, column unique ids) is written as two header frames, then
 * every record (one encoded block, the shape of Doris's WAL: length, block, checksum) as a record frame.
 *
 * Reading: a record is acknowledged only after it was written and fsync'd, so a crash leaves at most one
 * incomplete frame at the end (a torn tail: dropped silently, nothing in it was acknowledged). Anything
 * else that does not check out is corruption: the reader reports it (offset and reason) and resynchronises
 * at the next frame magic whose header CRC (and then payload CRC) checks out, so one damaged record loses
 * only itself. A damaged header frame is covered by its copy. Format version 1 files (no frame magic:
 * header then `u32 length, payload, u32 CRC32`) are still read, up to their first bad record.
 *
 * Writers share fsyncs: appends that arrive while one write + fsync is running are written together by
 * the next one, so N concurrent loads cost about one fsync per round trip, not N. Files are created 0600
 * and directories 0700 (the WAL holds user rows).
 *
 * Preallocation (group_commit_wal_preallocate_bytes, off by default; fsync'd WALs only): the file is created with a tail
 * of zeros, made durable with the header, and records overwrite it, so an append's fsync does not also
 * commit a new file size and new blocks (a growing file's fsync costs several times an overwrite's). An
 * append past the zeros writes a new zero tail after itself (at least as long as the file so far, up to
 * 64 MiB). The reader ends at the zero tail (a file ending in at least FRAME_HEADER_BYTES zeros), and a
 * frame cut off by it — a crash mid-write, never acknowledged — is a torn tail, not corruption.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GaleneError } from '../../common/errors';
import { crc32 } from '../../storage/checksum';

const MAGIC = Buffer.from('GWAL', 'latin1');
const FRAME_MAGIC = Buffer.from('GWFR', 'latin1');
/** Version 2: framed records with a magic and a header CRC; version 1 (unframed records) is still read. */
const FORMAT_VERSION = 2;
const LEGACY_FORMAT_VERSION = 1;
const PREAMBLE_BYTES = 8;
/** Frame magic, kind, payload length, CRC32 of the first 12 bytes. */
const FRAME_HEADER_BYTES = 16;
const FRAME_KIND_HEADER = 1;
const FRAME_KIND_RECORD = 2;
/** How many copies of the batch header a file starts with (one damaged copy loses nothing). */
const HEADER_COPIES = 2;
/** Longest zero tail written past an append that outgrew the preallocated space. */
const MAX_PREALLOCATE_STEP = 64 * 1024 * 1024;
export const WAL_FILE_MODE = 0o600;
export const WAL_DIR_MODE = 0o700;

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

function frame(kind: number, payload: Uint8Array): Buffer {
  const out = Buffer.alloc(FRAME_HEADER_BYTES + payload.length + 4);
  FRAME_MAGIC.copy(out, 0);
  out.writeUInt32LE(kind, 4);
  out.writeUInt32LE(payload.length, 8);
  out.writeUInt32LE(crc32(out.subarray(0, 12)), 12);
  out.set(payload, FRAME_HEADER_BYTES);
  out.writeUInt32LE(crc32(payload), FRAME_HEADER_BYTES + payload.length);
  return out;
}

function encodeHeader(header: WalHeader): Buffer {
  const preamble = Buffer.alloc(PREAMBLE_BYTES);
  MAGIC.copy(preamble, 0);
  preamble.writeUInt32LE(FORMAT_VERSION, 4);
  const headerFrame = frame(FRAME_KIND_HEADER, Buffer.from(JSON.stringify(header), 'utf8'));
  return Buffer.concat([preamble, ...Array.from({ length: HEADER_COPIES }, () => headerFrame)]);
}

/** Frame one payload as a record. */
export function frameRecord(payload: Uint8Array): Buffer {
  return frame(FRAME_KIND_RECORD, payload);
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
  /** Bytes in the file, header included (records end here; zeros follow up to `allocated`). */
  bytes: number;
  /** fsync calls made (each covers every append queued before it). */
  syncs = 0;

  private constructor(
    readonly filePath: string,
    private readonly handle: fs.promises.FileHandle,
    headerBytes: number,
    private readonly shouldSync: () => boolean,
    /** Zero tail length to keep (0: the file grows with each append). */
    private readonly preallocate: number,
    /** File size: the records, then zeros. */
    private allocated: number,
  ) {
    this.bytes = headerBytes;
  }

  /**
   * Create the file (it must not exist) with its header — and `preallocateBytes` of zeros when fsync'd —
   * durable (file and directory entry fsync'd) before any record is acknowledged.
   */
  static async create(filePath: string, header: WalHeader, shouldSync: () => boolean, preallocateBytes = 0): Promise<WalWriter> {
    const dir = path.dirname(filePath);
    await fs.promises.mkdir(dir, { recursive: true, mode: WAL_DIR_MODE });
    const handle = await fs.promises.open(filePath, 'wx', WAL_FILE_MODE);
    try {
      const head = encodeHeader(header);
      const sync = shouldSync();
      const preallocate = sync ? Math.max(0, Math.floor(preallocateBytes)) : 0;
      await writeAll(handle, head, 0);
      if (preallocate > 0) await writeZeros(handle, head.length, preallocate);
      if (sync) {
        await handle.datasync();
        await fsyncDirectory(dir);
      }
      return new WalWriter(filePath, handle, head.length, shouldSync, preallocate, head.length + preallocate);
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
          const end = this.bytes + data.length;
          await writeAll(this.handle, data, this.bytes);
          if (this.preallocate > 0 && end > this.allocated) {
            // Past the zeros: a new zero tail after this group, durable with it (this fsync grows the file).
            const tail = Math.max(this.preallocate, Math.min(end, MAX_PREALLOCATE_STEP));
            await writeZeros(this.handle, end, tail);
            this.allocated = end + tail;
          }
          if (this.shouldSync()) {
            await this.handle.datasync();
            this.syncs++;
          }
          this.bytes = end;
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

async function writeAll(handle: fs.promises.FileHandle, data: Uint8Array, position: number): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset, position + offset);
    offset += bytesWritten;
  }
}

const ZERO_CHUNK = Buffer.alloc(1024 * 1024);

/** Write `length` zero bytes at `position`. */
async function writeZeros(handle: fs.promises.FileHandle, position: number, length: number): Promise<void> {
  for (let done = 0; done < length; done += ZERO_CHUNK.length) await writeAll(handle, ZERO_CHUNK.subarray(0, Math.min(ZERO_CHUNK.length, length - done)), position + done);
}

/** A stretch of a WAL that did not check out and was skipped. */
export interface WalCorruption {
  /** Byte offset in the file where the bad stretch starts. */
  readonly offset: number;
  readonly reason: string;
}

/** What a WAL file holds: its header, every intact record, the stretches skipped, and a torn tail if any. */
export interface WalContents {
  /** null when no copy of the batch header is intact (the file cannot be replayed; keep it). */
  readonly header: WalHeader | null;
  readonly formatVersion: number;
  readonly payloads: Uint8Array[];
  /** Byte offset of each payload's frame, parallel to `payloads`. */
  readonly offsets: number[];
  /** Damaged stretches (each a record or header copy lost), in file order. */
  readonly corrupt: WalCorruption[];
  /** An incomplete frame at the very end (a crash mid-write; nothing in it was acknowledged), else null. */
  readonly cut: string | null;
}

type FrameRead =
  | { readonly kind: 'frame'; readonly frameKind: number; readonly payload: Buffer; readonly end: number }
  | { readonly kind: 'torn'; readonly reason: string }
  | { readonly kind: 'bad'; readonly reason: string; readonly end: number | null };

/** The frame starting at `pos`: intact, torn by the end of the file, or bad (`end` known when its header checked out). */
function readFrame(data: Buffer, pos: number): FrameRead {
  if (data.length - pos < FRAME_HEADER_BYTES) {
    return FRAME_MAGIC.subarray(0, Math.min(4, data.length - pos)).equals(data.subarray(pos, pos + 4))
      ? { kind: 'torn', reason: `incomplete frame header at byte ${pos}` }
      : { kind: 'bad', reason: `bad frame magic at byte ${pos}`, end: null };
  }
  if (!data.subarray(pos, pos + 4).equals(FRAME_MAGIC)) return { kind: 'bad', reason: `bad frame magic at byte ${pos}`, end: null };
  if (crc32(data.subarray(pos, pos + 12)) !== data.readUInt32LE(pos + 12)) return { kind: 'bad', reason: `frame header checksum mismatch at byte ${pos}`, end: null };
  const length = data.readUInt32LE(pos + 8);
  const end = pos + FRAME_HEADER_BYTES + length + 4;
  if (end > data.length) return { kind: 'torn', reason: `incomplete record at byte ${pos}` };
  const payload = data.subarray(pos + FRAME_HEADER_BYTES, pos + FRAME_HEADER_BYTES + length);
  if (crc32(payload) !== data.readUInt32LE(end - 4)) return { kind: 'bad', reason: `checksum mismatch in the record at byte ${pos}`, end };
  return { kind: 'frame', frameKind: data.readUInt32LE(pos + 4), payload, end };
}

function parseHeader(json: Uint8Array): WalHeader | null {
  try {
    const header = JSON.parse(Buffer.from(json).toString('utf8')) as WalHeader;
    return typeof header === 'object' && header !== null && Array.isArray(header.columnIds) ? header : null;
  } catch {
    return null;
  }
}

/**
 * Where the zero tail of a preallocated WAL starts: the start of the run of zero bytes ending the file
 * when it is at least FRAME_HEADER_BYTES long (no complete frame ends so: its last bytes are a CRC),
 * else data.length.
 */
function zeroTailStart(data: Buffer): number {
  let pos = data.length;
  while (pos > 0 && data[pos - 1] === 0) pos--;
  return data.length - pos >= FRAME_HEADER_BYTES ? pos : data.length;
}

/**
 * Whether the bad frame at `pos` of a preallocated WAL is a record cut off by its zero tail (`tail`: where
 * the zeros start), i.e. a write that never completed: the zeros start inside its header, before its
 * CRC, or inside its CRC after bytes that agree with the CRC of the intact payload.
 */
function cutByZeroTail(data: Buffer, pos: number, end: number | null, tail: number): boolean {
  if (tail >= data.length || tail <= pos) return false;
  if (end === null) return tail < pos + FRAME_HEADER_BYTES;
  if (tail >= end) return false;
  if (tail < end - 4) return true;
  const expected = Buffer.alloc(4);
  expected.writeUInt32LE(crc32(data.subarray(pos + FRAME_HEADER_BYTES, end - 4)), 0);
  return data.subarray(end - 4, tail).equals(expected.subarray(0, tail - (end - 4)));
}

/** Version 2: frames from `start`, resynchronising after each bad stretch at the next intact frame. */
function readFramed(data: Buffer, start: number): WalContents {
  const tail = zeroTailStart(data);
  let header: WalHeader | null = null;
  const payloads: Uint8Array[] = [];
  const offsets: number[] = [];
  const corrupt: WalCorruption[] = [];
  let cut: string | null = null;
  let badStart = -1;
  let badReason = '';
  const endBadStretch = (): void => {
    if (badStart >= 0) corrupt.push({ offset: badStart, reason: badReason });
    badStart = -1;
  };
  let pos = start;
  while (pos < tail) {
    const read = readFrame(data, pos);
    if (read.kind === 'frame') {
      endBadStretch();
      if (read.frameKind === FRAME_KIND_HEADER) {
        header ??= parseHeader(read.payload);
      } else if (read.frameKind === FRAME_KIND_RECORD) {
        payloads.push(read.payload);
        offsets.push(pos);
      } else {
        corrupt.push({ offset: pos, reason: `unknown frame kind ${read.frameKind} at byte ${pos}` });
      }
      pos = read.end;
      continue;
    }
    if (read.kind === 'torn' && badStart < 0) {
      cut = read.reason;
      break;
    }
    if (read.kind === 'bad' && badStart < 0 && cutByZeroTail(data, pos, read.end, tail)) {
      cut = `${read.end === null ? 'incomplete frame header' : 'incomplete record'} at byte ${pos} (cut by the preallocated tail)`;
      break;
    }
    if (read.kind === 'bad' && read.end !== null) {
      // The frame header checked out, so its extent is known: exactly this one record is lost.
      endBadStretch();
      corrupt.push({ offset: pos, reason: read.reason });
      pos = read.end;
      continue;
    }
    if (badStart < 0) {
      badStart = pos;
      badReason = read.reason;
    }
    const next = data.indexOf(FRAME_MAGIC, pos + 1);
    if (next < 0) break;
    pos = next;
  }
  endBadStretch();
  return { header, formatVersion: FORMAT_VERSION, payloads, offsets, corrupt, cut };
}

type LegacyRead = { readonly kind: 'ok'; readonly contents: WalContents } | { readonly kind: 'torn' } | { readonly kind: 'damaged' };

/** Version 1: header, then unframed records up to the first incomplete or mismatching one. */
function readLegacy(data: Buffer): LegacyRead {
  if (data.length < 12) return { kind: 'torn' };
  const headerLength = data.readUInt32LE(8);
  if (data.length < 12 + headerLength + 4) return { kind: 'torn' };
  const json = data.subarray(12, 12 + headerLength);
  const header = crc32(json) === data.readUInt32LE(12 + headerLength) ? parseHeader(json) : null;
  if (header === null) return { kind: 'damaged' };
  const payloads: Uint8Array[] = [];
  const offsets: number[] = [];
  const corrupt: WalCorruption[] = [];
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
      // Version 1 records carry no magic to resynchronise on: the rest of the file is lost.
      corrupt.push({ offset: pos, reason: `checksum mismatch in the record at byte ${pos} (format version 1: the records after it are unreadable)` });
      break;
    }
    payloads.push(payload);
    offsets.push(pos);
    pos += length + 8;
  }
  return { kind: 'ok', contents: { header, formatVersion: LEGACY_FORMAT_VERSION, payloads, offsets, corrupt, cut } };
}

/**
 * Read a WAL. null means the file holds nothing that was ever acknowledged (cut before its header was
 * complete, and no damage). Otherwise every intact record is returned, with each damaged stretch in
 * `corrupt`; `header` is null when no header copy survived (the caller keeps the file for an operator).
 */
export function readWal(filePath: string): WalContents | null {
  const data = fs.readFileSync(filePath);
  if (data.length < PREAMBLE_BYTES) return null;
  const magicOk = data.subarray(0, 4).equals(MAGIC);
  const version = magicOk ? data.readUInt32LE(4) : -1;
  let legacy: LegacyRead | null = null;
  if (version === LEGACY_FORMAT_VERSION) {
    legacy = readLegacy(data);
    if (legacy.kind === 'ok') return legacy.contents;
  }
  // Version 2 frames start after the preamble; a damaged preamble is scanned the same way.
  const framed = readFramed(data, PREAMBLE_BYTES);
  const readable = framed.header !== null || framed.payloads.length > 0;
  if (version === FORMAT_VERSION) return !readable && framed.corrupt.length === 0 ? null : framed;
  if (readable) return { ...framed, corrupt: [{ offset: 0, reason: magicOk ? `damaged format version field (reads ${version})` : 'bad file magic' }, ...framed.corrupt] };
  if (legacy?.kind === 'torn') return null;
  const reason = legacy !== null ? 'format version 1 header checksum mismatch' : magicOk ? `unknown format version ${version}` : 'bad file magic';
  return { header: null, formatVersion: version, payloads: [], offsets: [], corrupt: [{ offset: 0, reason }], cut: null };
}

/** Every WAL file under the WAL directories (`<dir>/<db>/<table>/<file>`), oldest name order per table. */
export function listWalFiles(walDirs: readonly string[]): string[] {
  const out: string[] = [];
  for (const walDir of walDirs) {
    if (!fs.existsSync(walDir)) continue;
    for (const dbEntry of fs.readdirSync(walDir, { withFileTypes: true })) {
      if (!dbEntry.isDirectory() || dbEntry.name.startsWith('.')) continue;
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
