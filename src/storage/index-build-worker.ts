/**
 * The machinery every per-segment index builder shares (ANN: storage/ann/ann-builder.ts; inverted:
 * storage/inverted/inverted-builder.ts): one worker thread that runs blocking builds one at a time off
 * the event loop, started on first use, unref'd while idle and replaced if it dies; errors come back as
 * the same GaleneError (code and formatted message). `serveBuildRequests` is the worker side, and
 * `buildIndexObject` places a built file in the object store (in place on a local store, else built in a
 * temporary directory and uploaded with one atomic put).
 */
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parentPort, Worker } from 'node:worker_threads';
import type { ErrorCode } from '../common/errors';
import { GaleneError } from '../common/errors';
import { PRIVATE_DIR_MODE } from '../common/private-files';
import { uniqueTempTag } from '../common/temp-names';
import type { ObjectPut, ObjectStore } from '../io/object-store';

interface BuildRequest<Req> {
  readonly id: number;
  readonly request: Req;
}

type BuildReply<Res> = { readonly id: number; readonly ok: true; readonly result: Res } | { readonly id: number; readonly ok: false; readonly code: ErrorCode | null; readonly message: string };

/** Worker side: answer each request with `handler`'s result or its error. Call once from the worker's entry file. */
export function serveBuildRequests<Req, Res>(handler: (request: Req) => Res | Promise<Res>): void {
  parentPort!.on('message', ({ id, request }: BuildRequest<Req>) => {
    const failed = (err: unknown): BuildReply<Res> => ({ id, ok: false, code: err instanceof GaleneError ? err.code : null, message: err instanceof Error ? err.message : String(err) });
    let result: Res | Promise<Res>;
    try {
      result = handler(request);
    } catch (err) {
      parentPort!.postMessage(failed(err));
      return;
    }
    // An asynchronous handler (the load flush pool's segment encode) answers when its promise settles.
    if (result instanceof Promise) result.then((value) => parentPort!.postMessage({ id, ok: true, result: value } satisfies BuildReply<Res>), (err: unknown) => parentPort!.postMessage(failed(err)));
    else parentPort!.postMessage({ id, ok: true, result } satisfies BuildReply<Res>);
  });
}

/** Runs `script`'s builds (serveBuildRequests) in one worker thread, one at a time. `what` names it in errors. */
export class IndexBuildWorker<Req, Res> {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (result: Res) => void; reject: (err: Error) => void }>();

  constructor(
    private readonly script: string,
    private readonly what: string,
  ) {}

  private start(): Worker {
    const worker = new Worker(this.script);
    worker.on('message', (reply: BuildReply<Res>) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.ok) waiter.resolve(reply.result);
      else waiter.reject(this.replyError(reply));
    });
    const fail = (err: Error): void => {
      if (this.worker === worker) this.worker = null;
      for (const waiter of this.pending.values()) waiter.reject(new GaleneError('INTERNAL', [`${this.what} worker failed: ${err.message}`], { cause: err }));
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exited with code ${code}`)));
    return worker;
  }

  /** The worker's error as the same GaleneError (its code, its already formatted message). */
  private replyError(reply: Extract<BuildReply<Res>, { ok: false }>): GaleneError {
    if (!reply.code) return new GaleneError('INTERNAL', [`${this.what} failed: ${reply.message}`]);
    const err = new GaleneError(reply.code);
    err.message = reply.message;
    return err;
  }

  /** Run one build; `request` is structured-cloned to the worker (send compact buffers). */
  run(request: Req): Promise<Res> {
    this.worker ??= this.start();
    const worker = this.worker;
    worker.ref();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, request } satisfies BuildRequest<Req>);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }
}

/**
 * The process's shared builders (the ANN and inverted ones: one worker each for every BE in the process)
 * and how many open BEs use them. The last BE to close terminates their threads, so a build in flight
 * cannot write under data_dir after the server released its lock; a later build starts a new thread.
 */
const processBuilders = new Set<{ close(): Promise<void> }>();
let processBuilderUsers = 0;

/** Register `builder` as one of the process's shared builders; returns it. */
export function processBuilder<T extends { close(): Promise<void> }>(builder: T): T {
  processBuilders.add(builder);
  return builder;
}

/** A BE opened: it may use the shared builders until releaseProcessBuilders(). */
export function retainProcessBuilders(): void {
  processBuilderUsers++;
}

/** A BE closed: when it was the last, terminate the shared builders' threads (awaited). */
export async function releaseProcessBuilders(): Promise<void> {
  processBuilderUsers = Math.max(0, processBuilderUsers - 1);
  if (processBuilderUsers > 0) return;
  await Promise.all([...processBuilders].map((builder) => builder.close()));
}


/**
 * Build the index object `key` of `store` with `build(file)` (which writes `file` atomically): on a local
 * store the file is written in place; on a remote one it is built in `tempDir` and uploaded with one
 * atomic `put` (`store.put`, or the upload pool's), and the temporary file removed either way (before
 * the put settles: the bytes are read first).
 */
export async function buildIndexObject<T>(store: ObjectStore, key: string, build: (file: string) => Promise<T>, tempDir = os.tmpdir(), put: ObjectPut = (objectKey, parts) => store.put(objectKey, parts)): Promise<T> {
  const local = store.localPath(key);
  if (local) {
    await fsp.mkdir(path.dirname(local), { recursive: true, mode: PRIVATE_DIR_MODE });
    return build(local);
  }
  const file = path.join(tempDir, `galene-index-build-${uniqueTempTag()}.idx`);
  let bytes: Buffer;
  let result: T;
  try {
    result = await build(file);
    bytes = await fsp.readFile(file);
  } finally {
    await fsp.rm(file, { force: true });
  }
  await put(key, [bytes]);
  return result;
}
