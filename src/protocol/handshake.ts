/**
 * The connection phase packets: the server's Handshake v10, the client's HandshakeResponse41, and the
 * AuthSwitchRequest that moves a client announcing another plugin (caching_sha2_password, ...) to
 * mysql_native_password.
 * https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase.html
 */
import { GaleneError } from '../common/errors';
import { Capability, Charset, NATIVE_PASSWORD_PLUGIN, SERVER_CAPABILITIES } from './constants';
import { PacketReader } from './packet-reader';
import { PacketWriter } from './packet-writer';

export interface HandshakeResponse {
  /** The client's flags as sent (the connection uses them ANDed with the server's). */
  readonly clientFlags: number;
  readonly maxPacketSize: number;
  readonly charset: number;
  readonly user: string;
  readonly authResponse: Buffer;
  readonly database: string | null;
  /** Plugin the auth response was computed with; null when the client did not say. */
  readonly authPlugin: string | null;
  /** The client asked for TLS (SSLRequest): Galene does not offer it. */
  readonly sslRequest: boolean;
}

/** Protocol::HandshakeV10, with the 20-byte scramble split 8 + 12 and mysql_native_password as plugin. */
export function writeInitialHandshake(writer: PacketWriter, serverVersion: string, connectionId: number, scramble: Buffer, statusFlags: number): void {
  writer.begin();
  writer.int1(10);
  writer.stringNul(serverVersion);
  writer.int4(connectionId);
  writer.bytes(scramble, 0, 8);
  writer.int1(0);
  writer.int2(SERVER_CAPABILITIES & 0xffff);
  writer.int1(Charset.UTF8MB4_GENERAL_CI);
  writer.int2(statusFlags);
  writer.int2((SERVER_CAPABILITIES >>> 16) & 0xffff);
  writer.int1(scramble.length + 1);
  writer.zeros(10);
  writer.bytes(scramble, 8, scramble.length);
  writer.int1(0);
  writer.stringNul(NATIVE_PASSWORD_PLUGIN);
  writer.end();
}

/** Protocol::HandshakeResponse41 (CONNECT_ATTRS are read past and ignored). Throws MALFORMED_PACKET. */
export function parseHandshakeResponse(payload: Buffer): HandshakeResponse {
  const reader = new PacketReader(payload);
  const clientFlags = reader.int4();
  if ((clientFlags & Capability.PROTOCOL_41) === 0) throw new GaleneError('MALFORMED_PACKET');
  const maxPacketSize = reader.int4();
  const charset = reader.int1();
  reader.skip(23);
  if (reader.remaining === 0 && (clientFlags & Capability.SSL) !== 0) {
    return { clientFlags, maxPacketSize, charset, user: '', authResponse: Buffer.alloc(0), database: null, authPlugin: null, sslRequest: true };
  }
  const user = reader.stringNul();
  let authResponse: Buffer;
  if (clientFlags & Capability.PLUGIN_AUTH_LENENC_CLIENT_DATA) authResponse = reader.lenencBytes() ?? Buffer.alloc(0);
  else if (clientFlags & Capability.SECURE_CONNECTION) authResponse = reader.bytes(reader.int1());
  else authResponse = reader.bytesNul();
  let database: string | null = null;
  if (clientFlags & Capability.CONNECT_WITH_DB && reader.remaining > 0) {
    database = reader.stringNulOrRest();
    if (database === '') database = null;
  }
  let authPlugin: string | null = null;
  if (clientFlags & Capability.PLUGIN_AUTH && reader.remaining > 0) authPlugin = reader.stringNulOrRest();
  // CONNECT_ATTRS follow: a length-encoded block of key/value pairs that Galene does not use.
  return { clientFlags, maxPacketSize, charset, user, authResponse: Buffer.from(authResponse), database, authPlugin, sslRequest: false };
}

/** Protocol::AuthSwitchRequest to mysql_native_password with a scramble (NUL-terminated as MySQL sends it). */
export function writeAuthSwitchRequest(writer: PacketWriter, scramble: Buffer): void {
  writer.begin();
  writer.int1(0xfe);
  writer.stringNul(NATIVE_PASSWORD_PLUGIN);
  writer.bytes(scramble);
  writer.int1(0);
  writer.end();
}
