/**
 * One client connection: connection phase (handshake, optional auth switch, password check, session
 * open), then the command phase, one command at a time.
 *
 * Packets are handled strictly in arrival order through a promise queue, so replies keep their order
 * even when `execute()` is slow and a client pipelines commands. Every reply is built in one
 * PacketWriter and written between `cork()` and `uncork()` (with `setNoDelay(true)`), which the
 * calibration notes measure at 0.5 ms instead of 44 ms per reply.
 *
 * Limits and timers (see MysqlServer for the counts): until login a packet may be at most
 * PRE_AUTH_MAX_PACKET bytes and the whole handshake must finish within connect_timeout; after login
 * packets may be up to max_allowed_packet, and a session idle longer than its wait_timeout gets
 * ER_CLIENT_INTERACTION_TIMEOUT (4031) and is closed, as MySQL 8.0.24+ does.
 *
 * Nothing a client or backend does may escape this class: bad packets become ERR packets (or a close in
 * the connection phase), a backend error becomes an ERR packet and the connection stays usable, and a
 * socket that goes away mid-reply ends the work at the next flush.
 */
import type { Socket } from 'node:net';
import { GaleneError } from '../common/errors';
import type { ConnectionLimits, ProtocolBackend, SessionHandler } from './backend';
import type { StatementWireState } from './binary-params';
import { CommandContext, COMMAND_HANDLERS, ServerStats } from './command-handlers';
import { Capability, CommandCode, NATIVE_PASSWORD_PLUGIN, SERVER_CAPABILITIES, ServerStatus } from './constants';
import { parseHandshakeResponse, writeAuthSwitchRequest, writeInitialHandshake } from './handshake';
import { newScramble, verifyNativePassword } from './native-password';
import { IncomingPacket, PacketFramer, PacketTooLargeError } from './packet-framer';
import { PacketReader } from './packet-reader';
import { PacketWriter } from './packet-writer';
import { writeErr, writeOk } from './reply-packets';
import { ResultSink } from './result-encoder';
import { PROTOCOL_ERRORS, reportError, toWireError, WireError } from './wire-error';

export interface ConnectionOptions {
  readonly backend: ProtocolBackend;
  readonly connectionId: number;
  readonly stats: ServerStats;
  /** Counts and limits of the server this connection belongs to. */
  readonly slots: ConnectionSlots;
  /** The handshake must be done this many ms after the accept (connect_timeout). */
  readonly connectTimeoutMs: number;
  /** Called once when the socket has closed. */
  readonly onClosed: (conn: MysqlConnection) => void;
}

type Phase = 'handshake' | 'auth-switch' | 'command' | 'closed';

/** Thrown into a running reply when the client has gone; the reply is dropped silently. */
class ConnectionGoneError extends Error {
  constructor() {
    super('connection closed');
  }
}

/** Above this many buffered socket bytes the encoder waits for 'drain'. */
const SOCKET_HIGH_WATER = 1024 * 1024;
/** Stop reading from a client that has this many commands waiting. */
const MAX_QUEUED_PACKETS = 64;

/**
 * What a connection asks its server for at login; the server (MysqlServer) owns the counts. Declared
 * here, beside its one user, so that mysql-connection.ts imports nothing from mysql-server.ts.
 */
export interface ConnectionSlots {
  /** The current limits (backend values over the server's options). */
  limits(): ConnectionLimits;
  /**
   * Move `conn` from the handshake budget to the session budget of `user`; returns the error to refuse
   * the login with (nothing is counted then).
   */
  claimSession(conn: MysqlConnection, user: string): WireError | null;
}

/** A client that does not close after a fatal error is cut off after this long. */
const CLOSE_GRACE_MS = 5000;
/**
 * Largest packet accepted before login. A HandshakeResponse41 is user, 20-byte token, database, plugin
 * name and connect attributes: a few hundred bytes from real clients (MySQL truncates stored attributes
 * at 512 bytes by default), so 16 KiB leaves room without letting a stranger make us buffer more.
 */
export const PRE_AUTH_MAX_PACKET = 16 * 1024;
/** setTimeout's ceiling (about 24.8 days); longer waits are cut to it. */
const MAX_TIMER_MS = 0x7fffffff;

function normalizeHost(address: string | undefined): string {
  if (!address) return 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/** One socket's protocol state machine; created and tracked by MysqlServer. */
export class MysqlConnection implements CommandContext, ResultSink {
  readonly connectionId: number;
  readonly host: string;
  readonly writer = new PacketWriter();
  readonly preparedStatements = new Map<number, StatementWireState>();
  private readonly framer: PacketFramer;
  private readonly scramble = newScramble();
  private phase: Phase = 'handshake';
  private capabilities = 0;
  private sessionHandler: SessionHandler | null = null;
  private pendingLogin: { user: string; database: string | null } | null = null;
  /** The user named in the handshake response (for the backend's error log), null before it. */
  private user: string | null = null;
  private queue: Promise<void> = Promise.resolve();
  private queuedPackets = 0;
  private paused = false;
  private inputClosed = false;
  private socketClosed = false;
  private receivedBytes = 0;
  private connectTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly socket: Socket,
    private readonly options: ConnectionOptions,
  ) {
    this.connectionId = options.connectionId;
    this.host = normalizeHost(socket.remoteAddress);
    this.framer = new PacketFramer(PRE_AUTH_MAX_PACKET);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.onSocketClose());
  }

  /** Command handlers write their replies through the connection itself. */
  get sink(): ResultSink {
    return this;
  }

  get stats(): ServerStats {
    return this.options.stats;
  }

  get session(): SessionHandler {
    if (this.sessionHandler === null) throw new GaleneError('INTERNAL', ['no session before authentication']);
    return this.sessionHandler;
  }

  get deprecateEof(): boolean {
    return (this.capabilities & Capability.DEPRECATE_EOF) !== 0;
  }

  statusFlags(): number {
    return ServerStatus.AUTOCOMMIT | (this.sessionHandler?.inTransaction ? ServerStatus.IN_TRANS : 0);
  }

  /** Send the server greeting (Handshake v10). */
  start(): void {
    // A socket that does not finish logging in is dropped without a reply, as MySQL does at connect_timeout.
    this.connectTimer = setTimeout(() => {
      if (this.phase !== 'command') this.socket.destroy();
    }, Math.min(Math.max(this.options.connectTimeoutMs, 1), MAX_TIMER_MS));
    this.connectTimer.unref();
    this.beginReply(0);
    writeInitialHandshake(this.writer, this.options.backend.serverVersion, this.connectionId, this.scramble, ServerStatus.AUTOCOMMIT);
    this.endReply();
  }

  /** Close from the server side (server shutdown). */
  destroy(): void {
    this.socket.destroy();
  }

  /** Greeted but has sent nothing yet: what MysqlServer may drop to make room for a new socket. */
  get silentInHandshake(): boolean {
    return this.phase === 'handshake' && this.receivedBytes === 0 && !this.socketClosed;
  }

  /** Dropped by the server to make room: ERR (the reply to the greeting, sequence id 1), then close. */
  evict(err: WireError): void {
    this.runQueued(() => this.failAndClose(err, 1));
  }

  quit(): void {
    this.phase = 'closed';
    this.inputClosed = true;
    this.socket.end();
  }

  // ---- input ----

  private onData(chunk: Buffer): void {
    if (this.inputClosed) return;
    this.receivedBytes += chunk.length;
    this.clearIdleTimer();
    try {
      this.framer.push(chunk);
      for (let packet = this.framer.next(); packet !== null; packet = this.framer.next()) {
        this.enqueue(packet);
        if (this.inputClosed) break;
      }
    } catch (err) {
      this.inputClosed = true;
      // Whatever else the client sends is not read: it waits in the kernel until the close.
      this.socket.pause();
      const sequenceId = err instanceof PacketTooLargeError ? err.sequenceId + 1 : 0;
      const wireError = err instanceof PacketTooLargeError ? PROTOCOL_ERRORS.PACKET_TOO_LARGE : PROTOCOL_ERRORS.BAD_HANDSHAKE;
      this.runQueued(() => this.failAndClose(wireError, sequenceId));
    }
  }

  private enqueue(packet: IncomingPacket): void {
    this.queuedPackets++;
    if (this.queuedPackets >= MAX_QUEUED_PACKETS && !this.paused) {
      this.paused = true;
      this.socket.pause();
    }
    this.runQueued(async () => {
      this.queuedPackets--;
      if (this.paused && this.queuedPackets < MAX_QUEUED_PACKETS / 2) {
        this.paused = false;
        this.socket.resume();
      }
      await this.handlePacket(packet);
      if (this.queuedPackets === 0) this.armIdleTimer();
    });
  }

  private runQueued(task: () => Promise<void> | void): void {
    this.queue = this.queue.then(task).catch(() => {
      // A failure outside a command's own error handling: the connection state is unknown, so end it.
      this.phase = 'closed';
      this.socket.destroy();
    });
  }

  private async handlePacket(packet: IncomingPacket): Promise<void> {
    switch (this.phase) {
      case 'handshake':
        return this.onHandshakeResponse(packet);
      case 'auth-switch':
        return this.onAuthSwitchResponse(packet);
      case 'command':
        return this.onCommand(packet);
      case 'closed':
        return;
    }
  }

  // ---- connection phase ----

  private async onHandshakeResponse(packet: IncomingPacket): Promise<void> {
    const replySeq = (packet.sequenceId + 1) & 0xff;
    let response;
    try {
      response = parseHandshakeResponse(packet.payload);
    } catch {
      return this.failAndClose(PROTOCOL_ERRORS.BAD_HANDSHAKE, replySeq);
    }
    if (response.sslRequest) return this.failAndClose(PROTOCOL_ERRORS.BAD_HANDSHAKE, replySeq);
    this.capabilities = response.clientFlags & SERVER_CAPABILITIES;
    this.user = response.user;
    const plugin = this.capabilities & Capability.PLUGIN_AUTH ? response.authPlugin : null;
    if (plugin !== null && plugin !== NATIVE_PASSWORD_PLUGIN) {
      this.pendingLogin = { user: response.user, database: response.database };
      this.phase = 'auth-switch';
      this.beginReply(replySeq);
      writeAuthSwitchRequest(this.writer, this.scramble);
      this.endReply();
      return;
    }
    return this.login(response.user, response.database, response.authResponse, replySeq);
  }

  private async onAuthSwitchResponse(packet: IncomingPacket): Promise<void> {
    const login = this.pendingLogin!;
    this.pendingLogin = null;
    return this.login(login.user, login.database, packet.payload, (packet.sequenceId + 1) & 0xff);
  }

  private async login(user: string, database: string | null, token: Buffer, replySeq: number): Promise<void> {
    const backend = this.options.backend;
    let authorized = false;
    if (this.socketClosed) return;
    let policyRefusal: Error | null = null;
    try {
      const info = backend.lookupUser(user, this.host);
      authorized = info !== null && verifyNativePassword(token, this.scramble, info.passwordDoubleSha1);
      const outcome = backend.checkLogin?.(user, this.host, authorized);
      if (outcome) {
        policyRefusal = outcome.refuse;
        if (outcome.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, outcome.delayMs));
        if (this.socketClosed) return;
      }
    } catch (err) {
      return this.failAndClose(toWireError(err), replySeq);
    }
    if (policyRefusal !== null) return this.failAndClose(toWireError(policyRefusal), replySeq);
    if (!authorized) {
      return this.failAndClose(new GaleneError('ACCESS_DENIED', [user, this.host, token.length > 0 ? 'YES' : 'NO']), replySeq);
    }
    const refused = this.options.slots.claimSession(this, user);
    if (refused !== null) return this.failAndClose(refused, replySeq);
    const interactive = (this.capabilities & Capability.INTERACTIVE) !== 0;
    let session: SessionHandler;
    try {
      session = await backend.openSession({ connectionId: this.connectionId, user, host: this.host, port: this.socket.remotePort, database, interactive, terminate: () => this.socket.destroy() });
    } catch (err) {
      return this.failAndClose(toWireError(err), replySeq);
    }
    if (this.socketClosed) {
      closeQuietly(session);
      return;
    }
    session.multiStatements = (this.capabilities & Capability.MULTI_STATEMENTS) !== 0;
    this.sessionHandler = session;
    this.phase = 'command';
    this.clearConnectTimer();
    this.framer.maxPacketSize = this.options.slots.limits().maxAllowedPacket;
    this.beginReply(replySeq);
    writeOk(this.writer, { statusFlags: this.statusFlags() });
    this.endReply();
    this.armIdleTimer();
  }

  /** ERR packet, then close (connection-phase failures, protocol violations). */
  private failAndClose(err: WireError, sequenceId: number): void {
    this.phase = 'closed';
    this.inputClosed = true;
    this.clearIdleTimer();
    if (this.socketClosed) return;
    this.beginReply(sequenceId);
    this.writeError(err, err);
    this.endReply();
    this.socket.end();
    this.socket.setTimeout(CLOSE_GRACE_MS, () => this.socket.destroy());
  }

  // ---- timers ----

  /** Start the wait for the next command (after login and after each command, when nothing is queued). */
  private armIdleTimer(): void {
    this.clearIdleTimer();
    if (this.phase !== 'command' || this.socketClosed || this.sessionHandler === null) return;
    let seconds: number;
    try {
      seconds = this.sessionHandler.idleTimeoutSeconds?.() ?? 0;
    } catch {
      return;
    }
    if (!(seconds > 0)) return;
    this.idleTimer = setTimeout(() => this.onIdleTimeout(), Math.min(seconds * 1000, MAX_TIMER_MS));
    this.idleTimer.unref();
  }

  private onIdleTimeout(): void {
    this.idleTimer = null;
    if (this.phase !== 'command' || this.queuedPackets > 0) return;
    // MySQL 8.0.24+ tells the client why before closing: ERR 4031 with sequence id 0.
    this.runQueued(() => this.failAndClose(new GaleneError('CLIENT_INTERACTION_TIMEOUT'), 0));
  }

  private clearIdleTimer(): void {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private clearConnectTimer(): void {
    if (this.connectTimer !== null) clearTimeout(this.connectTimer);
    this.connectTimer = null;
  }

  // ---- command phase ----

  private async onCommand(packet: IncomingPacket): Promise<void> {
    if (this.socketClosed) return;
    const payload = packet.payload;
    this.beginReply((packet.sequenceId + 1) & 0xff);
    try {
      if (payload.length === 0) throw new GaleneError('MALFORMED_PACKET');
      const handler = COMMAND_HANDLERS[payload[0] as CommandCode];
      if (handler === undefined) throw new GaleneError('UNKNOWN_COMMAND');
      await handler(this, new PacketReader(payload, 1));
    } catch (err) {
      if (err instanceof ConnectionGoneError || this.socketClosed) return;
      this.writer.abortPacket();
      this.writeError(toWireError(err), err);
    } finally {
      this.endReply();
    }
  }

  // ---- output ----

  /** The one place a connection writes an ERR packet: the backend hears of it first (its error log). */
  writeError(err: WireError, cause: unknown): void {
    reportError(this.options.backend, { connectionId: this.connectionId, user: this.user, host: this.host, errno: err.errno, message: err.message, cause });
    writeErr(this.writer, err);
  }

  private beginReply(sequenceId: number): void {
    this.writer.reset();
    this.writer.sequenceId = sequenceId;
    if (this.canWrite()) this.socket.cork();
  }

  private endReply(): void {
    if (this.canWrite()) {
      if (this.writer.length > 0) this.socket.write(this.writer.take());
      this.socket.uncork();
    }
    this.writer.reset();
  }

  private canWrite(): boolean {
    return !this.socketClosed && this.socket.writable;
  }

  /** ResultSink.flush: hand buffered rows to the socket, waiting while the client is slow to read. */
  flush(): Promise<void> | undefined {
    if (!this.canWrite()) throw new ConnectionGoneError();
    if (this.writer.length > 0) this.socket.write(this.writer.take());
    if (this.socket.writableLength < SOCKET_HIGH_WATER) return undefined;
    this.socket.uncork();
    return new Promise<void>((resolve, reject) => {
      const done = (): void => {
        this.socket.off('drain', done);
        this.socket.off('close', done);
        if (!this.canWrite()) reject(new ConnectionGoneError());
        else {
          this.socket.cork();
          resolve();
        }
      };
      this.socket.on('drain', done);
      this.socket.on('close', done);
    });
  }

  private onSocketClose(): void {
    if (this.socketClosed) return;
    this.socketClosed = true;
    this.phase = 'closed';
    this.inputClosed = true;
    this.clearConnectTimer();
    this.clearIdleTimer();
    if (this.sessionHandler !== null) closeQuietly(this.sessionHandler);
    this.options.onClosed(this);
  }
}

function closeQuietly(session: SessionHandler): void {
  try {
    session.close();
  } catch {
    // The session is gone either way; a failing close must not take the server down.
  }
}
