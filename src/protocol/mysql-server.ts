/**
 * The MySQL protocol listener of the FE (port 9030 in Doris): accepts sockets, hands each to a
 * MysqlConnection with an id, and refuses connections above `maxConnections` with 1040 Too many
 * connections as MySQL does (an ERR packet instead of the greeting).
 *
 * Connection ids start at 1 and increase (0 means "no connection" to MySQL clients and to KILL).
 */
import net from 'node:net';
import type { ProtocolBackend } from './backend';
import type { ServerStats } from './command-handlers';
import { MysqlConnection } from './mysql-connection';
import { PacketWriter } from './packet-writer';
import { writeErr } from './reply-packets';
import { PROTOCOL_ERRORS } from './wire-error';

export interface MysqlServerOptions {
  readonly host: string;
  /** 0 picks a free port; `listen()` returns the one bound. */
  readonly port: number;
  /** Doris's qe_max_connection; default 1024. */
  readonly maxConnections?: number;
  /** Largest packet a client may send (max_allowed_packet); default 1 GiB like MySQL's ceiling. */
  readonly maxPacketSize?: number;
}

const DEFAULT_MAX_CONNECTIONS = 1024;
const DEFAULT_MAX_PACKET_SIZE = 1024 * 1024 * 1024;
const MAX_CONNECTION_ID = 0xffffffff;

/**
 * The MySQL-protocol listener: `listen()` binds (port 0 picks a free port and returns it), `close()` stops
 * accepting and closes every connection and its session. Created by the FE (galene-server.ts) with the
 * Frontend as its backend.
 */
export class MysqlServer {
  private readonly server: net.Server;
  private readonly connections = new Set<MysqlConnection>();
  private readonly maxConnections: number;
  private readonly maxPacketSize: number;
  private nextConnectionId = 1;
  private readonly stats: ServerStats;

  constructor(
    private readonly backend: ProtocolBackend,
    private readonly options: MysqlServerOptions,
  ) {
    this.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    this.maxPacketSize = options.maxPacketSize ?? DEFAULT_MAX_PACKET_SIZE;
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
    if (this.connections.size >= this.maxConnections) {
      socket.setNoDelay(true);
      const writer = new PacketWriter(256);
      writer.sequenceId = 0;
      writeErr(writer, PROTOCOL_ERRORS.TOO_MANY_CONNECTIONS);
      socket.end(writer.take());
      return;
    }
    const connectionId = this.nextConnectionId;
    this.nextConnectionId = connectionId >= MAX_CONNECTION_ID ? 1 : connectionId + 1;
    const conn = new MysqlConnection(socket, {
      backend: this.backend,
      connectionId,
      stats: this.stats,
      maxPacketSize: this.maxPacketSize,
      onClosed: (closed) => this.connections.delete(closed),
    });
    this.connections.add(conn);
    conn.start();
  }
}
