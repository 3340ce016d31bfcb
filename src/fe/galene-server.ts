/**
 * Starts one FE and one BE in this process: locks data_dir (one server per directory), opens metadata and
 * storage under it (recovering from a crash), then the MySQL server (query_port) and the HTTP servers
 * (http_port, webserver_port, brpc_port). Role 'fe' (`galene fe`) also serves the FrontendService on
 * rpc_port where BEs register, SHOW BACKENDS lists the registered BEs instead of this process's own, and
 * OLAP table scans run on those BEs (fe/cluster-scan-route.ts); this process's own BE still runs the
 * loads (docs/cluster.md).
 * Both roles heartbeat the BEs the membership knows (ALTER SYSTEM ADD BACKEND works embedded too).
 */
import { DynamicPartitionScheduler } from './dynamic-partitions';
import type { Server } from 'node:http';
import type { Config } from '../common/config';
import type { ObjectStore } from '../io/object-store';
import { scheduler } from '../common/cooperative-scheduler';
import { existingGroupCommitManager, groupCommitManagerOf, WalReplaySummary } from '../load/group-commit';
import { lockDataDir } from '../meta/data-dir-lock';
import { MysqlServer } from '../protocol/mysql-server';
import { Frontend } from './frontend';
import { createHttpServer, listenHttp } from './http-api';
import { RpcServer } from '../io/rpc';
import { HeartbeatManager } from './heartbeat-manager';
import { frontendRpcService } from './frontend-rpc-service';
import { DORIS_BUILD_VERSION } from './session-variables';

export interface RunningGalene {
  readonly frontend: Frontend;
  readonly ports: { query_port: number; http_port: number; webserver_port: number; brpc_port: number; rpc_port?: number };
  readonly heartbeats: HeartbeatManager;
  /** What start-up recovery did (WAL replay), for the ready line. */
  readonly startup: { readonly walReplay: WalReplaySummary };
  stop(): Promise<void>;
}

/** `store`: the BE's object store (benchmarks over S3); default: the configured local directory. */
export async function startGalene(config: Config, store?: ObjectStore, role: 'embedded' | 'fe' = 'embedded'): Promise<RunningGalene> {
  scheduler.sliceMs = config.getInt('exec_yield_slice_ms');
  config.onChange('exec_yield_slice_ms', (value) => (scheduler.sliceMs = value as number));
  const lock = lockDataDir(config.getString('data_dir'));
  let frontend: Frontend;
  try {
    frontend = await Frontend.open(config, store);
  } catch (err) {
    lock.release();
    throw err;
  }
  const compaction = frontend.compaction;
  // Group Commit: replay the WALs of async loads acknowledged before a crash, before any client connects.
  const groupCommit = groupCommitManagerOf(frontend.backend, config);
  let walReplay: WalReplaySummary;
  try {
    walReplay = await groupCommit.start();
  } catch (err) {
    await frontend.loopbackScan?.close().catch(() => undefined);
    frontend.close();
    lock.release();
    throw err;
  }
  const host = config.getString('bind_address');
  // Connection limits come from the Frontend (global variables and settings) at each accept and login.
  const mysql = new MysqlServer(frontend, { host, port: config.getInt('query_port') });
  const httpServers: Server[] = [];
  let rpcServer: RpcServer | null = null;
  let heartbeats: HeartbeatManager | null = null;
  try {
    const queryPort = await mysql.listen();
    const ports = { query_port: queryPort, http_port: 0, webserver_port: 0, brpc_port: 0 };
    for (const [role, setting] of [['fe', 'http_port'], ['be', 'webserver_port'], ['brpc', 'brpc_port']] as const) {
      const server = createHttpServer(frontend, role);
      httpServers.push(server);
      ports[setting] = await listenHttp(server, host, config.getInt(setting));
    }
    const fePorts: RunningGalene['ports'] = ports;
    const membership = frontend.cluster;
    if (role === 'fe') {
      membership.removeLocal();
      frontend.routeScansToBackends();
      rpcServer = await RpcServer.start({ host, port: config.getInt('rpc_port'), services: [frontendRpcService(membership, () => heartbeats!.interval, frontend.startTime, frontend.placement)], onHandlerError: (method, err) => frontend.serverLog.log('WARN', 'rpc', `${method}: ${String(err)}`) });
      fePorts.rpc_port = rpcServer.port;
    } else {
      membership.ensureLocal(host, { httpPort: ports.webserver_port, brpcPort: ports.brpc_port }, DORIS_BUILD_VERSION, frontend.startTime);
    }
    heartbeats = new HeartbeatManager(membership, config, { host, rpcPort: rpcServer?.port ?? 0, startTime: frontend.startTime }, (message) => frontend.serverLog.log('WARN', 'heartbeat', message));
    heartbeats.start();
    // Statements see the ports actually bound (SHOW FRONTENDS / BACKENDS).
    for (const [name, port] of Object.entries(fePorts)) config.set(name, port);
    if (!config.get<boolean>('disable_auto_compaction')) compaction.start();
    const dynamicPartitions = new DynamicPartitionScheduler({ catalog: frontend.catalog, deleteObjects: (keys) => frontend.backend.deleteObjects(keys), drainTable: (tableId, change) => existingGroupCommitManager(frontend.backend)?.drainTable(tableId, change) ?? change(), warn: (message) => frontend.serverLog.log('WARN', 'dynamic-partition', message) }, config);
    dynamicPartitions.start();
    config.onChange('disable_auto_compaction', (disabled) => (disabled ? compaction.pause() : compaction.start()));
    return {
      frontend,
      ports: fePorts,
      heartbeats,
      startup: { walReplay },
      async stop() {
        await heartbeats!.stop();
        await rpcServer?.close();
        await compaction.stop(); // before the lock is released: a merge writes under data_dir
        await dynamicPartitions.stop();
        await groupCommit.flushAll(); // waiting sync loads get their answer before the servers close
        await mysql.close();
        await Promise.all(httpServers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
        await frontend.loopbackScan?.close();
        await groupCommit.close();
        await frontend.backend.close();
        frontend.close();
        lock.release();
      },
    };
  } catch (err) {
    await mysql.close().catch(() => undefined);
    await heartbeats?.stop();
    await rpcServer?.close();
    for (const server of httpServers) server.close();
    await frontend.loopbackScan?.close().catch(() => undefined);
    await frontend.backend.close().catch(() => undefined);
    frontend.close();
    lock.release();
    throw err;
  }
}
