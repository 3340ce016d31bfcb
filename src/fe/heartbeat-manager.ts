/**
 * The FE's heartbeats: every heartbeat_interval_second (heartbeat_interval_ms in tests) one
 * HeartbeatService call to each BE the membership knows, all BEs at once, each with a deadline. An
 * answer marks the BE alive and records its ports; max_backend_heartbeat_failure_times failures in a
 * row mark it not alive (cluster-membership.ts moves its tablets). Each heartbeat carries this FE's
 * start time, so a BE registers again when the FE restarted. A round starts after the previous one
 * ended, so a slow BE never piles calls up.
 */
import type { Config } from '../common/config';
import { toGaleneError } from '../common/errors';
import { RpcClientCache } from '../io/rpc';
import { endpointOf, type BackendRecord, type ClusterMembership } from '../meta/cluster-membership';
import { HEARTBEAT_SERVICE, type HeartbeatRequest, type HeartbeatResponse } from '../be/be-rpc-services';

export interface FrontendIdentity {
  readonly host: string;
  readonly rpcPort: number;
  readonly startTime: number;
}

/** A heartbeat's deadline: the interval, within 0.5..5 s. */
const deadlineOf = (intervalMs: number): number => Math.max(500, Math.min(5000, intervalMs));

export class HeartbeatManager {
  private readonly clients = new RpcClientCache();
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly membership: ClusterMembership,
    private readonly config: Config,
    private readonly fe: FrontendIdentity,
    private readonly warn: (message: string) => void,
  ) {}

  private intervalMs(): number {
    const ms = this.config.getInt('heartbeat_interval_ms');
    return ms > 0 ? ms : this.config.getInt('heartbeat_interval_second') * 1000;
  }

  /** The interval a registering BE is told. */
  get interval(): number {
    return this.intervalMs();
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.round = this.heartbeatAll().finally(() => {
        this.round = null;
        this.schedule(this.intervalMs());
      });
    }, delayMs);
    this.timer.unref();
  }

  /** One round over every BE (also run at once after ALTER SYSTEM ADD BACKEND). */
  async heartbeatAll(): Promise<void> {
    const known = new Set<string>();
    await Promise.all(
      this.membership.list().filter((backend) => !backend.local).map((backend) => {
        known.add(endpointOf(backend.host, backend.heartbeatPort));
        return this.heartbeat(backend);
      }),
    );
    // Channels of dropped (or moved) BEs are closed.
    for (const endpoint of this.endpoints) if (!known.has(endpoint)) this.clients.evict(endpoint);
    this.endpoints = known;
  }

  private endpoints = new Set<string>();

  private async heartbeat(backend: BackendRecord): Promise<void> {
    const endpoint = endpointOf(backend.host, backend.heartbeatPort);
    const request: HeartbeatRequest = {
      fe_host: this.fe.host, fe_rpc_port: this.fe.rpcPort, fe_start_time: this.fe.startTime, backend_id: backend.id, compute_group: backend.computeGroup, decommissioned: backend.decommissioned,
    };
    try {
      const response = await this.clients.get(endpoint).unary<HeartbeatResponse>(HEARTBEAT_SERVICE, 'Heartbeat', request, { timeoutMs: deadlineOf(this.intervalMs()) });
      if (this.stopped) return;
      this.membership.heartbeatSucceeded(backend.id, {
        heartbeatPort: backend.heartbeatPort, bePort: response.be_port, httpPort: response.http_port, brpcPort: response.brpc_port, startTime: response.start_time, version: response.version, dataUsedBytes: response.data_used_bytes,
      });
    } catch (err) {
      if (this.stopped) return;
      const message = toGaleneError(err).message;
      const wasAlive = backend.alive;
      this.membership.heartbeatFailed(backend.id, message, this.config.getInt('max_backend_heartbeat_failure_times'));
      if (wasAlive && this.membership.get(backend.id)?.alive === false) this.warn(`backend ${backend.id} (${endpoint}) is not alive after ${this.membership.get(backend.id)?.heartbeatFailures} failed heartbeats: ${message}`);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    await this.round?.catch(() => undefined);
    this.clients.close();
  }
}
