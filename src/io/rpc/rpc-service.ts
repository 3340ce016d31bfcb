/**
 * A gRPC service definition loaded at run time from the protos in `proto/` at the package root (one file
 * per service family; no code generation step). Field names stay as written in the .proto (snake_case),
 * int64 fields become JavaScript numbers, enums their names, bytes Buffers, and unset fields get their
 * proto3 defaults, so a handler never sees `undefined` for a declared field.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

/** The folder of the .proto files: `proto/` beside `src/` (and beside `dist/` once compiled). */
export const PROTO_DIR = findProtoDir();

function findProtoDir(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'proto');
    if (fs.existsSync(path.join(candidate, 'heartbeat.proto'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`proto/ folder not found above ${__dirname}`);
  }
}

/** One service of a .proto file: its full name (`galene.rpc.HeartbeatService`) and gRPC definition. */
export interface RpcService {
  readonly name: string;
  readonly definition: grpc.ServiceDefinition;
}

const LOAD_OPTIONS: protoLoader.Options = { keepCase: true, longs: Number, enums: String, bytes: Buffer, defaults: true, oneofs: true };
const loaded = new Map<string, protoLoader.PackageDefinition>();

/** The service `serviceName` (package-qualified) of `<dir>/<protoFile>`; each file is parsed once per process. */
export function loadRpcService(protoFile: string, serviceName: string, dir = PROTO_DIR): RpcService {
  const file = path.join(dir, protoFile);
  let pkg = loaded.get(file);
  if (pkg === undefined) {
    pkg = protoLoader.loadSync(file, { ...LOAD_OPTIONS, includeDirs: [dir] });
    loaded.set(file, pkg);
  }
  const definition = pkg[serviceName];
  // Message types carry a `format` field; services are maps of method definitions.
  if (definition === undefined || 'format' in definition) throw new Error(`service ${serviceName} not found in ${file}`);
  return { name: serviceName, definition: definition as grpc.ServiceDefinition };
}
