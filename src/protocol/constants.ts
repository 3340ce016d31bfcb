/**
 * MySQL client/server protocol constants (capability flags, status flags, command bytes, column types and
 * flags), named as in MySQL's `include/mysql_com.h` and `field_types.h` so that the wire code reads like the
 * protocol documentation: https://dev.mysql.com/doc/dev/mysql-server/latest/PAGE_PROTOCOL.html
 */

/** Capability flags (Protocol::CapabilityFlags). */
export const Capability = Object.freeze({
  /** Also the "this is MySQL, not MariaDB" bit: MariaDB clients read extended capabilities when it is unset. */
  LONG_PASSWORD: 0x00000001,
  FOUND_ROWS: 0x00000002,
  LONG_FLAG: 0x00000004,
  CONNECT_WITH_DB: 0x00000008,
  NO_SCHEMA: 0x00000010,
  COMPRESS: 0x00000020,
  ODBC: 0x00000040,
  LOCAL_FILES: 0x00000080,
  IGNORE_SPACE: 0x00000100,
  PROTOCOL_41: 0x00000200,
  INTERACTIVE: 0x00000400,
  SSL: 0x00000800,
  IGNORE_SIGPIPE: 0x00001000,
  TRANSACTIONS: 0x00002000,
  RESERVED: 0x00004000,
  SECURE_CONNECTION: 0x00008000,
  MULTI_STATEMENTS: 0x00010000,
  MULTI_RESULTS: 0x00020000,
  PS_MULTI_RESULTS: 0x00040000,
  PLUGIN_AUTH: 0x00080000,
  CONNECT_ATTRS: 0x00100000,
  PLUGIN_AUTH_LENENC_CLIENT_DATA: 0x00200000,
  CAN_HANDLE_EXPIRED_PASSWORDS: 0x00400000,
  SESSION_TRACK: 0x00800000,
  DEPRECATE_EOF: 0x01000000,
  QUERY_ATTRIBUTES: 0x08000000,
});

/**
 * What Galene's server offers. No SSL, no compression, no query attributes: a client only uses what both
 * sides announce, so the effective set is `clientFlags & SERVER_CAPABILITIES`. SESSION_TRACK is offered
 * (no state changes are ever reported) because it makes every client read the OK packet's info as a
 * length-encoded string, the form MySQL and Doris send and libmariadb always expects.
 */
export const SERVER_CAPABILITIES =
  Capability.LONG_PASSWORD |
  Capability.FOUND_ROWS |
  Capability.LONG_FLAG |
  Capability.CONNECT_WITH_DB |
  Capability.ODBC |
  Capability.IGNORE_SPACE |
  Capability.PROTOCOL_41 |
  Capability.INTERACTIVE |
  Capability.IGNORE_SIGPIPE |
  Capability.TRANSACTIONS |
  Capability.RESERVED |
  Capability.SECURE_CONNECTION |
  Capability.MULTI_STATEMENTS |
  Capability.MULTI_RESULTS |
  Capability.PS_MULTI_RESULTS |
  Capability.PLUGIN_AUTH |
  Capability.CONNECT_ATTRS |
  Capability.PLUGIN_AUTH_LENENC_CLIENT_DATA |
  Capability.SESSION_TRACK |
  Capability.DEPRECATE_EOF;

/** Server status flags carried by OK and EOF packets. */
export const ServerStatus = Object.freeze({
  IN_TRANS: 0x0001,
  AUTOCOMMIT: 0x0002,
  MORE_RESULTS_EXISTS: 0x0008,
  NO_GOOD_INDEX_USED: 0x0010,
  NO_INDEX_USED: 0x0020,
});

/** Command bytes (first byte of every packet in the command phase). */
export enum CommandCode {
  SLEEP = 0x00,
  QUIT = 0x01,
  INIT_DB = 0x02,
  QUERY = 0x03,
  FIELD_LIST = 0x04,
  STATISTICS = 0x09,
  PROCESS_INFO = 0x0a,
  PROCESS_KILL = 0x0c,
  DEBUG = 0x0d,
  PING = 0x0e,
  CHANGE_USER = 0x11,
  STMT_PREPARE = 0x16,
  STMT_EXECUTE = 0x17,
  STMT_SEND_LONG_DATA = 0x18,
  STMT_CLOSE = 0x19,
  STMT_RESET = 0x1a,
  SET_OPTION = 0x1b,
  STMT_FETCH = 0x1c,
  RESET_CONNECTION = 0x1f,
}

/** Column types (enum_field_types). */
export enum MysqlType {
  DECIMAL = 0x00,
  TINY = 0x01,
  SHORT = 0x02,
  LONG = 0x03,
  FLOAT = 0x04,
  DOUBLE = 0x05,
  NULL = 0x06,
  TIMESTAMP = 0x07,
  LONGLONG = 0x08,
  INT24 = 0x09,
  DATE = 0x0a,
  TIME = 0x0b,
  DATETIME = 0x0c,
  YEAR = 0x0d,
  VARCHAR = 0x0f,
  BIT = 0x10,
  JSON = 0xf5,
  NEWDECIMAL = 0xf6,
  BLOB = 0xfc,
  VAR_STRING = 0xfd,
  STRING = 0xfe,
}

/** Column definition flags. */
export const ColumnFlag = Object.freeze({
  NOT_NULL: 0x0001,
  PRI_KEY: 0x0002,
  UNIQUE_KEY: 0x0004,
  MULTIPLE_KEY: 0x0008,
  BLOB: 0x0010,
  UNSIGNED: 0x0020,
  ZEROFILL: 0x0040,
  BINARY: 0x0080,
  NUM: 0x8000,
});

/** Collation ids. utf8mb4_general_ci is what the handshake and text columns announce. */
export const Charset = Object.freeze({
  UTF8_GENERAL_CI: 33,
  UTF8MB4_GENERAL_CI: 45,
  BINARY: 63,
});

/** Largest payload of one physical packet; a payload of this size or more continues in the next packet. */
export const MAX_PACKET_CHUNK = 0xffffff;

export const NATIVE_PASSWORD_PLUGIN = 'mysql_native_password';

/** Packet header bytes. */
export const OK_HEADER = 0x00;
export const EOF_HEADER = 0xfe;
export const ERR_HEADER = 0xff;
export const NULL_CELL = 0xfb;
