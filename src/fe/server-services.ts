/**
 * What a session and its statements use of the server around them, as interfaces: the catalog, the BE,
 * users, settings, global variables, the audit log, profiles and the process list. The Frontend
 * (frontend.ts) implements ServerServices; a Session (session.ts) is a ProcessListEntry. This file imports
 * types only and nothing in fe/ that imports it, so neither session.ts nor the statement handlers depend
 * on frontend.ts (no import cycle in fe/).
 */
import type { Backend } from '../be/backend';
import type { ScanCounts } from '../be/be-metrics';
import type { ServerLog } from '../common/server-log';
import type { Config } from '../common/config';
import type { QueryProfile } from '../common/profile';
import type { QueryTask } from '../exec/query-task';
import type { Catalog } from '../meta/catalog';
import type { ClusterMembership } from '../meta/cluster-membership';
import type { TabletPlacement } from '../meta/tablet-placement';
import type { AuditLog } from './audit-log';
import type { FeMetrics } from './fe-metrics';
import type { LoadProgress } from './load-progress';
import type { ClusterScanRoute } from './cluster-scan-route';
import type { RemoteScanRoute } from './remote-table-source';
import type { UserManager } from './users';

/** One open session as SHOW PROCESSLIST shows it and KILL reaches it. */
export interface ProcessListEntry {
  readonly connectionId: number;
  readonly user: string;
  readonly host: string;
  /** The client's address as SHOW PROCESSLIST shows it: `host:port`. */
  readonly clientAddress: string;
  /** When the session logged in (ms since the epoch). */
  readonly loginTime: number;
  readonly database: string | null;
  /** The statement running now, or null between statements. */
  readonly currentTask: QueryTask | null;
  /** Its text, secrets blanked; null between statements. */
  readonly currentStatementText: string | null;
  /** Seconds in the current state (SHOW PROCESSLIST's Time). */
  stateSeconds(): number;
  /** KILL QUERY (connection = false) or KILL [CONNECTION], asked from `byHost`. */
  kill(byHost: string, connection: boolean): void;
}

/** The server's services a session and its statements use. */
export interface ServerServices {
  /** VERSION() and the handshake's server version. */
  readonly serverVersion: string;
  readonly config: Config;
  readonly catalog: Catalog;
  readonly backend: Backend;
  /** Set when OLAP tables are read through loopback BEs (debug_remote_scan_backends): every scan goes through RemoteTableSource. */
  readonly remoteScan: RemoteScanRoute | null;
  /** A cluster FE's route to its BE processes (`galene fe`); null embedded. */
  readonly clusterScan: ClusterScanRoute | null;
  /** The BEs the FE knows and the tablet placement over them (cluster-membership.ts, tablet-placement.ts). */
  readonly cluster: ClusterMembership;
  readonly placement: TabletPlacement;
  readonly users: UserManager;
  /** SET GLOBAL values, by variable name (unset = the registry's default). */
  readonly globalVariables: Map<string, string | number | boolean>;
  /** The FE audit log every statement is written to. */
  readonly auditLog: AuditLog;
  /** The FE's /metrics counters (statements, queries, latency). */
  readonly metrics: FeMetrics;
  /** The server log (fe.log): every error a client sees is logged with its query id. */
  readonly serverLog: ServerLog;
  /** Rows and bytes statements read (the BE's doris_be_query_scan_rows / _bytes). */
  readonly scanCounts: ScanCounts;
  /** Open sessions by connection id. */
  readonly sessions: ReadonlyMap<number, ProcessListEntry>;
  /** Progress of the Stream Loads running now (SHOW LOAD, the process list). */
  readonly loadProgress: LoadProgress;
  /** When this FE started (ms since the epoch). */
  readonly startTime: number;
  /** A new query id (profiles, messages). */
  newQueryId(): string;
  /** Keep a finished statement's profile for SHOW QUERY PROFILE. */
  recordProfile(profile: QueryProfile): void;
  /** Finished profiles, newest first. */
  recentProfiles(): readonly QueryProfile[];
  /** The session of `connectionId` ended. */
  closeSession(connectionId: number): void;
}
