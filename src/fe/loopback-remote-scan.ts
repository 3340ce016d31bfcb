/**
 * The remote scan route of a one-process server (debug_remote_scan_backends > 0): loopback backends
 * served by this process's BE, through the loopback transport or, with debug_remote_scan_transport =
 * grpc, over real gRPC — an RpcServer on 127.0.0.1 (a free port) serving this BE's FragmentService, every
 * loopback backend's endpoint pointing at it, and the backend named by debug_remote_scan_unreachable_backend
 * pointing at a port nothing listens on (its calls are refused as an unreachable BE's would be).
 */
import * as net from 'node:net';
import type { Config } from '../common/config';
import { RpcServer } from '../io/rpc';
import type { Backend } from '../be/backend';
import { fragmentRpcService, type FragmentServiceStats } from '../be/fragment-rpc-service';
import { GrpcFragmentTransport } from './grpc-fragment-transport';
import { LoopbackFragmentTransport, LoopbackRouter } from './loopback-fragment-transport';
import type { RemoteScanRoute } from './remote-table-source';

export interface LoopbackRemoteScan {
  readonly route: RemoteScanRoute;
  /** The in-process FragmentService's counters (grpc transport only). */
  readonly fragmentStats: FragmentServiceStats | null;
  close(): Promise<void>;
}

/** A port that was free a moment ago and has no listener now (connections to it are refused). */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The route of `debug_remote_scan_backends` loopback backends; null when the setting is 0. */
export async function openLoopbackRemoteScan(backend: Backend, config: Config): Promise<LoopbackRemoteScan | null> {
  const count = config.getInt('debug_remote_scan_backends');
  if (count <= 0) return null;
  if (config.getString('debug_remote_scan_transport') !== 'grpc') {
    return { route: { router: new LoopbackRouter(count), transport: new LoopbackFragmentTransport(backend, config) }, fragmentStats: null, close: async () => undefined };
  }
  const binding = fragmentRpcService(backend);
  const server = await RpcServer.start({ host: '127.0.0.1', port: 0, services: [binding] });
  const unreachablePort = await deadPort();
  const portOf = (id: number): number => (id === config.getInt('debug_remote_scan_unreachable_backend') ? unreachablePort : server.port);
  const transport = new GrpcFragmentTransport();
  return {
    route: { router: new LoopbackRouter(count, portOf), transport },
    fragmentStats: binding.stats,
    async close() {
      transport.close();
      await server.close();
    },
  };
}
