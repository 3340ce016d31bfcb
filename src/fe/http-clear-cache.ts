/**
 * BE `GET /api/clear_cache/{type}` (webserver_port), Doris's ClearCacheAction (2.1.6+): drops in-memory
 * caches and answers the bytes released. Types: `all`, `DataPageCache` (decoded pages), `SegmentCache`
 * (open segment and primary-key index readers: footers, page indexes, blooms). The file cache on disk is
 * `/api/file_cache?op=clear` (http-file-cache.ts); both together make the next read cold, as Doris's
 * benchmark scripts do. Admin users only, as /api/file_cache.
 */
import type * as http from 'node:http';
import type { Backend } from '../be/backend';
import type { FileCacheGate } from './http-file-cache';

type Route = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

const TYPES = ['all', 'DataPageCache', 'SegmentCache'] as const;

/** One route per cache type, keyed by path (the BE's route table matches whole paths). */
export function clearCacheHttpRoutes(backend: Backend, gate: FileCacheGate): Record<string, Route> {
  const routes: Record<string, Route> = {};
  for (const type of TYPES) {
    routes[`/api/clear_cache/${type}`] = async (req, res) => {
      if (!gate(req, res)) return;
      const released = backend.clearMemoryCaches(type);
      backend.serverLog.log('INFO', 'cache', `clear_cache/${type}: released ${released} bytes of decoded pages`);
      const text = JSON.stringify({ status: 'OK', msg: `released ${released} bytes` });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    };
  }
  return routes;
}
