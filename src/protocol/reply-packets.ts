/**
 * The small generic reply packets: OK, EOF, ERR, and the OK-with-0xFE header that ends a result set when
 * the client set CLIENT_DEPRECATE_EOF.
 * https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_basic_ok_packet.html
 */
import { EOF_HEADER, ERR_HEADER, OK_HEADER } from './constants';
import { PacketWriter } from './packet-writer';
import { WireError } from './wire-error';

export interface OkFields {
  readonly affectedRows?: number;
  readonly lastInsertId?: number;
  readonly statusFlags: number;
  readonly warnings?: number;
  /** Human-readable info (Doris: `{'label':'...', 'status':'VISIBLE', 'txnId':'...'}`). */
  readonly info?: string;
}

/**
 * OK_Packet. The info goes out as a length-encoded string, as MySQL's net_send_ok and Doris's OkPacket
 * write it: libmariadb (the mariadb CLI) reads it so whatever the capabilities, and mysql2 does too
 * because the server announces CLIENT_SESSION_TRACK; mysql2 exposes it as `info` on the ResultSetHeader.
 */
export function writeOk(writer: PacketWriter, fields: OkFields, header = OK_HEADER): void {
  writer.begin();
  writer.int1(header);
  writer.lenencInt(fields.affectedRows ?? 0);
  writer.lenencInt(fields.lastInsertId ?? 0);
  writer.int2(fields.statusFlags);
  writer.int2(Math.min(fields.warnings ?? 0, 0xffff));
  if (fields.info) writer.lenencString(fields.info);
  writer.end();
}

/** EOF_Packet (pre-DEPRECATE_EOF clients: after column definitions and after the rows). */
export function writeEof(writer: PacketWriter, statusFlags: number, warnings = 0): void {
  writer.begin();
  writer.int1(EOF_HEADER);
  writer.int2(Math.min(warnings, 0xffff));
  writer.int2(statusFlags);
  writer.end();
}

/** End of a result set or of a column list: EOF, or an OK with the 0xFE header under DEPRECATE_EOF. */
export function writeEndOfRows(writer: PacketWriter, deprecateEof: boolean, statusFlags: number, warnings = 0): void {
  if (deprecateEof) writeOk(writer, { statusFlags, warnings }, EOF_HEADER);
  else writeEof(writer, statusFlags, warnings);
}

/** ERR_Packet with the SQL state marker (CLIENT_PROTOCOL_41 is always on). */
export function writeErr(writer: PacketWriter, err: WireError): void {
  writer.begin();
  writer.int1(ERR_HEADER);
  writer.int2(err.errno);
  writer.string('#');
  writer.string(err.sqlState.padEnd(5, '0').slice(0, 5));
  writer.string(err.message);
  writer.end();
}
