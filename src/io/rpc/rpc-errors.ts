/**
 * gRPC status <-> GaleneError. A handler's GaleneError crosses the wire whole: its code travels in the
 * `galene-error-code` trailer and its text in the status details, so the caller rethrows the same error
 * (the same errno and Doris words the client would have got in one process). Any other failure becomes a
 * status from the error's category, and a status without a (known) code becomes an RPC_* error naming the
 * method and the endpoint. A peer cannot make us build an error code we do not have.
 */
import * as grpc from '@grpc/grpc-js';
import { ERROR_CODES, GaleneError, toGaleneError, type ErrorCategory, type ErrorCode } from '../../common/errors';

export const ERROR_CODE_KEY = 'galene-error-code';

const STATUS_OF_CATEGORY: Record<ErrorCategory, grpc.status> = {
  user: grpc.status.INVALID_ARGUMENT,
  resource: grpc.status.RESOURCE_EXHAUSTED,
  io: grpc.status.UNAVAILABLE,
  internal: grpc.status.INTERNAL,
};

const STATUS_OF_CODE: Partial<Record<ErrorCode, grpc.status>> = {
  RPC_TIMEOUT: grpc.status.DEADLINE_EXCEEDED,
  QUERY_TIMEOUT: grpc.status.DEADLINE_EXCEEDED,
  LOAD_TIMEOUT: grpc.status.DEADLINE_EXCEEDED,
  RPC_CANCELLED: grpc.status.CANCELLED,
  QUERY_CANCELLED: grpc.status.CANCELLED,
  LOAD_CANCELLED: grpc.status.CANCELLED,
};

/** What a server handler's failure is sent as. */
export function toRpcStatus(err: unknown): Partial<grpc.StatusObject> {
  const error = toGaleneError(err);
  const metadata = new grpc.Metadata();
  metadata.set(ERROR_CODE_KEY, error.code);
  return { code: STATUS_OF_CODE[error.code] ?? STATUS_OF_CATEGORY[error.category], details: error.message, metadata };
}

const isErrorCode = (value: string): value is ErrorCode => Object.prototype.hasOwnProperty.call(ERROR_CODES, value);

/** The GaleneError a failed call (`err` from grpc-js) means to the caller of `method` at `endpoint`. */
export function fromRpcError(err: unknown, method: string, endpoint: string, timeoutMs: number): GaleneError {
  if (err instanceof GaleneError) return err;
  const status = err as Partial<grpc.ServiceError>;
  const sent = status.metadata?.get(ERROR_CODE_KEY)[0];
  const details = typeof status.details === 'string' ? status.details : String((err as Error)?.message ?? err);
  if (typeof sent === 'string' && isErrorCode(sent)) return new GaleneError(sent, [], { message: details, cause: err });
  const args = (detail: string): string[] => [method, endpoint, detail];
  switch (status.code) {
    case grpc.status.DEADLINE_EXCEEDED:
      return new GaleneError('RPC_TIMEOUT', [method, endpoint, timeoutMs], { cause: err });
    case grpc.status.CANCELLED:
      return new GaleneError('RPC_CANCELLED', [method, endpoint], { cause: err });
    case grpc.status.UNAVAILABLE:
      return new GaleneError('RPC_UNAVAILABLE', args(details), { cause: err });
    case grpc.status.RESOURCE_EXHAUSTED:
      return new GaleneError('RPC_MESSAGE_TOO_LARGE', args(details), { cause: err });
    case grpc.status.INVALID_ARGUMENT:
      return new GaleneError('RPC_INVALID_REQUEST', args(details), { cause: err });
    case grpc.status.UNIMPLEMENTED:
      return new GaleneError('RPC_UNIMPLEMENTED', [method, endpoint], { cause: err });
    default:
      return new GaleneError('RPC_FAILED', args(details), { cause: err });
  }
}
