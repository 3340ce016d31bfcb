/**
 * The one FileCache, served to worker threads: a worker's `FileReadClient` opens and reads files by
 * posting ranges over its MessagePort; the `FileReadService` on the main thread answers from the
 * process's FileCache (so a remote store's block cache, misses and back-fill are shared by every thread)
 * and sends the bytes back as transferred ArrayBuffers (no copy when the cache's buffer is its own).
 *
 * The counters of a served read go to the profile the service is given for that port at request time
 * (the task the worker is running), including those the cache adds later (BytesWriteIntoCache), so a
 * worker's reads are counted exactly as the same reads on the main thread. Errors cross as code and
 * message (`errorToWire` / `errorFromWire`) and are GaleneErrors again on the other side.
 */
import type { MessagePort } from 'node:worker_threads';
import { ERROR_CODES, GaleneError, type ErrorCode } from '../common/errors';
import type { ProfileSink } from '../common/profile';
import type { FileCache, FileOpener, RandomAccessFile, ReadKind } from './file-cache';

/** Open files kept by the service (a read names its file by key). */
const OPEN_FILES = 1024;

/** A worker's request: open (get the size of) a file, read a range of it, or discard its cached bytes (RandomAccessFile.discard). */
export type FileReadRequest =
  | { readonly op: 'open'; readonly id: number; readonly key: string; readonly knownSize?: number }
  | { readonly op: 'read'; readonly id: number; readonly key: string; readonly size: number; readonly offset: number; readonly length: number; readonly kind: ReadKind }
  | { readonly op: 'discard'; readonly id: number; readonly key: string };

export type FileReadReply = { readonly id: number; readonly ok: true; readonly size: number; readonly data?: ArrayBuffer } | { readonly id: number; readonly ok: false; readonly error: WireError };

/** An error as it crosses a thread boundary. */
export interface WireError {
  readonly code: string | null;
  readonly message: string;
  readonly stack?: string;
}

export function errorToWire(err: unknown): WireError {
  if (err instanceof GaleneError) return { code: err.code, message: err.message, stack: err.stack };
  return { code: null, message: err instanceof Error ? err.message : String(err), stack: err instanceof Error ? err.stack : undefined };
}

/** The GaleneError a WireError was, keeping code and message; an uncoded error becomes `fallback`. */
export function errorFromWire(wire: WireError, fallback: ErrorCode): GaleneError {
  const code = wire.code !== null && wire.code in ERROR_CODES ? (wire.code as ErrorCode) : null;
  const err = code !== null ? new GaleneError(code, []) : new GaleneError(fallback, [wire.message]);
  if (code !== null) err.message = wire.message;
  if (wire.stack !== undefined) err.stack = wire.stack;
  return err;
}

/** An ArrayBuffer holding exactly a buffer's bytes: its own when it has one (transferred, not copied). */
function ownArrayBuffer(data: Buffer): ArrayBuffer {
  if (data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && data.buffer instanceof ArrayBuffer) return data.buffer;
  const copy = new ArrayBuffer(data.byteLength);
  new Uint8Array(copy).set(data);
  return copy;
}

export class FileReadService {
  private readonly files = new Map<string, Promise<RandomAccessFile>>();

  constructor(readonly cache: FileCache) {}

  /**
   * Answer the requests arriving on `port`; `profileOf()` names the profile a request's counters go to
   * when it arrives. The port is unref'd (it never keeps the process alive). Returns a stop function.
   */
  serve(port: MessagePort, profileOf: () => ProfileSink): () => void {
    port.on('message', (request: FileReadRequest) => {
      const profile = profileOf();
      this.answer(request, profile).then(
        (reply) => port.postMessage(reply, reply.ok && reply.data !== undefined ? [reply.data] : []),
        (err: unknown) => port.postMessage({ id: request.id, ok: false, error: errorToWire(err) } satisfies FileReadReply),
      );
    });
    port.unref();
    return () => port.close();
  }

  /** Forget an open file (the object was deleted). */
  forget(key: string): void {
    this.files.delete(key);
  }

  /** The open file of a key (opened once; opened again when `knownSize` disagrees, which checks it). */
  private async fileOf(key: string, profile: ProfileSink, knownSize?: number): Promise<RandomAccessFile> {
    const cached = this.files.get(key);
    if (cached !== undefined) {
      const file = await cached.catch(() => null);
      if (file !== null && (knownSize === undefined || file.size === knownSize)) return file;
    }
    const opening = this.cache.open(key, profile, knownSize);
    opening.catch(() => {
      if (this.files.get(key) === opening) this.files.delete(key);
    });
    this.files.set(key, opening);
    if (this.files.size > OPEN_FILES) this.files.delete(this.files.keys().next().value as string);
    return opening;
  }

  private async answer(request: FileReadRequest, profile: ProfileSink): Promise<FileReadReply> {
    if (request.op === 'open') {
      const file = await this.fileOf(request.key, profile, request.knownSize);
      return { id: request.id, ok: true, size: file.size };
    }
    if (request.op === 'discard') {
      const file = await this.files.get(request.key)?.catch(() => null);
      this.files.delete(request.key);
      await file?.discard?.();
      return { id: request.id, ok: true, size: file?.size ?? 0 };
    }
    const file = await this.fileOf(request.key, profile, request.size);
    const data = await file.read(request.offset, request.length, profile, request.kind);
    return { id: request.id, ok: true, size: file.size, data: ownArrayBuffer(data) };
  }
}

/**
 * A worker's FileOpener over a FileReadService: every open and read is a request on `port`. The profile
 * given to a read is not used here — the service counts the read into the task's profile.
 */
export class FileReadClient implements FileOpener {
  private readonly pending = new Map<number, { resolve(reply: FileReadReply & { ok: true }): void; reject(err: unknown): void }>();
  private nextId = 1;

  constructor(private readonly port: MessagePort) {
    port.on('message', (reply: FileReadReply) => {
      const waiting = this.pending.get(reply.id);
      if (waiting === undefined) return;
      this.pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply);
      else waiting.reject(errorFromWire(reply.error, 'IO_ERROR'));
    });
  }

  private request(request: FileReadRequest): Promise<FileReadReply & { ok: true }> {
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      this.port.postMessage(request);
    });
  }

  async open(key: string, _profile: ProfileSink, knownSize?: number): Promise<RandomAccessFile> {
    const opened = await this.request({ op: 'open', id: this.nextId++, key, knownSize });
    const size = opened.size;
    return {
      key,
      size,
      read: async (offset, length, _readProfile, kind) => {
        const reply = await this.request({ op: 'read', id: this.nextId++, key, size, offset, length, kind: kind ?? 'data' });
        return Buffer.from(reply.data!);
      },
      discard: async () => {
        await this.request({ op: 'discard', id: this.nextId++, key });
      },
    };
  }
}
