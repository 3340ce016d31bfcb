/**
 * Opening one segment's ANN index file and asking the HNSW library for nearest neighbours.
 *
 * usearch memory-maps a file (`view`): nothing is read up front beyond the 64-byte trailer, pages come in
 * as the graph is walked, and every worker thread that views the same file shares the page cache. A file
 * on a local store is viewed in place; bytes from elsewhere (a remote store through the FileCache) are
 * first written to a private temporary file, which `close` removes.
 *
 * usearch fixes the search expansion (ef) when an index object is created, so the reader keeps a few
 * views of the same file, one per ef asked for (MAX_EF_VIEWS, least recently used dropped); a view costs
 * a few tens of microseconds to open. usearch itself searches with max(ef, k).
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Index } from 'usearch';
import { GaleneError } from '../../common/errors';
import { PRIVATE_FILE_MODE } from '../../common/private-files';
import { uniqueTempTag } from '../../common/temp-names';
import type { ProfileSink } from '../../common/profile';
import type { FileOpener } from '../../io/file-cache';
import type { AnnFileHeader } from './ann-file';
import { ANN_TRAILER_BYTES, decodeAnnTrailer, readAnnFileHeader, verifyAnnPayload } from './ann-file';
import { newUsearchIndex } from './ann-builder';
import type { AnnIndexParams } from './ann-params';
import { DEFAULT_EF_SEARCH } from './ann-params';

export const MAX_EF_VIEWS = 4;

/** Rows and smaller-is-better keys (squared L2, or -dot) of one index search, nearest first. */
export interface IndexHits {
  readonly rows: Int32Array;
  readonly keys: Float64Array;
}


export class AnnIndexReader {
  private readonly views = new Map<number, Index>();
  private closed = false;

  private constructor(
    readonly file: string,
    readonly header: AnnFileHeader,
    private readonly ownsFile: boolean,
  ) {}

  get params(): AnnIndexParams {
    return this.header.params;
  }

  /** Open an index file on local disk, viewed in place. `verify` also checks the payload checksum (reads it all). */
  static async openFile(file: string, options: { verify?: boolean } = {}): Promise<AnnIndexReader> {
    const header = await readAnnFileHeader(file);
    if (options.verify) verifyAnnPayload(await fsp.readFile(file), header, file);
    const reader = new AnnIndexReader(file, header, false);
    reader.view(DEFAULT_EF_SEARCH);
    return reader;
  }

  /** Open an index held in memory (checksums verified), via a private temporary file in `tempDir`. */
  static async fromBytes(bytes: Uint8Array, options: { what?: string; tempDir?: string } = {}): Promise<AnnIndexReader> {
    const what = options.what ?? 'bytes';
    if (bytes.length < ANN_TRAILER_BYTES) throw new GaleneError('CORRUPTION', [`ann index ${what}: file shorter than its trailer`]);
    const header = decodeAnnTrailer(bytes.subarray(bytes.length - ANN_TRAILER_BYTES), bytes.length, what);
    verifyAnnPayload(bytes, header, what);
    // 'wx': never overwrite a file another scan thread is viewing.
    const file = path.join(options.tempDir ?? os.tmpdir(), `galene-ann-${uniqueTempTag()}.idx`);
    await fsp.writeFile(file, bytes, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    const reader = new AnnIndexReader(file, header, true);
    try {
      reader.view(DEFAULT_EF_SEARCH);
    } catch (err) {
      reader.close();
      throw err;
    }
    return reader;
  }

  /**
   * Open the index object `key` through the FileCache (its reads counted in `profile`); with `localPath`
   * (a local store's file) the file is viewed in place after one read of its trailer.
   */
  static async open(opener: FileOpener, key: string, profile: ProfileSink, options: { localPath?: string | null; knownSize?: number; tempDir?: string } = {}): Promise<AnnIndexReader> {
    const file = await opener.open(key, profile, options.knownSize);
    const trailer = await file.read(file.size - ANN_TRAILER_BYTES, ANN_TRAILER_BYTES, profile, 'index');
    decodeAnnTrailer(trailer, file.size, key);
    if (options.localPath) return AnnIndexReader.openFile(options.localPath);
    return AnnIndexReader.fromBytes(await file.read(0, file.size, profile, 'index'), { what: key, tempDir: options.tempDir });
  }

  private view(ef: number): Index {
    if (this.closed) throw new GaleneError('INTERNAL', [`ann index ${this.file} used after close`]);
    const cached = this.views.get(ef);
    if (cached) {
      this.views.delete(ef);
      this.views.set(ef, cached);
      return cached;
    }
    const index = newUsearchIndex(this.params, ef);
    if (this.header.vectorCount > 0) {
      try {
        index.view(this.file);
      } catch (err) {
        throw new GaleneError('CORRUPTION', [`ann index ${this.file}: ${(err as Error).message}`], { cause: err });
      }
    }
    this.views.set(ef, index);
    if (this.views.size > MAX_EF_VIEWS) this.views.delete(this.views.keys().next().value!);
    return index;
  }

  /** The library's `k` nearest rows at expansion `ef`, nearest first (fewer when the index holds fewer). */
  searchIndex(query: Float32Array, k: number, ef: number): IndexHits {
    if (query.length !== this.params.dim) throw new GaleneError('TYPE_MISMATCH', [`query vector has ${query.length} dimensions, the ann index expects ${this.params.dim}`]);
    const wanted = Math.min(k, this.header.vectorCount);
    if (wanted <= 0) return { rows: new Int32Array(0), keys: new Float64Array(0) };
    const matches = this.view(Math.max(1, Math.round(ef))).search(query, wanted, 1);
    const count = matches.keys.length;
    const rows = new Int32Array(count);
    const keys = new Float64Array(count);
    const ip = this.params.metric === 'inner_product';
    for (let idx = 0; idx < count; idx++) {
      rows[idx] = Number(matches.keys[idx]);
      // usearch's ip distance is 1 - dot; our key is -dot.
      keys[idx] = ip ? matches.distances[idx] - 1 : matches.distances[idx];
    }
    return { rows, keys };
  }

  /** Drop the views; a temporary copy made by fromBytes/open is removed. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.views.clear();
    if (this.ownsFile) fs.rmSync(this.file, { force: true });
  }
}
