/**
 * The one S3 test fixture: a real s3rver (s3-server.ts, its own process on loopback) behind the fault
 * proxy (fault-proxy.ts), with what tests need around it: S3ObjectStore options through the proxy, the
 * bucket's keys read straight from s3rver (past faults and credential checks), CREATE STORAGE VAULT's
 * properties and a vault-creating helper.
 *
 *   - `useS3BehindProxy(options)`: starts both in `before` and stops both in `after` of the file (or of
 *     the `describe` it is called in); the handle's fields are usable from `before` on. Hooks run in the
 *     order they are registered: call it after a server's before/after hooks when that server should
 *     stop before S3 does.
 *   - `startS3BehindProxy(options)`: the same, started and stopped by the caller (benchmarks).
 *   - `sharedS3BehindProxy()`: one per test process, started on first use, never keeping the process
 *     alive and dying with it: the storage matrix's server (galene-process.ts).
 */
import { after, before } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { S3ObjectStore, type S3StoreOptions } from '../../src/io/s3-object-store';
import { FaultProxy, type FaultSettings } from './fault-proxy';
import { startS3Server, type S3Server } from './s3-server';

export interface S3BehindProxyOptions {
  /** The proxy's first settings (latency, faults, `credentials` to make it check keys and SigV4). */
  readonly proxy?: FaultSettings;
  /** s3rver's bucket (default `galene`). */
  readonly bucket?: string;
  /** s3rver's object directory (default: a new temporary directory). */
  readonly dir?: string;
}

export interface VaultOptions {
  /** Replaces or adds CREATE STORAGE VAULT properties (`s3.secret_key` when the proxy checks secrets). */
  readonly overrides?: Record<string, string>;
  readonly ifNotExists?: boolean;
  /** `SET <name> AS DEFAULT STORAGE VAULT` after creating it. */
  readonly asDefault?: boolean;
}

export interface S3BehindProxy {
  readonly s3: S3Server;
  readonly proxy: FaultProxy;
  /** The proxy's endpoint: what Galene and stores under test talk to. */
  readonly endpoint: string;
  readonly bucket: string;
  readonly accessKey: string;
  readonly secretKey: string;
  /** S3ObjectStore options for `rootPath` through the proxy. */
  storeOptions(rootPath: string, overrides?: Partial<S3StoreOptions>): S3StoreOptions;
  /** Keys under `rootPath`/`prefix`, listed straight from s3rver (no proxy faults or credential check). */
  bucketKeys(rootPath: string, prefix?: string): Promise<string[]>;
  /** The object `rootPath`/`key`, read straight from s3rver. */
  bucketObject(rootPath: string, key: string): Promise<Buffer>;
  /** CREATE STORAGE VAULT's `PROPERTIES (...)` for the bucket under `rootPath`, through the proxy. */
  vaultProperties(rootPath: string, overrides?: Record<string, string>): string;
  /** CREATE STORAGE VAULT `name` (optionally IF NOT EXISTS, then as the default vault) on a connection. */
  createVault(conn: Connection, name: string, rootPath: string, options?: VaultOptions): Promise<void>;
  /** Stop the proxy and s3rver. */
  stop(): Promise<void>;
}

export async function startS3BehindProxy(options: S3BehindProxyOptions = {}): Promise<S3BehindProxy> {
  const s3 = await startS3Server({ bucket: options.bucket, dir: options.dir });
  let proxy: FaultProxy;
  try {
    proxy = await FaultProxy.start({ host: '127.0.0.1', port: s3.port }, options.proxy ?? {});
  } catch (err) {
    await s3.stop();
    throw err;
  }
  const storeOptions = (rootPath: string, overrides: Partial<S3StoreOptions> = {}): S3StoreOptions => ({
    endpoint: proxy.endpoint,
    region: 'us-east-1',
    bucket: s3.bucket,
    rootPath,
    accessKey: s3.accessKey,
    secretKey: s3.secretKey,
    usePathStyle: true,
    ...overrides,
  });
  /** A store straight to s3rver (past the proxy), for what a test checks in the bucket. */
  const withDirectStore = async <T>(rootPath: string, use: (store: S3ObjectStore) => Promise<T>): Promise<T> => {
    const store = new S3ObjectStore(storeOptions(rootPath, { endpoint: s3.endpoint }));
    try {
      return await use(store);
    } finally {
      store.close();
    }
  };
  const vaultProperties = (rootPath: string, overrides: Record<string, string> = {}): string => {
    const properties: Record<string, string> = {
      type: 'S3',
      's3.endpoint': proxy.endpoint,
      's3.region': 'us-east-1',
      's3.bucket': s3.bucket,
      's3.root.path': rootPath,
      's3.access_key': s3.accessKey,
      's3.secret_key': s3.secretKey,
      provider: 'S3',
      use_path_style: 'true',
      ...overrides,
    };
    return `PROPERTIES (${Object.entries(properties).map(([key, value]) => `"${key}" = "${value}"`).join(', ')})`;
  };
  return {
    s3,
    proxy,
    endpoint: proxy.endpoint,
    bucket: s3.bucket,
    accessKey: s3.accessKey,
    secretKey: s3.secretKey,
    storeOptions,
    bucketKeys: (rootPath, prefix = 'data/') => withDirectStore(rootPath, (store) => store.list(prefix)),
    bucketObject: (rootPath, key) => withDirectStore(rootPath, (store) => store.get(key)),
    vaultProperties,
    async createVault(conn, name, rootPath, vault = {}) {
      await conn.query(`CREATE STORAGE VAULT ${vault.ifNotExists ? 'IF NOT EXISTS ' : ''}${name} ${vaultProperties(rootPath, vault.overrides)}`);
      if (vault.asDefault) await conn.query(`SET ${name} AS DEFAULT STORAGE VAULT`);
    },
    async stop() {
      await proxy.close();
      await s3.stop();
    },
  };
}

/** The fixture of a test file (or `describe`): started in `before`, stopped in `after`. */
export function useS3BehindProxy(options: S3BehindProxyOptions = {}): S3BehindProxy {
  let started: S3BehindProxy | null = null;
  /** Why it could not start: later hooks and tests report this, not "not running". */
  let startError: unknown = null;
  let starting: Promise<S3BehindProxy> | null = null;
  // Started by this before() — or by the first async call made before it ran (a file's own before()
  // may come first under load), so no caller depends on the order node runs hooks in.
  const ready = (): Promise<S3BehindProxy> =>
    (starting ??= startS3BehindProxy(options).then(
      (fixture) => (started = fixture),
      (err: unknown) => {
        startError = err;
        throw err;
      },
    ));
  before(async () => {
    await ready();
  });
  after(async () => {
    const stopping = starting;
    starting = null;
    started = null;
    await (await stopping?.catch(() => null))?.stop();
  });
  const current = (): S3BehindProxy => {
    if (started === null && startError !== null) throw new Error(`useS3BehindProxy: the S3 server did not start: ${startError instanceof Error ? startError.message : String(startError)}`);
    if (started === null) throw new Error('useS3BehindProxy: the S3 server runs from before() to after() only');
    return started;
  };
  return {
    get s3() { return current().s3; },
    get proxy() { return current().proxy; },
    get endpoint() { return current().endpoint; },
    get bucket() { return current().bucket; },
    get accessKey() { return current().accessKey; },
    get secretKey() { return current().secretKey; },
    storeOptions: (rootPath, overrides) => current().storeOptions(rootPath, overrides),
    bucketKeys: async (rootPath, prefix) => (await ready()).bucketKeys(rootPath, prefix),
    bucketObject: async (rootPath, key) => (await ready()).bucketObject(rootPath, key),
    vaultProperties: (rootPath, overrides) => current().vaultProperties(rootPath, overrides),
    createVault: async (conn, name, rootPath, vault) => (await ready()).createVault(conn, name, rootPath, vault),
    stop: () => current().stop(),
  };
}

let shared: Promise<S3BehindProxy> | null = null;

/** The test process's S3 server behind a proxy without faults (the storage matrix's), started on first use. */
export function sharedS3BehindProxy(): Promise<S3BehindProxy> {
  shared ??= (async () => {
    const fixture = await startS3BehindProxy();
    const child = fixture.s3.child;
    child.unref();
    child.stdout?.destroy();
    (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
    process.once('exit', () => child.kill('SIGKILL'));
    fixture.proxy.unref();
    return fixture;
  })();
  return shared;
}
