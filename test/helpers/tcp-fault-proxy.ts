/**
 * A TCP fault-and-latency proxy for tests: forwards connections to a target byte for byte (so gRPC over
 * HTTP/2 passes through, which the HTTP proxy of fault-proxy.ts cannot carry), holding each chunk from the
 * target for `delayMs` before it reaches the client, and on `stall()` forwarding nothing more until
 * `resume()`. `close()` ends every connection.
 */
import * as net from 'node:net';

export class TcpFaultProxy {
  delayMs = 0;
  private stalled = false;
  private readonly held: (() => void)[] = [];
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async start(targetHost: string, targetPort: number): Promise<TcpFaultProxy> {
    let proxy: TcpFaultProxy | null = null;
    const server = net.createServer((client) => proxy!.connect(client, targetHost, targetPort));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new TcpFaultProxy(server, (server.address() as net.AddressInfo).port);
    return proxy;
  }

  stall(): void {
    this.stalled = true;
  }

  resume(): void {
    this.stalled = false;
    for (const release of this.held.splice(0)) release();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private connect(client: net.Socket, host: string, port: number): void {
    const upstream = net.connect(port, host);
    this.sockets.add(client);
    this.sockets.add(upstream);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.on('data', (chunk) => this.forward(() => upstream.write(chunk), 0));
    upstream.on('data', (chunk) => this.forward(() => client.write(chunk), this.delayMs));
  }

  private forward(write: () => void, delayMs: number): void {
    const send = (): void => {
      if (this.stalled) this.held.push(write);
      else write();
    };
    if (delayMs > 0) setTimeout(send, delayMs);
    else send();
  }
}
