/**
 * What an ERR packet carries, and the errors only the wire layer raises (their codes live in the shared
 * table, src/common/errors.ts). Every GaleneError already has this shape.
 */
import { GaleneError } from '../common/errors';
import type { ClientErrorEvent, ProtocolBackend } from './backend';

export interface WireError {
  readonly errno: number;
  readonly sqlState: string;
  readonly message: string;
}

const wire = (errno: number, sqlState: string, message: string): WireError => Object.freeze({ errno, sqlState, message });

/** MySQL errors raised by the protocol layer itself (ER_CON_COUNT_ERROR, ER_UNSUPPORTED_PS, ...). */
export const PROTOCOL_ERRORS = Object.freeze({
  TOO_MANY_CONNECTIONS: new GaleneError('TOO_MANY_CONNECTIONS') as WireError,
  BAD_HANDSHAKE: new GaleneError('BAD_HANDSHAKE') as WireError,
  PACKET_TOO_LARGE: new GaleneError('PACKET_TOO_LARGE') as WireError,
  PS_UNSUPPORTED: new GaleneError('PS_UNSUPPORTED') as WireError,
});

/**
 * Any thrown value as what an ERR packet sends: a GaleneError (or another WireError) as it is, anything
 * else as 1105 HY000 with its message, so that a bug in a backend still reaches the client readably.
 */
export function toWireError(err: unknown): WireError {
  if (err instanceof GaleneError) return err;
  if (isWireError(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  return wire(1105, 'HY000', message || 'Unknown error');
}

function isWireError(err: unknown): err is WireError {
  if (typeof err !== 'object' || err === null) return false;
  const candidate = err as Partial<WireError>;
  return typeof candidate.errno === 'number' && typeof candidate.sqlState === 'string' && typeof candidate.message === 'string' && candidate.sqlState.length === 5;
}

/** Tell the backend an ERR packet is going out (ProtocolBackend.errorSent); its failure never stops the reply. */
export function reportError(backend: ProtocolBackend, event: ClientErrorEvent): void {
  try {
    backend.errorSent?.(event);
  } catch {
    // The error log is best effort: the client still gets its ERR packet.
  }
}
