/**
 * An S3-compatible object store (AWS S3, MinIO, R2, ...) behind the one ObjectStore interface, through the
 * AWS SDK v3 S3 client (requests signed and retried by the SDK, never by hand).
 *
 *   - Keys live under `<root path>/` of one bucket. `get` with a range is one ranged GET; a body shorter
 *     than asked is an error naming the object, never a short answer.
 *   - `put` of a small object is one PUT (atomic in S3: readers see the old state or the whole object);
 *     a large one is a multipart upload, invisible until CompleteMultipartUpload and aborted on failure,
 *     so a failed put leaves no object and no billed parts behind.
 *   - Retries: the SDK's standard strategy (exponential backoff with full jitter) on 5xx, 503 SlowDown and
 *     other throttling, timeouts and connection resets, up to `maxAttempts` tries per request. Each
 *     request has a socket timeout (`requestTimeoutMs`): a stalled server is a retried timeout, not a hang.
 *   - Counters (requests per kind, bytes, retries, failures) for metrics, profiles and tests.
 * Credentials are held by the client only; error messages carry the operation, key and S3's error code.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import * as http from 'node:http';
import * as https from 'node:https';
import { GaleneError } from '../common/errors';
import { validateKey } from './local-object-store';
import type { ObjectStore } from './object-store';
import { objectParts } from './object-store';

export interface S3StoreOptions {
  /** `http://host:port` or `https://host`; empty for AWS's regional endpoint. */
  readonly endpoint: string;
  readonly region: string;
  readonly bucket: string;
  /** Prefix of every key in the bucket ('' for the bucket's root). */
  readonly rootPath: string;
  readonly accessKey: string;
  readonly secretKey: string;
  /** Path-style URLs (`endpoint/bucket/key`), as MinIO and most self-hosted servers need. */
  readonly usePathStyle: boolean;
  /** Socket inactivity limit of one request before it is abandoned and retried (default 30 s). */
  readonly requestTimeoutMs?: number;
  /** TCP connect limit (default 5 s). */
  readonly connectTimeoutMs?: number;
  /** Tries per request, the first included (default 5). */
  readonly maxAttempts?: number;
  /** Objects at least this large are uploaded in parts (default 16 MiB; S3's minimum part is 5 MiB). */
  readonly multipartThresholdBytes?: number;
  /** Part size of a multipart upload (default 8 MiB). */
  readonly partSizeBytes?: number;
  /** Concurrent sockets to the endpoint (default 64). */
  readonly maxSockets?: number;
}

/** What the store has done, for metrics and tests. */
export interface S3StoreStats {
  requests: number;
  getRequests: number;
  putRequests: number;
  headRequests: number;
  listRequests: number;
  deleteRequests: number;
  /** Bytes of object bodies received by get / sent by put. */
  bytesRead: number;
  bytesWritten: number;
  /** Tries beyond the first, over all requests (the SDK's attempt count). */
  retries: number;
  /** Requests that failed after their last try. */
  failures: number;
}

const MIN_PART_BYTES = 5 * 1024 * 1024;

/** A body of the wrong length: retried like a connection reset, an IO_ERROR naming the object at the end. */
class BodyError extends GaleneError {
  constructor(message: string) {
    super('IO_ERROR', [message]);
  }
}

/** The error of an SDK call, with S3's code and HTTP status where the server answered. */
interface SdkError extends Error {
  readonly Code?: string;
  readonly $metadata?: { readonly httpStatusCode?: number; readonly attempts?: number };
}

export class S3ObjectStore implements ObjectStore {
  readonly kind = 'remote' as const;
  readonly stats: S3StoreStats = { requests: 0, getRequests: 0, putRequests: 0, headRequests: 0, listRequests: 0, deleteRequests: 0, bytesRead: 0, bytesWritten: 0, retries: 0, failures: 0 };
  readonly bucket: string;
  private readonly prefix: string;
  private readonly client: S3Client;
  private readonly multipartThreshold: number;
  private readonly partSize: number;
  private readonly maxAttempts: number;

  constructor(options: S3StoreOptions) {
    this.bucket = options.bucket;
    const root = options.rootPath.replace(/^\/+|\/+$/g, '');
    this.prefix = root === '' ? '' : `${root}/`;
    this.maxAttempts = options.maxAttempts ?? 5;
    this.partSize = Math.max(MIN_PART_BYTES, options.partSizeBytes ?? 8 * 1024 * 1024);
    this.multipartThreshold = Math.max(this.partSize, options.multipartThresholdBytes ?? 16 * 1024 * 1024);
    const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 64 };
    this.client = new S3Client({
      endpoint: options.endpoint === '' ? undefined : options.endpoint,
      region: options.region,
      forcePathStyle: options.usePathStyle,
      credentials: { accessKeyId: options.accessKey, secretAccessKey: options.secretKey },
      maxAttempts: this.maxAttempts,
      retryMode: 'standard',
      // Checksums on every request only when the server asks: S3-compatible servers differ in support.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: new NodeHttpHandler({
        connectionTimeout: options.connectTimeoutMs ?? 5_000,
        requestTimeout: options.requestTimeoutMs ?? 30_000,
        throwOnRequestTimeout: true,
        httpAgent: new http.Agent(agentOptions),
        httpsAgent: new https.Agent(agentOptions),
      }),
    });
  }

  localPath(): null {
    return null;
  }

  private objectKey(key: string): string {
    validateKey(key);
    return this.prefix + key;
  }

  /** Run one SDK request, counting it and its retries; a failure becomes IO_ERROR naming `what`. */
  private async send<T extends { $metadata?: { attempts?: number } }>(what: string, run: () => Promise<T>): Promise<T> {
    this.stats.requests++;
    try {
      const output = await run();
      this.stats.retries += Math.max(0, (output.$metadata?.attempts ?? 1) - 1);
      return output;
    } catch (err) {
      const sdk = err as SdkError;
      this.stats.retries += Math.max(0, (sdk.$metadata?.attempts ?? 1) - 1);
      this.stats.failures++;
      throw new GaleneError('IO_ERROR', [`${what}: ${describeS3Error(sdk)}`], { cause: err });
    }
  }

  async put(key: string, data: Uint8Array | readonly Uint8Array[]): Promise<void> {
    const Key = this.objectKey(key);
    const parts = objectParts(data);
    const size = parts.reduce((sum, part) => sum + part.byteLength, 0);
    if (size < this.multipartThreshold) {
      const Body = parts.length === 1 ? parts[0] : Buffer.concat(parts);
      this.stats.putRequests++;
      await this.send(`put ${key}`, () => this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body, ContentLength: size })));
      this.stats.bytesWritten += size;
      return;
    }
    await this.putMultipart(key, Key, parts);
  }

  private async putMultipart(key: string, Key: string, parts: readonly Uint8Array[]): Promise<void> {
    this.stats.putRequests++;
    const created = await this.send(`put ${key} (create multipart upload)`, () => this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key })));
    const UploadId = created.UploadId!;
    try {
      const done: { ETag: string; PartNumber: number }[] = [];
      let PartNumber = 1;
      for (const Body of partChunks(parts, this.partSize)) {
        const number = PartNumber++;
        this.stats.putRequests++;
        const uploaded = await this.send(`put ${key} (part ${number})`, () => this.client.send(new UploadPartCommand({ Bucket: this.bucket, Key, UploadId, PartNumber: number, Body, ContentLength: Body.byteLength })));
        this.stats.bytesWritten += Body.byteLength;
        done.push({ ETag: uploaded.ETag!, PartNumber: number });
      }
      this.stats.putRequests++;
      await this.send(`put ${key} (complete multipart upload)`, () => this.client.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key, UploadId, MultipartUpload: { Parts: done } })));
    } catch (err) {
      this.stats.deleteRequests++;
      await this.send(`put ${key} (abort multipart upload)`, () => this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key, UploadId }))).catch(() => undefined);
      throw err;
    }
  }

  async get(key: string, range?: { offset: number; length: number }): Promise<Buffer> {
    const Key = this.objectKey(key);
    if (range && (range.offset < 0 || range.length < 0)) throw new GaleneError('IO_ERROR', [`get ${key}: invalid range [${range.offset}, ${range.offset + range.length})`]);
    if (range && range.length === 0) return Buffer.alloc(0);
    // The SDK retries a request until its headers arrive; a body cut off after them is retried here.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.getOnce(key, Key, range);
      } catch (err) {
        if (attempt >= this.maxAttempts || !(err instanceof BodyError || !((err as GaleneError).cause as SdkError | undefined)?.$metadata)) throw err;
        this.stats.retries++;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2_000, 50 * 2 ** attempt)));
      }
    }
  }

  private async getOnce(key: string, Key: string, range: { offset: number; length: number } | undefined): Promise<Buffer> {
    const Range = range ? `bytes=${range.offset}-${range.offset + range.length - 1}` : undefined;
    this.stats.getRequests++;
    const body = await this.send(`get ${key}`, async () => {
      const output = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key, Range }));
      const bytes = output.Body ? await output.Body.transformToByteArray() : new Uint8Array(0);
      return { $metadata: output.$metadata, bytes, contentLength: output.ContentLength };
    });
    const expected = range ? range.length : body.contentLength;
    if (expected !== undefined && body.bytes.byteLength !== expected) {
      this.stats.failures++;
      throw new BodyError(`get ${key}: object body truncated or wrong size: ${body.bytes.byteLength} of ${expected} bytes${range ? ` at offset ${range.offset}` : ''}`);
    }
    this.stats.bytesRead += body.bytes.byteLength;
    return Buffer.from(body.bytes.buffer, body.bytes.byteOffset, body.bytes.byteLength);
  }

  async head(key: string): Promise<{ size: number } | null> {
    const Key = this.objectKey(key);
    this.stats.headRequests++;
    const output = await this.send(`head ${key}`, async () => {
      try {
        const found = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key }));
        return { $metadata: found.$metadata, size: found.ContentLength ?? 0 };
      } catch (err) {
        // A missing object is an answer, not a failure.
        if ((err as SdkError).$metadata?.httpStatusCode === 404) return { $metadata: (err as SdkError).$metadata, size: null };
        throw err;
      }
    });
    return output.size === null ? null : { size: output.size };
  }

  async list(prefix: string): Promise<string[]> {
    const out: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      this.stats.listRequests++;
      const page = await this.send(`list ${prefix}`, () => this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix + prefix, ContinuationToken })));
      for (const object of page.Contents ?? []) if (object.Key !== undefined) out.push(object.Key.slice(this.prefix.length));
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken !== undefined);
    return out.sort();
  }

  async delete(key: string): Promise<void> {
    const Key = this.objectKey(key);
    this.stats.deleteRequests++;
    await this.send(`delete ${key}`, () => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key })));
  }

  close(): void {
    this.client.destroy();
  }
}

/** S3's error in its own words: code, HTTP status and message ("SlowDown (HTTP 503): Please reduce ..."). */
export function describeS3Error(err: SdkError): string {
  const status = err.$metadata?.httpStatusCode;
  const code = err.Code ?? err.name;
  const message = err.message && err.message !== code ? `: ${err.message}` : '';
  return `${code}${status !== undefined ? ` (HTTP ${status})` : ''}${message}`;
}

/** The object's bytes cut into `partSize` chunks (the last may be shorter), copying only across part boundaries. */
function* partChunks(parts: readonly Uint8Array[], partSize: number): Generator<Uint8Array> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  for (const part of parts) {
    let offset = 0;
    while (offset < part.byteLength) {
      const take = Math.min(partSize - pendingBytes, part.byteLength - offset);
      pending.push(part.subarray(offset, offset + take));
      pendingBytes += take;
      offset += take;
      if (pendingBytes === partSize) {
        yield pending.length === 1 ? pending[0] : Buffer.concat(pending);
        pending = [];
        pendingBytes = 0;
      }
    }
  }
  if (pendingBytes > 0) yield pending.length === 1 ? pending[0] : Buffer.concat(pending);
}
