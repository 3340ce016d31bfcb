/**
 * `galene be`: a BE as its own process. It serves every BE gRPC service (be-rpc-services.ts) on
 * heartbeat_service_port and on brpc_port, its HTTP API on webserver_port (`/api/health`, `/metrics`), and, started
 * with `--fe HOST:PORT`, registers with that FE's FrontendService, retrying until the FE answers. It
 * registers again when a heartbeat shows a new fe_start_time (the FE restarted and may have lost what
 * it had not written down, or the BE was dropped and added back).
 *
 * It reads for the FE: a Backend over the shared object store (`object_store_dir`, for a local store the
 * FE's objects directory; S3 vaults come in each call's read descriptor) serves the FragmentService, so the
 * FE's scans of OLAP tables run here. A BE keeps no metadata: only its identity (`<data_dir>/be_unique_id`,
 * Doris's cloud_unique_id) and its own file cache (under data_dir). Loads still run on the FE's own BE
 * (docs/cluster.md).
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { updateConfig, type Config } from '../common/config';
import { GaleneError, toGaleneError } from '../common/errors';
import { makePrivateDir } from '../common/private-files';
import { BlockFileCache } from '../io/block-file-cache';
import { GrpcPeerClient, PeerCandidateTable, peerCacheApi, peerCandidateLimits, PeerFetchServer, PeerRangeSource, PeerReadCounts, type PeerEndpoint } from '../io/peer';
import { RpcClient, RpcClientCache, RpcServer } from '../io/rpc';
import type { RangeSource } from '../io/range-source';
import { VaultFileCache } from '../io/vault-file-cache';
import { lockDataDir } from '../meta/data-dir-lock';
import { METRICS_CONTENT_TYPE, Registry } from '../common/metrics';
import { Backend } from './backend';
import { addPeerReadMetrics, addProcessMetrics } from './be-metrics';
import { FragmentServiceStats } from './fragment-rpc-service';
import { backendRpcServices, FRONTEND_SERVICE, type BackendIdentity } from './be-rpc-services';

export interface BackendProcessOptions {
  /** The FE's rpc_port endpoint `host:port`; null: wait to be added with ALTER SYSTEM ADD BACKEND. */
  readonly fe: string | null;
  readonly computeGroup: string;
  readonly version: string;
  /** Told about registration attempts and failures (stderr). */
  readonly log?: (message: string) => void;
  /** Told each time the FE accepts a registration. */
  readonly onRegistered?: (backendId: number) => void;
}

export interface RunningBackend {
  readonly identity: BackendIdentity;
  /** The reader over the shared store that the FragmentService runs scans on. */
  readonly backend: Backend;
  readonly ports: { heartbeat_service_port: number; brpc_port: number; webserver_port: number };
  /** Resolves once the first registration succeeded (never when started without --fe). */
  readonly registered: Promise<void>;
  stop(): Promise<void>;
}

/** Retry pauses while the FE does not answer: 200 ms doubling to 5 s. */
const RETRY_FIRST_MS = 200;
const RETRY_MAX_MS = 5000;

/** What FrontendService.RegisterBackend answers (heartbeat.proto). */
interface TabletPeersResponse {
  readonly peers: readonly { host: string; brpc_port: number; compute_group_id: string; rebalance_hint: boolean }[];
  readonly compute_group_id: string;
}

interface RegisterResponse {
  readonly backend_id: number;
  readonly compute_group: string;
  readonly heartbeat_interval_ms: number;
  readonly fe_start_time: number;
}

/** The BE's lasting identity: made on first start, kept under data_dir. */
function uniqueIdOf(dataDir: string): string {
  const file = path.join(dataDir, 'be_unique_id');
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{32}$/.test(text)) return text;
  } catch {
    // first start
  }
  const id = randomBytes(16).toString('hex');
  fs.writeFileSync(`${file}.tmp`, id + '\n');
  fs.renameSync(`${file}.tmp`, file);
  return id;
}

const PEER_CACHE_BODY_LIMIT = 1 << 20;

/** `/api/health`, `/api/update_config` (run-time settings), `/api/peer_cache` (Peer Read's candidates, io/peer/peer-cache-api.ts), and `/metrics` (Doris's doris_be_* series of this process: be-metrics.ts addProcessMetrics). */
function httpServer(identity: BackendIdentity, metrics: Registry, peerCandidates: PeerCandidateTable, config: Config): http.Server {
  return http.createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0];
    if (url === '/api/update_config') {
      // No login, as Doris's BE with its default enable_all_http_auth=false: the BE has no users.
      const answer = req.method === 'POST' ? updateConfig(config, new URL(req.url ?? '/', 'http://localhost').searchParams) : { status: 'BAD', msg: `method ${req.method} not allowed, use POST` };
      res.writeHead(req.method === 'POST' ? 200 : 405, { 'Content-Type': 'application/json', ...(req.method === 'POST' ? {} : { Allow: 'POST' }) });
      res.end(JSON.stringify(answer));
      req.resume();
      return;
    }
    if (url === '/api/peer_cache') {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= PEER_CACHE_BODY_LIMIT) chunks.push(chunk);
      });
      req.on('end', () => {
        const answer = size > PEER_CACHE_BODY_LIMIT ? { status: 400, body: { status: 'INVALID_ARGUMENT', msg: `body over ${PEER_CACHE_BODY_LIMIT} bytes` } } : peerCacheApi(peerCandidates, req.method ?? 'GET', new URL(req.url ?? '/', 'http://localhost').searchParams, Buffer.concat(chunks).toString('utf8'));
        res.writeHead(answer.status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      });
      return;
    }
    if (url === '/metrics') {
      metrics.metrics().then(
        (text) => {
          res.writeHead(200, { 'Content-Type': METRICS_CONTENT_TYPE, 'Content-Length': Buffer.byteLength(text) });
          res.end(text);
        },
        (err: unknown) => {
          res.writeHead(500, { 'Content-Type': 'text/plain' });
          res.end(toGaleneError(err).message);
        },
      );
      return;
    }
    const body = url === '/api/health' ? { status: 'OK', msg: 'To Be Added' } : null;
    res.writeHead(body === null ? 404 : 200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body ?? { status: 'FAILED', msg: `not found: ${url}`, backend_id: identity.backendId }));
  });
}

function listen(server: http.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (err) => reject(new GaleneError('IO_ERROR', [`cannot listen on ${host}:${port}: ${err.message}`], { cause: err })));
    server.listen(port, host, () => resolve((server.address() as { port: number }).port));
  });
}

export async function startBackendProcess(config: Config, options: BackendProcessOptions): Promise<RunningBackend> {
  const dataDir = config.getString('data_dir');
  makePrivateDir(dataDir);
  const lock = lockDataDir(dataDir);
  const host = config.getString('bind_address');
  const identity: BackendIdentity = {
    uniqueId: uniqueIdOf(dataDir), startTime: Date.now(), version: options.version, ports: { heartbeatPort: 0, httpPort: 0, brpcPort: 0 },
    backendId: 0, computeGroup: options.computeGroup, decommissioned: false, feStartTime: 0, lastHeartbeat: 0,
  };
  const log = options.log ?? (() => undefined);
  const feClient = options.fe !== null ? new RpcClient(options.fe, { defaultTimeoutMs: 5000 }) : null;
  let stopped = false;
  let registering: Promise<void> | null = null;
  const stopSignal = new AbortController();

  /** Register until the FE answers (or the process stops); one attempt loop at a time. */
  const register = (): Promise<void> => {
    if (feClient === null) return new Promise<void>(() => undefined);
    registering ??= (async () => {
      let pause = RETRY_FIRST_MS;
      while (!stopped) {
        try {
          const response = await feClient.unary<RegisterResponse>(FRONTEND_SERVICE, 'RegisterBackend', {
            host, heartbeat_port: identity.ports.heartbeatPort, http_port: identity.ports.httpPort, brpc_port: identity.ports.brpcPort, be_port: -1,
            compute_group: identity.computeGroup, start_time: identity.startTime, version: identity.version, unique_id: identity.uniqueId,
          }, { signal: stopSignal.signal });
          identity.backendId = response.backend_id;
          identity.computeGroup = response.compute_group;
          identity.feStartTime = response.fe_start_time;
          options.onRegistered?.(response.backend_id);
          log(`registered with FE ${options.fe} as backend ${response.backend_id} in compute group ${response.compute_group}`);
          return;
        } catch (err) {
          if (stopped) return;
          log(`cannot register with FE ${options.fe} (retrying in ${pause} ms): ${toGaleneError(err).message}`);
          await new Promise((resolve) => setTimeout(resolve, pause).unref());
          pause = Math.min(RETRY_MAX_MS, pause * 2);
        }
      }
    })().finally(() => (registering = null));
    return registering;
  };

  // Peer Read (io/peer): the block cache's misses may be read from another BE's cache; candidates come from
  // the FE (GetTabletPeers), which also tells this BE its compute group id.
  const peerCandidates = new PeerCandidateTable(peerCandidateLimits(config));
  const peerCounts = new PeerReadCounts();
  const peerClients = new RpcClientCache({ defaultTimeoutMs: 5000 });
  let computeGroupId = '';
  const self = (): PeerEndpoint => ({ host, brpcPort: identity.ports.brpcPort, computeGroupId });
  const lookUpPeers = async (tabletId: number): Promise<PeerEndpoint[]> => {
    if (feClient === null || identity.backendId === 0) return [];
    const response = await feClient.unary<TabletPeersResponse>(FRONTEND_SERVICE, 'GetTabletPeers', { tablet_id: tabletId, backend_id: identity.backendId }, { signal: stopSignal.signal });
    computeGroupId = response.compute_group_id;
    const peers = response.peers.map((peer) => ({ endpoint: { host: peer.host, brpcPort: peer.brpc_port, computeGroupId: peer.compute_group_id }, hint: peer.rebalance_hint }));
    for (const peer of peers) if (peer.hint) peerCandidates.addRebalanceHint(tabletId, peer.endpoint);
    return peers.filter((peer) => !peer.hint).map((peer) => peer.endpoint);
  };
  const peerSource = (storage: RangeSource): RangeSource =>
    new PeerRangeSource({ storage, settings: config, candidates: peerCandidates, client: new GrpcPeerClient(peerClients), self, blockSize: config.getInt('file_cache_each_block_size'), lookup: lookUpPeers, counters: peerCounts });
  const cleanup = setInterval(() => peerCandidates.cleanup(), config.getInt('peer_candidate_cleanup_interval_s') * 1000);
  cleanup.unref();

  let backend: Backend;
  try {
    // No catalog: the BE reads only what each call's read descriptor names (Backend.open).
    backend = await Backend.open(config, null, undefined, peerSource);
    if (config.getString('object_store_dir') === '') log(`object_store_dir is not set: tables in the local store are read from ${path.join(dataDir, 'objects')} (give the FE's objects directory; S3 vaults need nothing)`);
  } catch (err) {
    feClient?.close();
    lock.release();
    throw err;
  }
  const fragmentStats = new FragmentServiceStats();
  const blockTier = backend.fileCache instanceof VaultFileCache ? backend.fileCache.block : backend.fileCache instanceof BlockFileCache ? backend.fileCache : null;
  const peerServer = blockTier === null ? [] : [new PeerFetchServer(blockTier, config, peerCounts).binding()];
  const services = [...backendRpcServices(identity, { onNewFrontend: () => void register() }, backend, fragmentStats), ...peerServer];
  const metrics = new Registry();
  addProcessMetrics(metrics, backend, [path.resolve(dataDir)], fragmentStats);
  addPeerReadMetrics(metrics, peerCounts);
  const rpcServers: RpcServer[] = [];
  const http = httpServer(identity, metrics, peerCandidates, config);
  try {
    for (const setting of ['heartbeat_service_port', 'brpc_port'] as const) rpcServers.push(await RpcServer.start({ host, port: config.getInt(setting), services, onHandlerError: (method, err) => log(`${method} failed: ${toGaleneError(err).message}`) }));
    identity.ports.heartbeatPort = rpcServers[0].port;
    identity.ports.brpcPort = rpcServers[1].port;
    identity.ports.httpPort = await listen(http, host, config.getInt('webserver_port'));
  } catch (err) {
    await Promise.all(rpcServers.map((server) => server.close(0)));
    http.close();
    feClient?.close();
    await backend.close().catch(() => undefined);
    lock.release();
    throw err;
  }
  const ports = { heartbeat_service_port: identity.ports.heartbeatPort, brpc_port: identity.ports.brpcPort, webserver_port: identity.ports.httpPort };
  for (const [name, port] of Object.entries(ports)) config.set(name, port);
  const registered = register();
  return {
    identity,
    backend,
    ports,
    registered,
    async stop() {
      stopped = true;
      stopSignal.abort();
      clearInterval(cleanup);
      peerClients.close();
      await Promise.all(rpcServers.map((server) => server.close()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
      feClient?.close();
      await backend.close();
      lock.release();
    },
  };
}
