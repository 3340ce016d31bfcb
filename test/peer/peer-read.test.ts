// Peer Read's read path over real gRPC on loopback: a requester's file cache whose misses go to another
// cache's PeerFetchServer (through a TCP fault proxy where latency or a stall matters) raced against the
// object store both read; every answer is checked byte for byte against the stored file.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Config } from '../../src/common/config';
import { QueryProfile } from '../../src/common/profile';
import { BlockFileCache } from '../../src/io/block-file-cache';
import { LocalObjectStore } from '../../src/io/local-object-store';
import { ObjectStoreRangeSource } from '../../src/io/object-store-range-source';
import { GrpcPeerClient, PeerCandidateTable, PeerFetchServer, peerCacheApi, peerCandidateLimits, PeerRangeSource, PeerReadCounts, peerService, type PeerEndpoint, type PeerFetchResponse } from '../../src/io/peer';
import { RpcClientCache, RpcServer } from '../../src/io/rpc';
import { TcpFaultProxy } from '../helpers/tcp-fault-proxy';

const BLOCK = 64 * 1024;
const FILE_KEY = 'data/10007/42_0.dat';
const FILE_SIZE = 5 * BLOCK + 1234;
const REQUESTER: PeerEndpoint = { host: '127.0.0.1', brpcPort: 1, computeGroupId: 'read_group' };

let dir: string;
let store: LocalObjectStore;
let fileBytes: Buffer;
const clients = new RpcClientCache({ defaultTimeoutMs: 5000 });

async function openCache(name: string, source: ObjectStoreRangeSource | PeerRangeSource): Promise<BlockFileCache> {
  return BlockFileCache.open(source, { path: path.join(dir, name), capacityBytes: 64 * 1024 * 1024, blockSize: BLOCK, lruDumpIntervalMs: 0 });
}

/** A BE's cache serving peers over a real gRPC server. */
async function startPeerServer(name: string, settings: Config): Promise<{ cache: BlockFileCache; server: RpcServer; stop: () => Promise<void> }> {
  const cache = await openCache(name, new ObjectStoreRangeSource(store));
  const server = await RpcServer.start({ host: '127.0.0.1', port: 0, services: [new PeerFetchServer(cache, settings).binding()] });
  return { cache, server, stop: async () => { await server.close(100); await cache.close(); } };
}

/** A requester BE: a cache over a PeerRangeSource with its own candidate table. */
async function requester(name: string, settings: Config, lookup?: (tabletId: number) => Promise<PeerEndpoint[]>) {
  const candidates = new PeerCandidateTable(peerCandidateLimits(settings));
  const metrics = new PeerReadCounts();
  const source = new PeerRangeSource({ storage: new ObjectStoreRangeSource(store), settings, candidates, client: new GrpcPeerClient(clients), self: () => REQUESTER, blockSize: BLOCK, counters: metrics, ...(lookup === undefined ? {} : { lookup }) });
  const cache = await openCache(name, source);
  return { cache, candidates, metrics };
}

async function readAll(cache: BlockFileCache, offset = 0, length = FILE_SIZE): Promise<{ data: Buffer; profile: QueryProfile }> {
  const profile = new QueryProfile('q', '', 'root', '');
  const file = await cache.open(FILE_KEY, profile, FILE_SIZE);
  const data = await file.read(offset, length, profile, 'data');
  return { data, profile };
}

/** Read the whole file through a cache and wait until its blocks are on disk (puts run in the background). */
async function warm(cache: BlockFileCache): Promise<void> {
  await readAll(cache);
  await cache.flush();
}

const peerSettings = (overrides: Record<string, unknown> = {}): Config => new Config({ enable_cache_read_from_peer: true, ...overrides });

before(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'galene-peer-'));
  store = new LocalObjectStore(path.join(dir, 'objects'));
  fileBytes = randomBytes(FILE_SIZE);
  await store.put(FILE_KEY, fileBytes);
});

after(async () => {
  clients.close();
  await fsp.rm(dir, { recursive: true, force: true });
});

describe('peer read: requester and server', () => {
  it('serves a miss from a peer that cached the blocks, back-fills the local cache, and never touches storage', async () => {
    // Sequential mode: the object store here is a local directory, which would win any race.
    const settings = peerSettings({ enable_peer_s3_race: false });
    const peer = await startPeerServer('warm-peer', settings);
    try {
      await warm(peer.cache);
      const { cache, candidates, metrics } = await requester('req-warm', settings);
      candidates.setFromFe(10007, [{ host: '127.0.0.1', brpcPort: peer.server.port, computeGroupId: 'write_group' }]);
      const first = await readAll(cache);
      assert.ok(first.data.equals(fileBytes), 'peer bytes equal the stored file');
      assert.equal(first.profile.get('ObjectStoreRequests'), 0, 'no object-store request');
      assert.ok(first.profile.get('NumPeerIOTotal') >= 1);
      assert.equal(first.profile.get('CrossCGPeerBytesRead'), FILE_SIZE);
      assert.equal(first.profile.get('SameCGPeerIOTotal'), 0);
      assert.equal(first.profile.get('PeerRaceWin') + first.profile.get('S3RaceWin'), 0, 'no race in sequential mode');
      assert.equal(metrics.get('peer_cross_compute_group_read'), first.profile.get('NumPeerIOTotal'));
      await cache.flush();
      const second = await readAll(cache);
      assert.ok(second.data.equals(fileBytes));
      assert.equal(second.profile.get('NumPeerIOTotal'), 0, 'second read hits locally');
      assert.equal(second.profile.get('FileCacheHits'), 6);
      assert.equal(candidates.show(10007)?.last_successful_compute_group_id, 'write_group');
      await cache.close();
    } finally {
      await peer.stop();
    }
  });

  it('asks only for the missing blocks of an unaligned read', async () => {
    const settings = peerSettings({ enable_peer_s3_race: false });
    const peer = await startPeerServer('part-peer', settings);
    try {
      await warm(peer.cache);
      const { cache, candidates } = await requester('req-part', settings);
      candidates.setFromFe(10007, [{ host: '127.0.0.1', brpcPort: peer.server.port, computeGroupId: 'read_group' }]);
      const offset = BLOCK + 100;
      const length = 2 * BLOCK;
      const { data, profile } = await readAll(cache, offset, length);
      assert.ok(data.equals(fileBytes.subarray(offset, offset + length)));
      assert.equal(profile.get('SameCGPeerBytesRead'), 3 * BLOCK, 'the three blocks the range touches');
      await cache.flush();
      const whole = await readAll(cache);
      assert.ok(whole.data.equals(fileBytes));
      assert.equal(whole.profile.get('FileCacheHits'), 3);
      assert.equal(whole.profile.get('SameCGPeerBytesRead'), FILE_SIZE - 3 * BLOCK, 'only the three blocks still missing');
      await cache.close();
    } finally {
      await peer.stop();
    }
  });

  it('falls back to storage when the peer lacks the blocks, rotates, and cools the tablet down after repeated all-miss reads', async () => {
    const settings = peerSettings({ peer_all_miss_cooldown_threshold: 2, enable_peer_s3_race: false });
    const cold = await startPeerServer('cold-peer', settings);
    try {
      const { cache, candidates } = await requester('req-cold', settings);
      candidates.setFromFe(10007, [{ host: '127.0.0.1', brpcPort: cold.server.port, computeGroupId: 'g1' }]);
      const first = await readAll(cache, 0, BLOCK);
      assert.ok(first.data.equals(fileBytes.subarray(0, BLOCK)));
      assert.equal(first.profile.get('NumPeerIOTotal'), 0);
      assert.ok(first.profile.get('ObjectStoreRequests') >= 1);
      assert.equal(candidates.show(10007)?.consecutive_all_miss, 1);
      assert.equal(candidates.show(10007)?.candidates[0]?.consecutive_rpc_failures, 0, 'a miss is not a failure');
      await readAll(cache, BLOCK, BLOCK);
      const view = candidates.show(10007)!;
      assert.ok(view.cooldown_until_ms > Date.now(), 'cooling down after 2 all-miss reads');
      assert.ok(candidates.coolingDown(10007));
      assert.equal(peerCacheApi(candidates, 'POST', new URLSearchParams('op=reset_cooldown&tablet_id=10007'), '').status, 200);
      assert.ok(!candidates.coolingDown(10007));
      await cache.close();
    } finally {
      await cold.stop();
    }
  });

  it('a fill compute group reads storage on its miss, caches the block and returns it', async () => {
    const settings = peerSettings({ peer_cache_fill_compute_group_id: 'write_group', enable_peer_s3_race: false });
    const fill = await startPeerServer('fill-peer', settings);
    try {
      const { cache, candidates } = await requester('req-fill', settings);
      candidates.setFromFe(10007, [{ host: '127.0.0.1', brpcPort: fill.server.port, computeGroupId: 'write_group' }]);
      const { data, profile } = await readAll(cache);
      assert.ok(data.equals(fileBytes));
      assert.equal(profile.get('ObjectStoreRequests'), 0, 'the fill BE read storage, not the requester');
      await fill.cache.flush();
      assert.equal(fill.cache.stats().blocks, 6, 'the fill BE cached every block');
      await cache.close();
    } finally {
      await fill.stop();
    }
  });

  it('a fill BE at max_concurrent_peer_server_fills rejects, and the requester reads storage itself', async () => {
    const settings = peerSettings({ peer_cache_fill_compute_group_id: 'write_group', max_concurrent_peer_server_fills: 0, enable_peer_s3_race: false });
    const fill = await startPeerServer('busy-peer', settings);
    try {
      const { cache, candidates } = await requester('req-busy', settings);
      candidates.setFromFe(10007, [{ host: '127.0.0.1', brpcPort: fill.server.port, computeGroupId: 'write_group' }]);
      const { data, profile } = await readAll(cache);
      assert.ok(data.equals(fileBytes));
      assert.equal(profile.get('NumPeerIOTotal'), 0);
      assert.ok(profile.get('ObjectStoreRequests') >= 1);
      assert.equal(fill.cache.stats().blocks, 0);
      await cache.close();
    } finally {
      await fill.stop();
    }
  });

  it('races: a slow or stalled peer loses to storage after the head start, a fast one wins with no storage request', async () => {
    const settings = peerSettings({ peer_race_hedge_delay_ms: 20 });
    const peer = await startPeerServer('race-peer', settings);
    const proxy = await TcpFaultProxy.start('127.0.0.1', peer.server.port);
    try {
      await warm(peer.cache);
      const slow = await requester('req-slow', settings);
      slow.candidates.setFromFe(10007, [{ host: '127.0.0.1', brpcPort: proxy.port, computeGroupId: 'write_group' }]);
      proxy.delayMs = 400;
      const lost = await readAll(slow.cache, 0, BLOCK);
      assert.ok(lost.data.equals(fileBytes.subarray(0, BLOCK)));
      assert.equal(lost.profile.get('S3RaceWin'), 1);
      assert.equal(lost.profile.get('PeerRaceWin'), 0);
      assert.equal(slow.metrics.get('peer_race_s3_win'), 1);
      assert.equal(slow.candidates.show(10007)?.candidates[0]?.consecutive_rpc_failures, 0, 'a cancelled call is not a peer failure');
      proxy.stall();
      const stalled = await readAll(slow.cache, BLOCK, BLOCK);
      assert.ok(stalled.data.equals(fileBytes.subarray(BLOCK, 2 * BLOCK)), 'a peer that never answers: storage does');
      assert.equal(stalled.profile.get('S3RaceWin'), 1);
      proxy.resume();
      await slow.cache.close();

      proxy.delayMs = 0;
      // A long head start, so that a loaded machine cannot turn the peer's win into storage's.
      const fast = await requester('req-fast', peerSettings({ peer_race_hedge_delay_ms: 3000 }));
      fast.candidates.setFromFe(10007, [{ host: '127.0.0.1', brpcPort: peer.server.port, computeGroupId: 'write_group' }]);
      const won = await readAll(fast.cache, BLOCK, BLOCK);
      assert.equal(won.profile.get('PeerRaceWin'), 1);
      assert.equal(won.profile.get('ObjectStoreRequests'), 0);
      await fast.cache.close();
    } finally {
      await proxy.close();
      await peer.stop();
    }
  });

  it('an unreachable peer is evicted after the failure threshold, and storage answers every read', async () => {
    const settings = peerSettings({ enable_peer_s3_race: false, peer_rpc_failure_eviction_threshold: 2 });
    const closed = await RpcServer.start({ host: '127.0.0.1', port: 0, services: [] });
    const deadPort = closed.port;
    await closed.close(0);
    const { cache, candidates } = await requester('req-dead', settings);
    candidates.setFromFe(10007, [{ host: '127.0.0.1', brpcPort: deadPort, computeGroupId: 'g' }]);
    for (let round = 0; round < 2; round++) {
      const { data, profile } = await readAll(cache, round * BLOCK, BLOCK);
      assert.ok(data.equals(fileBytes.subarray(round * BLOCK, (round + 1) * BLOCK)));
      assert.equal(profile.get('NumPeerIOTotal'), 0);
    }
    assert.equal(candidates.show(10007)?.candidates.length, 0, 'evicted after 2 failed RPCs');
    await cache.close();
  });

  it('a peer that answers with the wrong ranges or length never fails the read', async () => {
    const settings = peerSettings({ enable_peer_s3_race: false });
    const answers: ((request: { cache_req: { block_offset: number; block_size: number }[] }) => PeerFetchResponse)[] = [
      (request) => ({ status: 'OK', error_msg: '', datas: request.cache_req.map((range) => ({ ...range, data: Buffer.alloc(range.block_size - 1) })) }),
      (request) => ({ status: 'OK', error_msg: '', datas: request.cache_req.map((range) => ({ block_offset: range.block_offset + BLOCK, block_size: range.block_size, data: Buffer.alloc(range.block_size) })) }),
      () => ({ status: 'OK', error_msg: '', datas: [] }),
    ];
    let answer = 0;
    const liar = await RpcServer.start({ host: '127.0.0.1', port: 0, services: [{ service: peerService(), handlers: { FetchPeerData: (request: never) => answers[answer++ % answers.length]!(request) } }] });
    try {
      const { cache, candidates } = await requester('req-liar', settings);
      candidates.setFromFe(10007, [{ host: '127.0.0.1', brpcPort: liar.port, computeGroupId: 'g' }]);
      for (let blockIdx = 0; blockIdx < 3; blockIdx++) {
        const { data, profile } = await readAll(cache, blockIdx * BLOCK, BLOCK);
        assert.ok(data.equals(fileBytes.subarray(blockIdx * BLOCK, (blockIdx + 1) * BLOCK)), `answer ${blockIdx}: storage's bytes`);
        assert.equal(profile.get('NumPeerIOTotal'), 0);
      }
      assert.equal(answer, 3);
      await cache.close();
    } finally {
      await liar.close(0);
    }
  });

  it('with no candidates, reads storage and asks the FE in the background; the next miss uses the answer', async () => {
    const settings = peerSettings({ enable_peer_s3_race: false });
    const peer = await startPeerServer('lazy-peer', settings);
    try {
      await warm(peer.cache);
      let lookups = 0;
      const { cache, metrics } = await requester('req-lazy', settings, async (tabletId) => {
        lookups++;
        assert.equal(tabletId, 10007);
        return [REQUESTER, { host: '127.0.0.1', brpcPort: peer.server.port, computeGroupId: 'write_group' }];
      });
      const first = await readAll(cache, 0, BLOCK);
      assert.equal(first.profile.get('PeerLazyFetch'), 1);
      assert.ok(first.profile.get('ObjectStoreRequests') >= 1);
      await new Promise((resolve) => setImmediate(resolve));
      const next = await readAll(cache, BLOCK, BLOCK);
      assert.ok(next.data.equals(fileBytes.subarray(BLOCK, 2 * BLOCK)));
      assert.equal(next.profile.get('NumPeerIOTotal'), 1);
      assert.equal(lookups, 1);
      assert.equal(metrics.get('peer_lazy_fetch_triggered'), 1);
      await cache.close();
    } finally {
      await peer.stop();
    }
  });

  it('off by default, for non-tablet objects and for reads marked skipPeer: storage only', async () => {
    const settings = new Config({});
    assert.equal(settings.get('enable_cache_read_from_peer'), false);
    const { cache, candidates } = await requester('req-off', settings);
    candidates.setFromFe(10007, [{ host: '127.0.0.1', brpcPort: 9, computeGroupId: 'g' }]);
    const { data, profile } = await readAll(cache);
    assert.ok(data.equals(fileBytes));
    assert.equal(profile.get('NumPeerIOTotal'), 0);
    assert.equal(candidates.show(10007)?.candidates[0]?.consecutive_rpc_failures, 0, 'never asked');
    await cache.close();
  });

  it('the server refuses malformed requests with INVALID_ARGUMENT and reads nothing', async () => {
    const settings = peerSettings();
    const peer = await startPeerServer('strict-peer', settings);
    try {
      const client = new GrpcPeerClient(clients);
      const at = { host: '127.0.0.1', brpcPort: peer.server.port, computeGroupId: 'g' };
      const bad = [
        { path: '', file_size: FILE_SIZE, cache_req: [{ block_offset: 0, block_size: BLOCK }], tablet_id: 1, request_cache_fill: false },
        { path: FILE_KEY, file_size: FILE_SIZE, cache_req: [{ block_offset: 100, block_size: BLOCK }], tablet_id: 1, request_cache_fill: true },
        { path: FILE_KEY, file_size: FILE_SIZE, cache_req: [{ block_offset: 5 * BLOCK, block_size: BLOCK }], tablet_id: 1, request_cache_fill: true },
        { path: FILE_KEY, file_size: FILE_SIZE, cache_req: [], tablet_id: 1, request_cache_fill: false },
        { path: FILE_KEY, file_size: -5, cache_req: [{ block_offset: 0, block_size: BLOCK }], tablet_id: 1, request_cache_fill: false },
        // More blocks than MAX_BLOCKS_PER_REQUEST (64), each well-formed.
        { path: FILE_KEY, file_size: 70 * BLOCK, cache_req: Array.from({ length: 65 }, (_, blockIdx) => ({ block_offset: blockIdx * BLOCK, block_size: BLOCK })), tablet_id: 1, request_cache_fill: true },
      ];
      for (const request of bad) {
        const response = await client.fetch(at, request, { timeoutMs: 2000 });
        assert.equal(response.status, 'INVALID_ARGUMENT', JSON.stringify(request.cache_req));
        assert.ok(response.error_msg.length > 0);
      }
      assert.equal(peer.cache.stats().blocks, 0);
    } finally {
      await peer.stop();
    }
  });
});

describe('peer candidates', () => {
  const limits = () => ({ failureEvictionThreshold: 3, allMissCooldownThreshold: 5, allMissCooldownMs: 1000, expiryMs: 10_000 });
  const a = { host: 'a', brpcPort: 1, computeGroupId: 'g1' };
  const b = { host: 'b', brpcPort: 1, computeGroupId: 'g2' };
  const c = { host: 'c', brpcPort: 1, computeGroupId: 'g3' };
  const order = (table: PeerCandidateTable): string[] => table.candidatesFor(1).map((peer) => peer.host);

  it('orders the rebalance hint first, then the group that last served the tablet, then the rest; misses go to the end', () => {
    const table = new PeerCandidateTable(limits);
    table.setFromFe(1, [a, b, c]);
    assert.deepEqual(order(table), ['a', 'b', 'c']);
    table.recordHit(1, c);
    assert.deepEqual(order(table), ['c', 'a', 'b']);
    table.recordMiss(1, a);
    assert.deepEqual(order(table), ['c', 'b', 'a']);
    table.addRebalanceHint(1, { host: 'old', brpcPort: 2, computeGroupId: 'g1' });
    assert.deepEqual(order(table), ['old', 'c', 'b', 'a']);
    table.setFromFe(1, [b]);
    assert.deepEqual(order(table), ['old', 'b'], 'a new FE answer replaces the old one, the hint stays');
  });

  it('evicts a candidate after the failure threshold and expires unused entries', () => {
    let now = 1000;
    const table = new PeerCandidateTable(limits, () => now);
    table.setFromFe(1, [a, b]);
    for (let failure = 0; failure < 2; failure++) table.recordFailure(1, a);
    assert.deepEqual(order(table), ['b', 'a']);
    table.recordHit(1, a);
    table.recordFailure(1, a);
    table.recordFailure(1, a);
    assert.equal(table.show(1)?.candidates.find((peer) => peer.host === 'a')?.consecutive_rpc_failures, 2, 'a hit reset the count');
    table.recordFailure(1, a);
    assert.deepEqual(order(table), ['b']);
    now += 20_000;
    assert.equal(table.cleanup(), 1);
    assert.equal(table.size, 0);
  });

  it('serves /api/peer_cache: show, show_all, set, remove, and refuses bad requests with 400', () => {
    const table = new PeerCandidateTable(limits);
    const api = (method: string, query: string, body = '') => peerCacheApi(table, method, new URLSearchParams(query), body);
    assert.equal(api('GET', 'op=show&tablet_id=5').status, 404);
    const set = api('POST', 'op=set&tablet_id=5', JSON.stringify([{ host: 'h', brpc_port: 8060, compute_group_id: '7' }]));
    assert.equal(set.status, 200);
    assert.deepEqual((api('GET', 'op=show&tablet_id=5').body as { candidates: { host: string; source: string }[] }).candidates.map((peer) => [peer.host, peer.source]), [['h', 'manual']]);
    assert.equal((api('GET', 'op=show_all').body as { tablets: unknown[] }).tablets.length, 1);
    for (const [method, query, body] of [['GET', 'op=nope&tablet_id=5', ''], ['GET', 'op=show&tablet_id=x', ''], ['GET', 'op=set&tablet_id=5', '[]'], ['POST', 'op=set&tablet_id=5', '{bad'], ['POST', 'op=set&tablet_id=5', '[{"host":"h","brpc_port":70000}]'], ['GET', 'op=show_all&limit=-1', '']] as const) {
      assert.equal(api(method, query, body).status, 400, `${method} ${query} ${body}`);
    }
    assert.equal(table.show(5)?.candidates.length, 1, 'bad requests changed nothing');
    assert.deepEqual(api('POST', 'op=remove&tablet_id=5').body, { status: 'OK', removed: true });
    assert.equal(table.size, 0);
  });
});
