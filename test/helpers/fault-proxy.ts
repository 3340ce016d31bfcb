/**
 * A fault-and-latency HTTP proxy for tests and benchmarks, in front of the test S3 server (or a BE's peer
 * endpoint later): every request waits a latency drawn from a lognormal distribution (object-store
 * GETs: p50 ~25 ms, p99 ~150 ms; reference/anchors.md), response bodies flow at a per-stream bandwidth,
 * and a fraction of requests (or the next N, deterministically) meet a fault:
 *   - `slowdown`: 503 with S3's SlowDown error body;   - `internal`: 500 InternalError;
 *   - `reset`: the connection is destroyed before any answer;
 *   - `stall`: no answer at all (the client's timeout must fire);
 *   - `truncate`: the upstream answer is forwarded with its full Content-Length, then cut off mid-body.
 * An outage (`outage(kind)`) gives every request `kind` (a reset by default) until `outage(null)`.
 * `corrupt(path)` flips a byte in the middle of every answer body whose path contains `path`.
 * Requests pass through byte for byte otherwise (the Host header included, so S3 signatures still match).
 * With `credentials` set, the proxy is also the server's access control (s3rver checks none): a request
 * signed with an unknown access key gets S3's 403 InvalidAccessKeyId, a wrong secret (its SigV4
 * signature recomputed with @smithy/signature-v4) 403 SignatureDoesNotMatch, and a write with a
 * read-only key 403 AccessDenied, each in S3's XML.
 */
import { SignatureV4 } from '@smithy/signature-v4';
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mulberry32 } from '../../src/common/prng';

export type FaultKind = 'slowdown' | 'internal' | 'reset' | 'stall' | 'truncate';

export interface FaultSettings {
  /** Per-request latency before the request is forwarded; null: none. */
  readonly latency?: { readonly p50Ms: number; readonly p99Ms: number } | null;
  /** Response body bandwidth per stream; null: unlimited. */
  readonly bytesPerSecond?: number | null;
  /** Fraction of requests (0..1) that meet one of `faults`, chosen uniformly. */
  readonly errorRate?: number;
  readonly faults?: readonly FaultKind[];
  /** Seed of the latency and fault draws. */
  readonly seed?: number;
  /** Access key -> its secret and rights; absent: every request passes (s3rver's own non-check). */
  readonly credentials?: Readonly<Record<string, { readonly secretKey: string; readonly readOnly?: boolean }>>;
}

/** S3's 403 answers of the access check. */
const AUTH_ERRORS = {
  InvalidAccessKeyId: 'The AWS Access Key Id you provided does not exist in our records.',
  SignatureDoesNotMatch: 'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
  AccessDenied: 'Access Denied',
} as const;

/** node:crypto as the signer's SHA-256 (an HMAC when given a secret). */
type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytesOf = (data: SourceData): string | Uint8Array => (typeof data === 'string' ? data : data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength));

class NodeSha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(secret));
  }
  update(data: SourceData): void {
    this.hash.update(bytesOf(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

/** `AWS4-HMAC-SHA256 Credential=AK/date/region/s3/aws4_request, SignedHeaders=a;b, Signature=hex`. */
function parseAuthorization(header: string): { accessKey: string; region: string; signedHeaders: string[]; signature: string } | null {
  const match = /Credential=([^/]+)\/\d{8}\/([^/]+)\/s3\/aws4_request,\s*SignedHeaders=([^,]+),\s*Signature=([0-9a-f]+)/.exec(header);
  return match === null ? null : { accessKey: match[1], region: match[2], signedHeaders: match[3].split(';'), signature: match[4] };
}

/** The SigV4 signature S3 would compute for `req` with `secretKey`. */
async function expectedSignature(req: http.IncomingMessage, auth: { accessKey: string; region: string; signedHeaders: string[] }, secretKey: string): Promise<string | null> {
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (date === null) return null;
  const url = new URL(req.url ?? '/', 'http://proxy');
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of url.searchParams) {
    const prior = query[key];
    query[key] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value];
  }
  const headers: Record<string, string> = {};
  for (const name of auth.signedHeaders) headers[name] = String(req.headers[name] ?? '');
  const signer = new SignatureV4({ service: 's3', region: auth.region, credentials: { accessKeyId: auth.accessKey, secretAccessKey: secretKey }, sha256: NodeSha256, uriEscapePath: false, applyChecksum: false });
  const signed = await signer.sign(
    { method: req.method ?? 'GET', protocol: 'http:', hostname: headers['host']?.split(':')[0] ?? '127.0.0.1', path: url.pathname, query, headers },
    { signingDate: new Date(Date.UTC(+date[1], +date[2] - 1, +date[3], +date[4], +date[5], +date[6])), signableHeaders: new Set(auth.signedHeaders), unsignableHeaders: new Set() },
  );
  const authorization = String(signed.headers['authorization'] ?? signed.headers['Authorization'] ?? '');
  return /Signature=([0-9a-f]+)/.exec(authorization)?.[1] ?? null;
}

/** Which requests an injected fault applies to. */
export interface FaultMatch {
  readonly method?: string;
  /** A substring of the request path. */
  readonly path?: string;
}

/** z of the 99th percentile of the standard normal. */
const Z99 = 2.3263478740408408;

/** Lognormal latency sampler with the given median and 99th percentile, from uniform draws. */
export function lognormalSampler(p50Ms: number, p99Ms: number, random: () => number): () => number {
  const mu = Math.log(p50Ms);
  const sigma = Math.log(p99Ms / p50Ms) / Z99;
  return () => {
    // Box-Muller: one standard normal from two uniforms in (0, 1].
    const u1 = 1 - random();
    const u2 = random();
    const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    return Math.exp(mu + sigma * z);
  };
}

const S3_ERRORS: Readonly<Record<'slowdown' | 'internal', { status: number; code: string; message: string }>> = {
  slowdown: { status: 503, code: 'SlowDown', message: 'Please reduce your request rate.' },
  internal: { status: 500, code: 'InternalError', message: 'We encountered an internal error. Please try again.' },
};

export class FaultProxy {
  /** Requests seen, answer body bytes forwarded from upstream (`bytes`), and faults applied per kind. */
  readonly stats = { requests: 0, bytes: 0, faults: { slowdown: 0, internal: 0, reset: 0, stall: 0, truncate: 0 } as Record<FaultKind, number>, byMethod: {} as Record<string, number> };
  private settings: FaultSettings = {};
  private random: () => number = mulberry32(1);
  private latency: (() => number) | null = null;
  private readonly queued: { kind: FaultKind; match: FaultMatch }[] = [];
  private readonly stalled = new Set<http.ServerResponse>();
  private outageKind: FaultKind | null = null;
  private readonly corruptPaths = new Set<string>();

  private constructor(
    private readonly server: http.Server,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }, settings: FaultSettings = {}): Promise<FaultProxy> {
    const server = http.createServer();
    const proxy = new FaultProxy(server, target);
    proxy.configure(settings);
    server.on('request', (req, res) => proxy.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Replace the settings (latency, bandwidth, random faults). */
  configure(settings: FaultSettings): void {
    this.settings = settings;
    this.random = mulberry32(settings.seed ?? 1);
    this.latency = settings.latency ? lognormalSampler(settings.latency.p50Ms, settings.latency.p99Ms, this.random) : null;
  }

  /** The next `count` requests matching `match` meet `kind`, before any random fault. */
  injectNext(kind: FaultKind, count = 1, match: FaultMatch = {}): void {
    for (let n = 0; n < count; n++) this.queued.push({ kind, match });
  }

  /** Drop the faults queued by injectNext that no request has met yet. */
  clearFaults(): void {
    this.queued.length = 0;
  }

  /** Every request meets `kind` from now on (an outage of the store) until `outage(null)`; stalled requests then end. */
  outage(kind: FaultKind | null = 'reset'): void {
    this.outageKind = kind;
    if (kind === null) {
      for (const res of this.stalled) res.socket?.destroy();
      this.stalled.clear();
    }
  }

  /** Answers to requests whose path contains `path` get one byte flipped mid-body (bit rot); `restore` stops it. */
  corrupt(path: string, restore = false): void {
    if (restore) this.corruptPaths.delete(path);
    else this.corruptPaths.add(path);
  }

  /** The proxy no longer keeps the process alive (a process-wide proxy of the test matrix). */
  unref(): void {
    this.server.unref();
  }

  /** Stop listening; stalled requests are ended by destroying their sockets. */
  async close(): Promise<void> {
    for (const res of this.stalled) res.socket?.destroy();
    this.stalled.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private pickFault(req: http.IncomingMessage): FaultKind | null {
    if (this.outageKind !== null) return this.outageKind;
    const queuedIdx = this.queued.findIndex(({ match }) => (match.method === undefined || match.method === req.method) && (match.path === undefined || (req.url ?? '').includes(match.path)));
    if (queuedIdx >= 0) return this.queued.splice(queuedIdx, 1)[0].kind;
    const faults = this.settings.faults ?? [];
    if (faults.length === 0 || !(this.random() < (this.settings.errorRate ?? 0))) return null;
    return faults[Math.floor(this.random() * faults.length)];
  }

  /** The 403 error code for `req` under `credentials`, or null when it may pass. */
  private async authError(req: http.IncomingMessage): Promise<keyof typeof AUTH_ERRORS | null> {
    const credentials = this.settings.credentials;
    if (credentials === undefined) return null;
    const auth = parseAuthorization(String(req.headers['authorization'] ?? ''));
    const known = auth === null ? undefined : credentials[auth.accessKey];
    if (auth === null || known === undefined) return 'InvalidAccessKeyId';
    if ((await expectedSignature(req, auth, known.secretKey)) !== auth.signature) return 'SignatureDoesNotMatch';
    if (known.readOnly && req.method !== 'GET' && req.method !== 'HEAD') return 'AccessDenied';
    return null;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (this.settings.credentials !== undefined) {
      // The body stays unread (not flowing) until it is piped upstream or drained for the error.
      void this.authError(req).then((code) => {
        if (code === null) {
          this.admit(req, res);
          return;
        }
        this.sendError(req, res, 403, code, AUTH_ERRORS[code]);
      });
      return;
    }
    this.admit(req, res);
  }

  /** An S3 error answer in S3's XML, once the request body has been read. */
  private sendError(req: http.IncomingMessage, res: http.ServerResponse, status: number, code: string, message: string): void {
    req.resume();
    req.on('end', () => {
      const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
      res.writeHead(status, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
  }

  private admit(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.stats.requests++;
    const method = req.method ?? 'GET';
    this.stats.byMethod[method] = (this.stats.byMethod[method] ?? 0) + 1;
    const fault = this.pickFault(req);
    if (fault !== null) this.stats.faults[fault]++;
    const delayMs = this.latency ? this.latency() : 0;
    setTimeout(() => this.answer(req, res, fault), delayMs);
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse, fault: FaultKind | null): void {
    if (fault === 'reset') {
      req.socket.destroy();
      return;
    }
    if (fault === 'stall') {
      this.stalled.add(res);
      res.on('close', () => this.stalled.delete(res));
      req.resume();
      return;
    }
    if (fault === 'slowdown' || fault === 'internal') {
      const error = S3_ERRORS[fault];
      this.sendError(req, res, error.status, error.code, error.message);
      return;
    }
    const upstream = http.request({ host: this.target.host, port: this.target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.on('data', (chunk: Buffer) => (this.stats.bytes += chunk.length));
      if (fault === 'truncate') {
        this.forwardTruncated(answer, res);
        return;
      }
      if ([...this.corruptPaths].some((part) => (req.url ?? '').includes(part))) {
        this.forwardCorrupted(answer, res);
        return;
      }
      this.forwardBody(answer, res);
    });
    upstream.on('error', () => res.socket?.destroy());
    req.pipe(upstream);
  }

  /** The body at `bytesPerSecond` (one stream), or piped as it comes. */
  private forwardBody(answer: http.IncomingMessage, res: http.ServerResponse): void {
    const rate = this.settings.bytesPerSecond ?? null;
    if (rate === null) {
      answer.pipe(res);
      return;
    }
    answer.on('data', (chunk: Buffer) => {
      answer.pause();
      res.write(chunk);
      setTimeout(() => answer.resume(), (chunk.length / rate) * 1000);
    });
    answer.on('end', () => res.end());
  }

  /** The whole body with the byte in its middle inverted. */
  private forwardCorrupted(answer: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    answer.on('data', (chunk: Buffer) => chunks.push(chunk));
    answer.on('end', () => {
      const body = Buffer.concat(chunks);
      if (body.length > 0) body[body.length >> 1] ^= 0xff;
      res.end(body);
    });
  }

  /** Half of the body (at least one byte short of it), then the connection is cut. */
  private forwardTruncated(answer: http.IncomingMessage, res: http.ServerResponse): void {
    const total = Number(answer.headers['content-length'] ?? 0);
    const keep = Math.max(0, Math.min(total - 1, Math.floor(total / 2)));
    let sent = 0;
    answer.on('data', (chunk: Buffer) => {
      if (sent >= keep) return;
      const part = chunk.subarray(0, keep - sent);
      sent += part.length;
      res.write(part);
    });
    answer.on('end', () => setImmediate(() => res.socket?.destroy()));
  }
}
