/**
 * io/rpc/: the internal RPC between Galene processes (FE <-> BE, later BE <-> BE), on gRPC
 * (@grpc/grpc-js) with protobuf services loaded at run time from `proto/`. One server type for any list
 * of services, one client per endpoint, deadlines and cancellation on every call, message size limits,
 * and GaleneErrors on both sides of the wire. Imports only common/.
 */
export { loadRpcService, PROTO_DIR, type RpcService } from './rpc-service';
export { RpcServer, DEFAULT_MAX_MESSAGE_BYTES, type RpcCallContext, type RpcServerOptions, type RpcServiceBinding, type RpcStreamHandler, type RpcUnaryHandler } from './rpc-server';
export { RpcClient, RpcClientCache, DEFAULT_RPC_TIMEOUT_MS, type RpcCallOptions, type RpcClientOptions } from './rpc-client';
export { ERROR_CODE_KEY, fromRpcError, toRpcStatus } from './rpc-errors';
