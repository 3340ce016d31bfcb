/**
 * The MySQL protocol listener of the FE (port 9030 in Doris): accepts sockets, hands each to a
 * MysqlConnection with an id, and keeps the connection counts the limits are checked against.
 *
 * Two separate budgets, so that sockets which never finish the handshake cannot lock real clients out:
 * - sockets still in the handshake: at most `maxUnauthenticatedConnections`, and each must log in within
 *   connect_timeout. When the budget is full, the oldest socket that was greeted but has sent nothing
 *   gets 1040 Too many connections and is closed to make room, so sockets that never log in cannot
 *   keep a real client (which answers the greeting within a round trip) out; only when every handshake
 *   in the budget is under way is the new socket itself refused with 1040 before the greeting;
 * - authenticated sessions: at most `maxConnections` (max_connections), and `maxUserConnections` per
 *   user (max_user_connections); the login past either gets 1040 / 1203 as in MySQL.
 * The limits are read from the backend at each accept and login, so `SET GLOBAL` applies at once.
 *
 * Connection ids start at 1 and increase (0 means "no connection" to MySQL clients and to KILL).
 */
import net from 'node:net';
import { GaleneError } from '../common/errors';
import type { ConnectionLimits, ProtocolBackend } from './backend';
import type { ServerStats } from './command-handlers';
import { MysqlConnection, type ConnectionSlots } from './mysql-connection';
import { PacketWriter } from './packet-writer';
import { writeErr } from './reply-packets';
import { PROTOCOL_ERRORS, reportError, WireError } from './wire-error';

export interface MysqlServerOptions {
  readonly host: string;
  /** 0 picks a free port; `listen()` returns the one bound. */
  readonly port: number;
  /** Authenticated sessions at once (Doris's qe_max_connection); default 1024. */
  readonly maxConnections?: number;
  /** Authenticated sessions of one user at once; default 0 (no per-user limit). */
  readonly maxUserConnections?: number;
  /** Sockets still in the handshake at once; default 256. */
  readonly maxUnauthenticatedConnections?: number;
  /** Largest packet a client may send after login (max_allowed_packet); default 64 MiB as in Doris. */
  readonly maxAllowedPacket?: number;
  /** Seconds a socket may take to log in (connect_timeout); default 10 as in MySQL. */
  readonly connectTimeoutSeconds?: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = Object.freeze({
  maxConnections: 1024,
  maxUserConnections: 0,
  maxUnauthenticatedConnections: 256,
  maxAllowedPacket: 64 * 1024 * 1024,
  connectTimeoutSeconds: 10,
});

const MAX_CONNECTION_ID = 0xffffffff;
/** A refused socket whose client does not close is cut off after this long. */
const REFUSED_SOCKET_GRACE_MS = 2000;

/**
 * The MySQL-protocol listener: `listen()` binds (port 0 picks a free port and returns it), `close()` stops
 * accepting and closes every connection and its session. Created by the FE (galene-server.ts) with the
 * Frontend as its backend.
 */
export class MysqlServer implements ConnectionSlots {
  private readonly server: net.Server;
  private readonly connections = new Set<MysqlConnection>();
  /** Connections still in the handshake. */
  private readonly unauthenticated = new Set<MysqlConnection>();
  /** Authenticated connections and their user. */
  private readonly sessions = new Map<MysqlConnection, string>();
  private readonly sessionsPerUser = new Map<string, number>();
  private readonly baseLimits: ConnectionLimits;
  private nextConnectionId = 1;
  private readonly stats: ServerStats;

  constructor(
    private readonly backend: ProtocolBackend,
    private readonly options: MysqlServerOptions,
  ) {
    const defaults = DEFAULT_CONNECTION_LIMITS;
    this.baseLimits = {
      maxConnections: options.maxConnections ?? defaults.maxConnections,
      maxUserConnections: options.maxUserConnections ?? defaults.maxUserConnections,
      maxUnauthenticatedConnections: options.maxUnauthenticatedConnections ?? defaults.maxUnauthenticatedConnections,
      maxAllowedPacket: options.maxAllowedPacket ?? defaults.maxAllowedPacket,
      connectTimeoutSeconds: options.connectTimeoutSeconds ?? defaults.connectTimeoutSeconds,
    };
    const connections = this.connections;
    this.stats = {
      startedAtMs: Date.now(),
      questions: 0,
      get connectionCount(): number {
        return connections.size;
      },
    };
    this.server = net.createServer((socket) => this.onSocket(socket));
  }

  /** Open connections (authenticated or still in the handshake). */
  get connectionCount(): number {
    return this.connections.size;
  }

  /** Connections still in the handshake. */
  get unauthenticatedCount(): number {
    return this.unauthenticated.size;
  }

  /** Authenticated sessions. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  limits(): ConnectionLimits {
    let overrides: Partial<ConnectionLimits> = {};
    try {
      overrides = this.backend.connectionLimits?.() ?? {};
    } catch {
      // A failing backend must not stop accepting: the server's own limits apply.
    }
    return { ...this.baseLimits, ...definedOnly(overrides) };
  }

  claimSession(conn: MysqlConnection, user: string): WireError | null {
    if (!this.unauthenticated.has(conn)) return PROTOCOL_ERRORS.BAD_HANDSHAKE;
    const limits = this.limits();
    if (this.sessions.size >= limits.maxConnections) return PROTOCOL_ERRORS.TOO_MANY_CONNECTIONS;
    const userCount = this.sessionsPerUser.get(user) ?? 0;
    if (limits.maxUserConnections > 0 && userCount >= limits.maxUserConnections) return new GaleneError('TOO_MANY_USER_CONNECTIONS', [user]);
    this.unauthenticated.delete(conn);
    this.sessions.set(conn, user);
    this.sessionsPerUser.set(user, userCount + 1);
    return null;
  }
  /** Start listening; resolves with the bound port. */
  listen(): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const onError = (err: Error): void => reject(err);
      this.server.once('error', onError);
      this.server.listen(this.options.port, this.options.host, () => {
        this.server.off('error', onError);
        this.server.on('error', () => {
          // Errors after listen (EMFILE on accept, ...) must not crash the process; accept goes on.
        });
        const address = this.server.address();
        resolve(typeof address === 'object' && address !== null ? address.port : this.options.port);
      });
    });
  }

  /** Stop accepting, close every connection (their sessions are closed), resolve when all is shut. */
  close(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (!this.server.listening) {
        for (const conn of this.connections) conn.destroy();
        resolve();
        return;
      }
      this.server.close(() => resolve());
      for (const conn of this.connections) conn.destroy();
    });
  }

  private onSocket(socket: net.Socket): void {
    socket.on('error', () => socket.destroy());
    const limits = this.limits();
    if (this.unauthenticated.size >= limits.maxUnauthenticatedConnections) this.evictSilentHandshakes(limits.maxUnauthenticatedConnections - 1);
    // Refused before the greeting (as MySQL does when it is full): a client that cannot log in anyway
    // learns it at once, and a flood of sockets cannot grow past its own budget.
    if (this.unauthenticated.size >= limits.maxUnauthenticatedConnections || this.sessions.size >= limits.maxConnections) {
      socket.setNoDelay(true);
      const writer = new PacketWriter(256);
      writer.sequenceId = 0;
      const refusal = PROTOCOL_ERRORS.TOO_MANY_CONNECTIONS;
      reportError(this.backend, { connectionId: 0, user: null, host: (socket.remoteAddress ?? '').replace(/^::ffff:/, ''), errno: refusal.errno, message: refusal.message, cause: refusal });
      writeErr(writer, refusal);
      socket.end(writer.take());
      // The client may never close its side; do not keep the socket (or read what it sends) past that.
      socket.pause();
      setTimeout(() => socket.destroy(), REFUSED_SOCKET_GRACE_MS).unref();
      return;
    }
    const connectionId = this.nextConnectionId;
    this.nextConnectionId = connectionId >= MAX_CONNECTION_ID ? 1 : connectionId + 1;
    const conn = new MysqlConnection(socket, {
      backend: this.backend,
      connectionId,
      stats: this.stats,
      slots: this,
      connectTimeoutMs: limits.connectTimeoutSeconds * 1000,
      onClosed: (closed) => this.onConnectionClosed(closed),
    });
    this.connections.add(conn);
    this.unauthenticated.add(conn);
    conn.start();
  }

  /** Drop the oldest silent handshakes until at most `keep` remain in the handshake budget. */
  private evictSilentHandshakes(keep: number): void {
    for (const conn of this.unauthenticated) {
      if (this.unauthenticated.size <= keep) return;
      if (!conn.silentInHandshake) continue;
      this.unauthenticated.delete(conn);
      conn.evict(PROTOCOL_ERRORS.TOO_MANY_CONNECTIONS);
    }
  }

  private onConnectionClosed(conn: MysqlConnection): void {
    this.connections.delete(conn);
    this.unauthenticated.delete(conn);
    const user = this.sessions.get(conn);
    if (user === undefined) return;
    this.sessions.delete(conn);
    const left = (this.sessionsPerUser.get(user) ?? 1) - 1;
    if (left > 0) this.sessionsPerUser.set(user, left);
    else this.sessionsPerUser.delete(user);
  }
}

function definedOnly(limits: Partial<ConnectionLimits>): Partial<ConnectionLimits> {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(limits)) if (typeof value === 'number' && Number.isFinite(value)) out[name] = value;
  return out as Partial<ConnectionLimits>;
}
