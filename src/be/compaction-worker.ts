/**
 * Entry point of the compaction worker thread: merges one tablet's rowsets (compaction-merge.ts) off the
 * event loop, reading and writing the local-directory object store in place, and posts back the written
 * segments. The main thread (compaction.ts) commits or deletes them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { GaleneError } from '../common/errors';
import { InPlaceFileCache } from '../io/in-place-file-cache';
import { LocalObjectStore } from '../io/local-object-store';
import type { TableState } from '../meta/catalog';
import { DeleteBitmap } from '../meta/delete-bitmap';
import { mergeTabletRowsets } from './compaction-merge';
import type { CompactionWorkerReply, CompactionWorkerRequest } from './compaction-worker-client';

const store = new LocalObjectStore((workerData as { objectRoot: string }).objectRoot);
const fileCache = new InPlaceFileCache(store);

parentPort!.on('message', (request: CompactionWorkerRequest) => {
  const slice: TableState = { ...request.slice, deleteBitmap: DeleteBitmap.fromEntries(request.deleteBitmap) };
  mergeTabletRowsets(slice, fileCache, store, request.txnId, request.writeOptions).then(
    (written) => parentPort!.postMessage({ id: request.id, ok: true, written } satisfies CompactionWorkerReply),
    (err: unknown) =>
      parentPort!.postMessage({
        id: request.id,
        ok: false,
        code: err instanceof GaleneError ? err.code : null,
        message: err instanceof Error ? err.message : String(err),
      } satisfies CompactionWorkerReply),
  );
});
