/**
 * BE `GET /api/file_cache` (webserver_port), Doris's FileCacheAction:
 * - `op=clear&sync=true|false`: drop every cached block; `sync=true` answers when it is done, otherwise
 *   the clearing runs in the background and the answer comes at once;
 * - `op=reset&capacity=<bytes>`: a new capacity for the block cache (a shrink evicts at once).
 * Answers `{"status":"OK","msg":...}`; a bad capacity is `500 {"status":"INVALID_ARGUMENT",...}` and an
 * unknown op `500 {"status":"INTERNAL_ERROR","msg":"invalid operation: ..."}` as in Doris. Admin users
 * only (as /api/update_config): clearing or shrinking the cache costs every query its warm data.
 */
import type * as http from 'node:http';
import type { FileCache } from '../io/file-cache';
import type { ServerLog } from '../common/server-log';

type Route = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

/** Checks the caller is an admin; on refusal it has answered and returns false. */
export type FileCacheGate = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

function reply(res: http.ServerResponse, status: number, body: { status: string; msg: string }): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** The `/api/file_cache` route over the BE's FileCache. */
export function fileCacheHttpRoute(cache: FileCache, gate: FileCacheGate, serverLog: ServerLog): Route {
  return async (req, res) => {
    if (!gate(req, res)) return;
    const params = new URL(req.url ?? '/', 'http://localhost').searchParams;
    const op = params.get('op') ?? '';
    if (op === 'clear') {
      const clearing = cache.clear();
      if ((params.get('sync') ?? '').toLowerCase() === 'true') {
        await clearing;
        return reply(res, 200, { status: 'OK', msg: 'file cache cleared' });
      }
      clearing.catch((err: unknown) => serverLog.log('WARN', 'file-cache', `background clear of the file cache failed: ${err instanceof Error ? err.message : String(err)}`));
      return reply(res, 200, { status: 'OK', msg: 'file cache clearing in the background' });
    }
    if (op === 'reset') {
      const text = params.get('capacity') ?? '';
      const capacity = /^\d+$/.test(text) ? Number(text) : NaN;
      if (!Number.isSafeInteger(capacity) || capacity <= 0) {
        return reply(res, 500, { status: 'INVALID_ARGUMENT', msg: `The capacity ${text} failed to be parsed, the capacity needs to be in the interval (0, INT64_MAX]` });
      }
      if (!cache.resetCapacity) return reply(res, 500, { status: 'NOT_IMPLEMENTED_ERROR', msg: 'this BE has no block file cache' });
      const message = await cache.resetCapacity(capacity);
      serverLog.log('INFO', 'file-cache', message);
      return reply(res, 200, { status: 'OK', msg: message });
    }
    reply(res, 500, { status: 'INTERNAL_ERROR', msg: `invalid operation: ${op}` });
  };
}
