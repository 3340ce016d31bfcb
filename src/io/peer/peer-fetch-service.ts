/**
 * The server side of Peer Read: a BE answering other BEs' `fetch_peer_data` from its own file cache
 * (doris-facts A.4). Each requested block is looked up by the hash of the object key and its offset; a
 * block the cache lacks makes the answer NOT_FOUND (the requester rotates to its next candidate or reads
 * storage). A request with `request_cache_fill` (the requester counts this BE's compute group as its fill
 * group) reads the missing blocks from storage through the cache instead, so that they are cached here
 * for the next group too — within `peer_server_cache_fill_timeout_ms` and `max_concurrent_peer_server_fills`,
 * else BUSY / FILL_TIMEOUT and the requester reads storage itself. A fill's own reads never go to peers.
 *
 * Requests wait for one of `brpc_peer_fetch_pool_threads` slots for at most `peer_fetch_queue_timeout_ms`
 * (BUSY after that). A malformed request gets INVALID_ARGUMENT and reads nothing. Counters: Doris's server
 * metrics (A.6).
 */
import type { ProfileSink } from '../../common/profile';
import type { BlockFileCache } from '../block-file-cache';
import { blockId, cacheKeyHash } from '../block-store';
import type { RpcCallContext, RpcServiceBinding } from '../rpc';
import { peerService, requestProblem, type PeerBlockData, type PeerFetchRequest, type PeerFetchResponse, type PeerFetchStatus } from './peer-protocol';
import type { PeerSettingsReader } from './peer-settings';
import { SlotGate } from './slot-gate';

/** Where the server counts what it did (Doris's BE metric names). */
export interface PeerServerCounters {
  inc(name: PeerServerMetric, delta?: number): void;
}

export type PeerServerMetric =
  | 'file_cache_get_by_peer_num'
  | 'file_cache_get_by_peer_success_num'
  | 'file_cache_get_by_peer_failed_num'
  | 'file_cache_get_by_peer_queue_timeout_num'
  | 'peer_server_fill_requested'
  | 'peer_server_fill_success'
  | 'peer_server_fill_timeout'
  | 'peer_server_fill_rejected';

/** Reads a fill makes for itself: counted nowhere, and never sent to a peer. */
const FILL_PROFILE: ProfileSink = { add: () => undefined, skipPeer: true };

export class PeerFetchServer {
  private readonly pool: SlotGate;
  private fillsRunning = 0;

  constructor(
    private readonly cache: BlockFileCache,
    private readonly settings: PeerSettingsReader,
    private readonly counters: PeerServerCounters = { inc: () => undefined },
  ) {
    this.pool = new SlotGate(() => settings.get<number>('brpc_peer_fetch_pool_threads'));
  }

  /** The PeerService binding for an RpcServer's service list. */
  binding(): RpcServiceBinding {
    return { service: peerService(), handlers: { FetchPeerData: (request: PeerFetchRequest, ctx: RpcCallContext) => this.fetch(request, ctx.signal) } };
  }

  async fetch(request: PeerFetchRequest, signal?: AbortSignal): Promise<PeerFetchResponse> {
    this.counters.inc('file_cache_get_by_peer_num');
    const problem = requestProblem(request, this.cache.blockSize);
    if (problem !== null) return this.fail('INVALID_ARGUMENT', problem);
    if (!(await this.pool.acquire(this.settings.get<number>('peer_fetch_queue_timeout_ms'), signal))) {
      this.counters.inc('file_cache_get_by_peer_queue_timeout_num');
      return this.fail('BUSY', `waited over peer_fetch_queue_timeout_ms (${this.settings.get<number>('peer_fetch_queue_timeout_ms')} ms) for a fetch slot`);
    }
    try {
      const cached = await this.readCached(request);
      if (cached !== null) {
        this.counters.inc('file_cache_get_by_peer_success_num');
        return { status: 'OK', error_msg: '', datas: cached };
      }
      if (!request.request_cache_fill || !this.settings.get<boolean>('enable_peer_server_cache_fill')) return this.fail('NOT_FOUND', `blocks of ${request.path} are not cached here`);
      return await this.fill(request);
    } finally {
      this.pool.release();
    }
  }

  /** Every requested block from the cache, or null when one is missing (or vanished while read). */
  private async readCached(request: PeerFetchRequest): Promise<PeerBlockData[] | null> {
    const hash = cacheKeyHash(request.path);
    const blocks = this.cache.blocks;
    const datas: PeerBlockData[] = [];
    for (const range of request.cache_req) {
      const entry = blocks.lookup(blockId(hash, range.block_offset));
      if (entry === undefined || entry.size !== range.block_size) return null;
      const data = Buffer.allocUnsafe(range.block_size);
      if (!(await blocks.readInto(entry, 0, range.block_size, data, 0))) return null;
      datas.push({ block_offset: range.block_offset, block_size: range.block_size, data });
    }
    return datas;
  }

  /** Read the blocks through the cache (storage on a miss, cached here), bounded in count and time. */
  private async fill(request: PeerFetchRequest): Promise<PeerFetchResponse> {
    this.counters.inc('peer_server_fill_requested');
    if (this.fillsRunning >= this.settings.get<number>('max_concurrent_peer_server_fills')) {
      this.counters.inc('peer_server_fill_rejected');
      return this.fail('BUSY', `max_concurrent_peer_server_fills (${this.settings.get<number>('max_concurrent_peer_server_fills')}) fills are running`);
    }
    this.fillsRunning++;
    const timeoutMs = this.settings.get<number>('peer_server_cache_fill_timeout_ms');
    let timer: NodeJS.Timeout | undefined;
    try {
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      const read = this.readThroughCache(request);
      // A fill that loses the race still finishes in the background: its blocks stay cached for later requests.
      read.catch(() => undefined);
      const outcome = await Promise.race([read, timedOut]);
      if (outcome === 'timeout') {
        this.counters.inc('peer_server_fill_timeout');
        return this.fail('FILL_TIMEOUT', `fill of ${request.path} took over peer_server_cache_fill_timeout_ms (${timeoutMs} ms)`);
      }
      this.counters.inc('peer_server_fill_success');
      this.counters.inc('file_cache_get_by_peer_success_num');
      return { status: 'OK', error_msg: '', datas: outcome };
    } catch (err) {
      return this.fail('FILL_FAILED', `fill of ${request.path}: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
      this.fillsRunning--;
    }
  }

  private async readThroughCache(request: PeerFetchRequest): Promise<PeerBlockData[]> {
    const file = await this.cache.open(request.path, FILL_PROFILE, request.file_size);
    return Promise.all(request.cache_req.map(async (range) => ({ block_offset: range.block_offset, block_size: range.block_size, data: await file.read(range.block_offset, range.block_size, FILL_PROFILE, 'data') })));
  }

  private fail(status: Exclude<PeerFetchStatus, 'OK'>, message: string): PeerFetchResponse {
    this.counters.inc('file_cache_get_by_peer_failed_num');
    return { status, error_msg: message, datas: [] };
  }
}
