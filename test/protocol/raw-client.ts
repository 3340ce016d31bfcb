/**
 * A minimal MySQL client over a raw socket for the wire tests: frames packets itself (independently of
 * the server's code), does the HandshakeResponse41 by hand, and lets a test send any bytes it likes.
 */
import net from 'node:net';
import { nativePasswordToken } from '../../src/protocol/native-password';

export interface RawPacket {
  readonly sequenceId: number;
  readonly payload: Buffer;
}

export interface Greeting {
  readonly protocolVersion: number;
  readonly serverVersion: string;
  readonly connectionId: number;
  readonly capabilities: number;
  readonly charset: number;
  readonly scramble: Buffer;
  readonly authPlugin: string;
}

export const CLIENT = {
  CONNECT_WITH_DB: 0x8,
  PROTOCOL_41: 0x200,
  SSL: 0x800,
  SECURE_CONNECTION: 0x8000,
  MULTI_STATEMENTS: 0x10000,
  MULTI_RESULTS: 0x20000,
  PLUGIN_AUTH: 0x80000,
  CONNECT_ATTRS: 0x100000,
  PLUGIN_AUTH_LENENC: 0x200000,
  SESSION_TRACK: 0x800000,
  DEPRECATE_EOF: 0x1000000,
};

export function packet(sequenceId: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUIntLE(payload.length, 0, 3);
  header[3] = sequenceId;
  return Buffer.concat([header, payload]);
}

export class RawClient {
  private buffered = Buffer.alloc(0);
  private waiter: (() => void) | null = null;
  closed = false;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static connect(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = null;
    if (waiter) waiter();
  }

  /** The next packet, or null when the server closed the connection first. Fails after `timeoutMs`. */
  async readPacket(timeoutMs = 3000): Promise<RawPacket | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.buffered.length >= 4) {
        const length = this.buffered.readUIntLE(0, 3);
        if (this.buffered.length >= 4 + length) {
          const out = { sequenceId: this.buffered[3], payload: this.buffered.subarray(4, 4 + length) };
          this.buffered = this.buffered.subarray(4 + length);
          return out;
        }
      }
      if (this.closed) return null;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error('timed out waiting for a packet');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remaining);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** Resolves true once the server has closed the socket, false after `timeoutMs`. */
  async waitClosed(timeoutMs = 3000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    return this.closed;
  }

  write(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  send(sequenceId: number, payload: Buffer): void {
    this.write(packet(sequenceId, payload));
  }

  /** Send a command (sequence id 0) and return the first reply packet. */
  async command(code: number, body: Buffer = Buffer.alloc(0)): Promise<RawPacket> {
    this.send(0, Buffer.concat([Buffer.from([code]), body]));
    const reply = await this.readPacket();
    if (reply === null) throw new Error('connection closed');
    return reply;
  }

  async readGreeting(): Promise<Greeting> {
    const greeting = await this.readPacket();
    if (greeting === null) throw new Error('closed before greeting');
    return parseGreeting(greeting.payload);
  }

  /** HandshakeResponse41 for `user`, answered with the native-password token (or none for ''). */
  static handshakeResponse(
    greeting: Greeting,
    user: string,
    password: string,
    options: { flags?: number; database?: string; plugin?: string; authData?: Buffer } = {},
  ): Buffer {
    let flags = options.flags ?? CLIENT.PROTOCOL_41 | CLIENT.SECURE_CONNECTION | CLIENT.PLUGIN_AUTH | CLIENT.PLUGIN_AUTH_LENENC | CLIENT.MULTI_RESULTS | CLIENT.CONNECT_ATTRS;
    if (options.database) flags |= CLIENT.CONNECT_WITH_DB;
    const token = options.authData ?? nativePasswordToken(password, greeting.scramble);
    const fixed = Buffer.alloc(32);
    fixed.writeUInt32LE(flags >>> 0, 0);
    fixed.writeUInt32LE(16 * 1024 * 1024, 4);
    fixed[8] = 45;
    const parts = [fixed, Buffer.from(user + '\0'), Buffer.from([token.length]), token];
    if (options.database) parts.push(Buffer.from(options.database + '\0'));
    parts.push(Buffer.from((options.plugin ?? 'mysql_native_password') + '\0'));
    // Connect attributes: total length, then key/value pairs (the server must skip them).
    const attrs = Buffer.concat([Buffer.from([4]), Buffer.from('_pid'), Buffer.from([3]), Buffer.from('123')]);
    parts.push(Buffer.from([attrs.length]), attrs);
    return Buffer.concat(parts);
  }

  /** Connect and log in; returns the client ready for commands. */
  static async login(port: number, user = 'root', password = '', flags?: number): Promise<RawClient> {
    const client = await RawClient.connect(port);
    const greeting = await client.readGreeting();
    client.send(1, RawClient.handshakeResponse(greeting, user, password, { flags }));
    const reply = await client.readPacket();
    if (reply === null || reply.payload[0] !== 0x00) throw new Error(`login failed: ${reply?.payload.toString('latin1')}`);
    return client;
  }

  end(): void {
    this.socket.destroy();
  }
}

export function parseGreeting(payload: Buffer): Greeting {
  let pos = 0;
  const protocolVersion = payload[pos++];
  const versionEnd = payload.indexOf(0, pos);
  const serverVersion = payload.toString('latin1', pos, versionEnd);
  pos = versionEnd + 1;
  const connectionId = payload.readUInt32LE(pos);
  pos += 4;
  const part1 = payload.subarray(pos, pos + 8);
  pos += 9;
  const capsLow = payload.readUInt16LE(pos);
  pos += 2;
  const charset = payload[pos++];
  pos += 2; // status
  const capsHigh = payload.readUInt16LE(pos);
  pos += 2;
  const authDataLength = payload[pos++];
  pos += 10;
  const part2Length = Math.max(13, authDataLength - 8);
  const part2 = payload.subarray(pos, pos + part2Length - 1);
  pos += part2Length;
  const pluginEnd = payload.indexOf(0, pos);
  const authPlugin = payload.toString('latin1', pos, pluginEnd);
  return {
    protocolVersion,
    serverVersion,
    connectionId,
    capabilities: (capsLow | (capsHigh << 16)) >>> 0,
    charset,
    scramble: Buffer.concat([part1, part2]),
    authPlugin,
  };
}

/** ERR packet fields. */
export function parseErr(payload: Buffer): { errno: number; sqlState: string; message: string } {
  if (payload[0] !== 0xff) throw new Error(`not an ERR packet: 0x${payload[0].toString(16)}`);
  return { errno: payload.readUInt16LE(1), sqlState: payload.toString('latin1', 4, 9), message: payload.toString('utf8', 9) };
}
