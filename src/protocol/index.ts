/**
 * MySQL wire protocol server (text protocol; the binary/prepared protocol comes next).
 *
 * Role: turn bytes from MySQL clients into calls on a ProtocolBackend / SessionHandler (implemented by the
 * FE) and encode the StatementResults that come back. It knows nothing of SQL. It may import only
 * src/common and node built-ins; the FE imports it, never the other way round.
 */
export { MysqlServer } from './mysql-server';
export type { MysqlServerOptions } from './mysql-server';
export type { ProtocolBackend, SessionHandler, SessionInfo, UserAuthInfo } from './backend';
export { nativePasswordDoubleSha1, nativePasswordToken } from './native-password';
export { columnWireType } from './column-definition';
export { PROTOCOL_ERRORS } from './wire-error';
