/**
 * The FE's list of BEs (cluster membership), kept durably in the meta store so that it survives an FE
 * restart: each BE's id, host and ports, compute group, alive flag, last heartbeat and decommission mark.
 * BEs join by registering (a BE started with `--fe`) or by `ALTER SYSTEM ADD BACKEND`; the heartbeat loop
 * (fe/heartbeat-manager.ts) reports each result here. Listeners hear every change that moves tablets
 * (a BE joins, leaves, dies, comes back, is decommissioned, or its group is renamed).
 *
 * A BE is known by its `uniqueId` (Doris's cloud_unique_id: the BE keeps it under its data_dir, so a BE
 * restarted on other ports keeps its backend id) and, for BEs added by SQL before they ever registered,
 * by `host:heartbeat_port`. Imports only common/ and meta/.
 */
import { GaleneError } from '../common/errors';
import type { MetaStore } from './meta-store';
import type { PlacementBackend } from './tablet-placement';

/** Doris's default compute group (SHOW BACKENDS Tag, ALTER SYSTEM ADD BACKEND without the property). */
export const DEFAULT_COMPUTE_GROUP = 'default_compute_group';
/** The id of the one BE of an embedded (`galene start`) server. */
export const LOCAL_BACKEND_ID = 10001;
/** Doris's compute group names (FeNameFormat): a letter, then letters, digits or '_'. */
const GROUP_NAME = /^[a-zA-Z][a-zA-Z0-9_]{0,63}$/;

export interface BackendRecord extends PlacementBackend {
  readonly id: number;
  readonly host: string;
  readonly heartbeatPort: number;
  readonly bePort: number;
  readonly httpPort: number;
  readonly brpcPort: number;
  readonly computeGroup: string;
  /** Stays when the group is renamed (Tag's compute_group_id). */
  readonly computeGroupId: string;
  /** The BE process's identity ('' for a BE added by SQL that has not registered yet). */
  readonly uniqueId: string;
  readonly alive: boolean;
  readonly decommissioned: boolean;
  /** ms since the epoch; 0: never. */
  readonly lastHeartbeat: number;
  /** When the BE process started (ms; 0: unknown). */
  readonly lastStartTime: number;
  readonly heartbeatFailures: number;
  readonly errMsg: string;
  readonly version: string;
  readonly dataUsedBytes: number;
  /** The BE inside an embedded server's own process (never heartbeated: alive while the process is). */
  readonly local: boolean;
}

/** What a BE says of itself when it registers or answers a heartbeat. */
export interface BackendReport {
  readonly host: string;
  readonly heartbeatPort: number;
  readonly bePort?: number;
  readonly httpPort: number;
  readonly brpcPort: number;
  readonly startTime: number;
  readonly version: string;
  readonly dataUsedBytes?: number;
}

/** `host:port` as Doris prints it (IPv6 hosts in brackets). */
export const endpointOf = (host: string, port: number): string => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/** Parse 'host:port' (Doris SystemInfoService.validateHostAndPort): INVALID_HOST_PORT / PORT_OUT_OF_RANGE. */
export function parseHostPort(text: string): { host: string; port: number } {
  const trimmed = text.replace(/\s+/g, '');
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d+)$/.exec(trimmed);
  if (match === null) throw new GaleneError('INVALID_HOST_PORT', [text]);
  const host = match[1] ?? match[2];
  if (!/^[a-zA-Z0-9._:-]+$/.test(host)) throw new GaleneError('INVALID_HOST_PORT', [text]);
  const port = Number(match[3]);
  if (!Number.isInteger(port) || port <= 0 || port >= 65536) throw new GaleneError('PORT_OUT_OF_RANGE', [match[3]]);
  return { host, port };
}

export function checkComputeGroupName(name: string): void {
  if (!GROUP_NAME.test(name)) throw new GaleneError('INVALID_COMPUTE_GROUP_NAME', [name]);
}

export class ClusterMembership {
  private readonly backends = new Map<number, BackendRecord>();
  private readonly listeners: (() => void)[] = [];
  /** endpoint -> when it was dropped: a BE that started before its drop does not come back by registering. */
  private readonly dropped = new Map<string, number>();

  constructor(private readonly meta: MetaStore) {
    for (const info of meta.listBackendRows()) {
      const record = JSON.parse(info) as BackendRecord;
      this.backends.set(record.id, record);
    }
  }

  /** Every BE, by id. */
  list(): BackendRecord[] {
    return [...this.backends.values()].sort((a, b) => a.id - b.id);
  }

  get(id: number): BackendRecord | undefined {
    return this.backends.get(id);
  }

  /** The compute groups that have a BE, with their ids, sorted by name. */
  groups(): { name: string; id: string; backends: BackendRecord[] }[] {
    const byName = new Map<string, { name: string; id: string; backends: BackendRecord[] }>();
    for (const backend of this.list()) {
      let group = byName.get(backend.computeGroup);
      if (group === undefined) byName.set(backend.computeGroup, (group = { name: backend.computeGroup, id: backend.computeGroupId, backends: [] }));
      group.backends.push(backend);
    }
    return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Told after every change that may move tablets. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  private put(record: BackendRecord, moved: boolean): BackendRecord {
    this.meta.putBackendRow(record.id, JSON.stringify(record));
    this.backends.set(record.id, record);
    if (moved) for (const listener of this.listeners) listener();
    return record;
  }

  private groupId(name: string): string {
    const existing = this.list().find((backend) => backend.computeGroup === name);
    return existing?.computeGroupId ?? `${name}_${this.meta.nextId('compute_group', 1, 1)}`;
  }

  private findEndpoint(host: string, port: number): BackendRecord | undefined {
    return this.list().find((backend) => !backend.local && backend.host === host && backend.heartbeatPort === port);
  }

  private newRecord(host: string, heartbeatPort: number, computeGroup: string, id = this.meta.nextId('backend', 1, LOCAL_BACKEND_ID + 1)): BackendRecord {
    return {
      id, host, heartbeatPort, bePort: -1, httpPort: 0, brpcPort: 0, computeGroup, computeGroupId: this.groupId(computeGroup), uniqueId: '', alive: false, decommissioned: false,
      lastHeartbeat: 0, lastStartTime: 0, heartbeatFailures: 0, errMsg: '', version: '', dataUsedBytes: 0, local: false,
    };
  }

  /** Embedded mode: the process's own BE (id 10001), alive, on the ports this process listens on. */
  ensureLocal(host: string, ports: { httpPort: number; brpcPort: number }, version: string, startTime: number): BackendRecord {
    const existing = this.backends.get(LOCAL_BACKEND_ID);
    const base = existing?.local ? existing : this.newRecord(host, 0, DEFAULT_COMPUTE_GROUP, LOCAL_BACKEND_ID);
    return this.put({ ...base, host, httpPort: ports.httpPort, brpcPort: ports.brpcPort, alive: true, local: true, version, lastStartTime: startTime, lastHeartbeat: startTime }, !existing?.local);
  }

  /** A cluster FE has no BE of its own: forget the one an embedded server of this data_dir had. */
  removeLocal(): void {
    if (!this.backends.get(LOCAL_BACKEND_ID)?.local) return;
    this.meta.deleteBackendRow(LOCAL_BACKEND_ID);
    this.backends.delete(LOCAL_BACKEND_ID);
    for (const listener of this.listeners) listener();
  }

  /** ALTER SYSTEM ADD BACKEND 'host:port' [PROPERTIES("tag.compute_group_name" = g)]: known, not alive until it answers a heartbeat. */
  add(host: string, heartbeatPort: number, computeGroup = DEFAULT_COMPUTE_GROUP): BackendRecord {
    checkComputeGroupName(computeGroup);
    if (this.findEndpoint(host, heartbeatPort)) throw new GaleneError('BACKEND_EXISTS', [endpointOf(host, heartbeatPort)]);
    this.dropped.delete(endpointOf(host, heartbeatPort));
    return this.put(this.newRecord(host, heartbeatPort, computeGroup), true);
  }

  /** The BE at `host:port` (DROP / DECOMMISSION); `dropping` picks Doris's message of each. */
  private requireEndpoint(host: string, port: number, dropping: boolean): BackendRecord {
    const backend = this.findEndpoint(host, port);
    if (backend === undefined) throw new GaleneError(dropping ? 'BACKEND_NOT_EXISTS_DROP' : 'BACKEND_NOT_EXISTS', [endpointOf(host, port)]);
    return backend;
  }

  /** Check every endpoint before changing any (a statement naming one unknown BE changes nothing). */
  drop(endpoints: readonly { host: string; port: number }[]): BackendRecord[] {
    const targets = endpoints.map(({ host, port }) => this.requireEndpoint(host, port, true));
    for (const backend of targets) {
      this.meta.deleteBackendRow(backend.id);
      this.backends.delete(backend.id);
      this.dropped.set(endpointOf(backend.host, backend.heartbeatPort), Date.now());
    }
    for (const listener of this.listeners) listener();
    return targets;
  }

  /** The BE keeps answering heartbeats but owns no tablet any more (it holds only caches). */
  decommission(endpoints: readonly { host: string; port: number }[]): BackendRecord[] {
    const targets = endpoints.map(({ host, port }) => this.requireEndpoint(host, port, false));
    return targets.map((backend) => this.put({ ...backend, decommissioned: true }, true));
  }

  /** ALTER SYSTEM RENAME COMPUTE GROUP: the BEs keep their ids and the group its id. */
  renameGroup(oldName: string, newName: string): void {
    const members = this.list().filter((backend) => backend.computeGroup === oldName);
    if (members.length === 0) throw new GaleneError('COMPUTE_GROUP_NOT_EXISTS', [oldName]);
    checkComputeGroupName(newName);
    if (oldName !== newName && this.list().some((backend) => backend.computeGroup === newName)) throw new GaleneError('COMPUTE_GROUP_EXISTS', [newName]);
    this.meta.transaction(() => {
      for (const backend of members) this.put({ ...backend, computeGroup: newName }, false);
    });
    for (const listener of this.listeners) listener();
  }

  /**
   * A BE started with `--fe` registers (again after an FE restart or its own): the same BE (by unique id,
   * else by host:heartbeat_port) keeps its id, and the FE's group wins over the one the BE was started
   * with (after ALTER SYSTEM ADD BACKEND ... PROPERTIES or a rename). A BE counts as alive from here.
   */
  register(uniqueId: string, report: BackendReport, computeGroup: string): BackendRecord {
    const group = computeGroup === '' ? DEFAULT_COMPUTE_GROUP : computeGroup;
    checkComputeGroupName(group);
    const endpoint = endpointOf(report.host, report.heartbeatPort);
    const droppedAt = this.dropped.get(endpoint);
    if (droppedAt !== undefined && report.startTime <= droppedAt) throw new GaleneError('BAD_BACKEND_REGISTRATION', [`backend ${endpoint} was dropped (ALTER SYSTEM DROP BACKEND); restart it or ADD it again`]);
    const existing = (uniqueId !== '' ? this.list().find((backend) => !backend.local && backend.uniqueId === uniqueId) : undefined) ?? this.findEndpoint(report.host, report.heartbeatPort);
    // Another record already at this endpoint (the BE moved ports into an old BE's): the old one is gone.
    const squatter = this.findEndpoint(report.host, report.heartbeatPort);
    if (existing !== undefined && squatter !== undefined && squatter.id !== existing.id) {
      this.meta.deleteBackendRow(squatter.id);
      this.backends.delete(squatter.id);
    }
    const base = existing ?? this.newRecord(report.host, report.heartbeatPort, group);
    this.dropped.delete(endpoint);
    return this.put({ ...base, ...this.reported(report), uniqueId, alive: true, heartbeatFailures: 0, errMsg: '', lastHeartbeat: Date.now() }, existing === undefined || !existing.alive || existing.host !== report.host);
  }

  private reported(report: BackendReport): Partial<BackendRecord> {
    return {
      host: report.host, heartbeatPort: report.heartbeatPort, bePort: report.bePort ?? -1, httpPort: report.httpPort, brpcPort: report.brpcPort,
      lastStartTime: report.startTime, version: report.version, dataUsedBytes: report.dataUsedBytes ?? 0,
    };
  }

  /** A heartbeat answered: alive (again), with the ports and start time the BE reported. */
  heartbeatSucceeded(id: number, report: Omit<BackendReport, 'host'>): void {
    const backend = this.backends.get(id);
    if (backend === undefined) return;
    this.put({ ...backend, ...this.reported({ ...report, host: backend.host }), alive: true, heartbeatFailures: 0, errMsg: '', lastHeartbeat: Date.now() }, !backend.alive);
  }

  /** A heartbeat failed: after `maxFailures` in a row the BE is not alive (its tablets move). */
  heartbeatFailed(id: number, message: string, maxFailures: number): void {
    const backend = this.backends.get(id);
    if (backend === undefined) return;
    const failures = backend.heartbeatFailures + 1;
    const dead = backend.alive && failures >= maxFailures;
    this.put({ ...backend, heartbeatFailures: failures, errMsg: message, alive: backend.alive && !dead }, dead);
  }
}
