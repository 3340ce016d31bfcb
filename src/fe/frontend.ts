/**
 * The FE role: catalog and metadata, users, sessions, query profiles; the MySQL protocol's backend.
 * Statements run in sessions (session.ts); their handlers live in fe/statements/.
 */
import * as path from 'node:path';
import type { Config } from '../common/config';
import type { ObjectStore } from '../io/object-store';
import { GaleneError } from '../common/errors';
import type { QueryProfile } from '../common/profile';
import { Backend } from '../be/backend';
import { openLoopbackRemoteScan, type LoopbackRemoteScan } from './loopback-remote-scan';
import type { RemoteScanRoute } from './remote-table-source';
import { clusterScanRoute, type ClusterScanRoute } from './cluster-scan-route';
import { createBeMetrics, LoadCounts, ScanCounts } from '../be/be-metrics';
import { CompactionScheduler } from '../be/compaction';
import type { Registry } from '../common/metrics';
import { ServerLog } from '../common/server-log';
import { Catalog } from '../meta/catalog';
import { MetaStore } from '../meta/meta-store';
import { ClusterMembership } from '../meta/cluster-membership';
import { TabletPlacement } from '../meta/tablet-placement';
import type { ClientErrorEvent, ConnectionLimits, ProtocolBackend, SessionHandler, SessionInfo, UserAuthInfo } from '../protocol/backend';
import { logMysqlError } from './client-error-log';
import { auditLogFor, type AuditLog } from './audit-log';
import { FeMetrics } from './fe-metrics';
import { LoadProgress } from './load-progress';
import type { ServerServices } from './server-services';
import { Session } from './session';
import { findSessionVariable, SERVER_VERSION } from './session-variables';
import { requireVisibleDatabase } from './statements/statement-privileges';
import { LoginOutcome, UserManager } from './users';

/** How many finished query profiles SHOW QUERY PROFILE keeps. */
const PROFILE_HISTORY = 100;

export class Frontend implements ProtocolBackend, ServerServices {
  readonly serverVersion = SERVER_VERSION;
  readonly sessions = new Map<number, Session>();
  readonly globalVariables = new Map<string, string | number | boolean>();
  private readonly profiles: QueryProfile[] = [];
  private queryCounter = 0;
  readonly auditLog: AuditLog;
  /** Background compaction of this BE's tablets (started by the server unless disable_auto_compaction). */
  readonly compaction: CompactionScheduler;
  /** Stream Load requests (BE and FE /metrics). */
  readonly loadCounts = new LoadCounts();
  /** Rows and bytes statements read (BE /metrics). */
  readonly scanCounts = new ScanCounts();
  /** The FE's /metrics (http_port). */
  readonly metrics: FeMetrics;
  /** The BE's /metrics (webserver_port). */
  readonly beMetrics: Registry;
  /** fe.log / fe.warn.log under sys_log_dir. */
  readonly serverLog: ServerLog;
  /** Progress of the Stream Loads running now (reported by the Stream Load service). */
  readonly loadProgress = new LoadProgress();
  readonly startTime = Date.now();
  /** OLAP tables read through BEs (debug_remote_scan_backends: loopback backends in this process); null: read directly. */
  readonly remoteScan: RemoteScanRoute | null;
  /** The BEs this FE knows (durable), and which BE of each compute group owns each tablet. */
  readonly cluster: ClusterMembership;
  readonly placement = new TabletPlacement();
  /** A cluster FE's route to its BE processes (set by `galene fe`: fe/cluster-scan-route.ts); null embedded. */
  clusterScan: ClusterScanRoute | null = null;
  /** The loopback backends behind remoteScan (their in-process gRPC server with debug_remote_scan_transport = grpc). */
  readonly loopbackScan: LoopbackRemoteScan | null;

  private constructor(
    readonly config: Config,
    readonly meta: MetaStore,
    readonly catalog: Catalog,
    readonly users: UserManager,
    readonly backend: Backend,
    loopbackScan: LoopbackRemoteScan | null,
  ) {
    this.compaction = new CompactionScheduler(catalog, backend);
    this.cluster = new ClusterMembership(meta);
    // Placement follows membership; a tablet that moves keeps its previous owner (Peer Read's first candidate).
    const place = (): void => this.placement.update(this.cluster.list(), catalog.listDatabases().flatMap((db) => catalog.listTables(db.name).flatMap((table) => table.tablets.map((tablet) => tablet.id))));
    place();
    this.cluster.onChange(place);
    this.loopbackScan = loopbackScan;
    this.remoteScan = loopbackScan?.route ?? null;
    this.auditLog = auditLogFor(config.getString('data_dir'));
    this.metrics = new FeMetrics(this);
    this.serverLog = new ServerLog(config, 'fe');
    this.serverLog.log('INFO', 'main', `FE opened data_dir ${config.getString('data_dir')}`);
    const dataDir = path.resolve(config.getString('data_dir'));
    const walDirs = config.getString('group_commit_wal_path').split(';').filter((dir) => dir.trim() !== '').map((dir) => path.resolve(dir.trim()));
    this.beMetrics = createBeMetrics({ backend, catalog, compaction: this.compaction.stats, loads: this.loadCounts, scans: this.scanCounts, dataDirs: [dataDir, ...walDirs], fragments: loopbackScan?.fragmentStats ?? null });
    // The global max_connections starts from the setting and follows it when the setting changes.
    const applyMaxConnections = (): void => {
      const alias = config.getInt('qe_max_connection');
      this.globalVariables.set('max_connections', alias !== findSessionVariable('max_connections')!.defaultValue ? alias : config.getInt('max_connections'));
    };
    applyMaxConnections();
    config.onChange('max_connections', applyMaxConnections);
    config.onChange('qe_max_connection', applyMaxConnections);
  }

  /** Read OLAP tables through the cluster's BE processes from now on (`galene fe`). */
  routeScansToBackends(): void {
    this.clusterScan ??= clusterScanRoute(this.cluster, this.placement);
  }

  /** ProtocolBackend.connectionLimits: the global variables and settings, read at each accept and login. */
  connectionLimits(): ConnectionLimits {
    const global = (name: string): number => Number(this.globalVariables.get(name) ?? findSessionVariable(name)!.defaultValue);
    return {
      maxConnections: global('max_connections'),
      maxUserConnections: global('max_user_connections'),
      maxUnauthenticatedConnections: this.config.getInt('max_unauthenticated_connections'),
      maxAllowedPacket: global('max_allowed_packet'),
      connectTimeoutSeconds: global('connect_timeout'),
    };
  }

  /** Open the metadata and storage under the configured data_dir, recovering from a crash (`store`: the BE's object store instead of the local directory). */
  static async open(config: Config, store?: ObjectStore): Promise<Frontend> {
    const dataDir = config.getString('data_dir');
    const meta = new MetaStore(config.getString('meta_dir') || path.join(dataDir, 'meta'));
    // A load cut short by a crash never became visible: abort its transaction and drop its objects.
    meta.abortUnfinishedTransactions();
    const catalog = new Catalog(meta);
    catalog.maxTabletVersions = config.getInt('max_tablet_version_num');
    config.onChange('max_tablet_version_num', (value) => (catalog.maxTabletVersions = value as number));
    const backend = await Backend.open(config, catalog, store);
    await backend.removeOrphans(meta.allSegmentKeys());
    // PASSWORD_EXPIRE DEFAULT follows the global default_password_lifetime (days).
    const users = new UserManager(meta, () => Number(frontend.globalVariables.get('default_password_lifetime') ?? 0));
    let loopbackScan: LoopbackRemoteScan | null;
    try {
      loopbackScan = await openLoopbackRemoteScan(backend, config);
    } catch (err) {
      await backend.close().catch(() => undefined);
      meta.close();
      throw err;
    }
    const frontend: Frontend = new Frontend(config, meta, catalog, users, backend, loopbackScan);
    return frontend;
  }

  /** ProtocolBackend.errorSent: every ERR packet is in fe.log (with its query id when a statement failed). */
  errorSent(event: ClientErrorEvent): void {
    logMysqlError(this.serverLog, event);
  }

  lookupUser(user: string, host: string): UserAuthInfo | null {
    return this.users.lookup(user, host);
  }

  /** ProtocolBackend.checkLogin: lock-out, password expiry and the failed-login throttle (users.ts). */
  checkLogin(user: string, host: string, passwordOk: boolean): LoginOutcome {
    return this.users.checkLogin(user, host, passwordOk);
  }

  async openSession(info: SessionInfo): Promise<SessionHandler> {
    if (info.database !== null && !this.catalog.hasDatabase(info.database)) throw new GaleneError('UNKNOWN_DATABASE', [info.database]);
    const session = new Session(this, info);
    // A database named in the handshake is a USE: Doris's 1044 unless the account sees it.
    if (info.database !== null) requireVisibleDatabase(session, info.database);
    this.sessions.set(info.connectionId, session);
    return session;
  }

  closeSession(connectionId: number): void {
    this.sessions.delete(connectionId);
  }

  newQueryId(): string {
    this.queryCounter++;
    return `${Date.now().toString(16)}-${this.queryCounter.toString(16).padStart(8, '0')}`;
  }

  recordProfile(profile: QueryProfile): void {
    this.profiles.push(profile);
    if (this.profiles.length > PROFILE_HISTORY) this.profiles.shift();
  }

  /** Finished profiles, newest first. */
  recentProfiles(): readonly QueryProfile[] {
    return [...this.profiles].reverse();
  }

  close(): void {
    this.clusterScan?.close();
    this.serverLog.log('INFO', 'main', 'FE closed');
    this.serverLog.close();
    this.meta.close();
  }
}
