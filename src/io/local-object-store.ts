/**
 * The default object store: a local directory, one file per object at `<root>/<key>`.
 *
 * `put` is atomic and durable: parts go to a temporary file in the target directory, which is fsynced,
 * renamed over the key and the directory fsynced, so a crash leaves either the whole object or nothing
 * visible (a leftover temporary file is never listed and is removed by `removeTempFiles`). Reads use
 * cached descriptors (FdCache). Keys are validated: no empty, '.' or '..' segments, no backslashes.
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { GaleneError } from '../common/errors';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../common/private-files';
import { uniqueTempTag } from '../common/temp-names';
import { FdCache } from './fd-cache';
import type { ObjectStore } from './object-store';
import { objectParts } from './object-store';

/** Marker in temporary file names; keys may not contain it and `list` skips files that do. */
export const TEMP_MARKER = '.galene-tmp-';

export function validateKey(key: string): void {
  const bad = (why: string): never => {
    throw new GaleneError('IO_ERROR', [`invalid object key '${key}': ${why}`]);
  };
  if (key.length === 0) bad('empty');
  if (key.includes('\\') || key.includes('\0')) bad('backslash or NUL');
  if (key.startsWith('/')) bad('absolute');
  if (key.includes(TEMP_MARKER)) bad('reserved temporary-file marker');
  for (const segment of key.split('/')) if (segment === '' || segment === '.' || segment === '..') bad('empty, . or .. segment');
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class LocalObjectStore implements ObjectStore {
  readonly kind = 'local' as const;
  readonly root: string;
  private readonly fds: FdCache;

  constructor(root: string, options: { maxOpenFiles?: number } = {}) {
    this.root = path.resolve(root);
    this.fds = new FdCache(options.maxOpenFiles ?? 256);
    fs.mkdirSync(this.root, { recursive: true, mode: PRIVATE_DIR_MODE });
  }

  localPath(key: string): string {
    validateKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, data: Uint8Array | readonly Uint8Array[]): Promise<void> {
    const target = this.localPath(key);
    const dir = path.dirname(target);
    const temp = path.join(dir, `${path.basename(target)}${TEMP_MARKER}${uniqueTempTag()}`);
    try {
      // Objects hold table data: owner-only (src/common/private-files.ts).
      await fsp.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
      const handle = await fsp.open(temp, 'w', PRIVATE_FILE_MODE);
      try {
        const parts = objectParts(data);
        for (let partIdx = 0; partIdx < parts.length; partIdx += 64) await handle.writev(parts.slice(partIdx, partIdx + 64) as Uint8Array[]);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fsp.rename(temp, target);
      this.fds.invalidate(target);
      await fsyncDir(dir);
    } catch (err) {
      await fsp.rm(temp, { force: true }).catch(() => undefined);
      throw new GaleneError('IO_ERROR', [`put ${key}: ${(err as Error).message}`], { cause: err });
    }
  }

  async get(key: string, range?: { offset: number; length: number }): Promise<Buffer> {
    const file = this.localPath(key);
    try {
      return await this.fds.with(file, async (handle, size) => {
        const offset = range ? range.offset : 0;
        const length = range ? range.length : size;
        if (offset < 0 || length < 0 || offset + length > size) {
          throw new GaleneError('IO_ERROR', [`get ${key}: range [${offset}, ${offset + length}) outside object of ${size} bytes`]);
        }
        const out = Buffer.allocUnsafeSlow(length);
        let done = 0;
        while (done < length) {
          const { bytesRead } = await handle.read(out, done, length - done, offset + done);
          if (bytesRead === 0) throw new GaleneError('IO_ERROR', [`get ${key}: object shorter than expected`]);
          done += bytesRead;
        }
        return out;
      });
    } catch (err) {
      if (err instanceof GaleneError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new GaleneError('IO_ERROR', [`object not found: ${key}`], { cause: err });
      throw new GaleneError('IO_ERROR', [`get ${key}: ${(err as Error).message}`], { cause: err });
    }
  }

  async head(key: string): Promise<{ size: number } | null> {
    try {
      const stat = await fsp.stat(this.localPath(key));
      return stat.isFile() ? { size: stat.size } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new GaleneError('IO_ERROR', [`head ${key}: ${(err as Error).message}`], { cause: err });
    }
  }

  async list(prefix: string): Promise<string[]> {
    const slash = prefix.lastIndexOf('/');
    const dirKey = slash >= 0 ? prefix.slice(0, slash) : '';
    const out: string[] = [];
    const walk = async (dir: string, keyPrefix: string): Promise<void> => {
      let entries: fs.Dirent[];
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return;
        throw new GaleneError('IO_ERROR', [`list ${prefix}: ${(err as Error).message}`], { cause: err });
      }
      for (const entry of entries) {
        const key = keyPrefix + entry.name;
        if (entry.isDirectory()) {
          if (key.startsWith(prefix) || prefix.startsWith(key + '/')) await walk(path.join(dir, entry.name), key + '/');
        } else if (entry.isFile() && !entry.name.includes(TEMP_MARKER) && key.startsWith(prefix)) {
          out.push(key);
        }
      }
    };
    await walk(dirKey ? path.join(this.root, ...dirKey.split('/')) : this.root, dirKey ? dirKey + '/' : '');
    return out.sort();
  }

  async delete(key: string): Promise<void> {
    const file = this.localPath(key);
    this.fds.invalidate(file);
    try {
      await fsp.unlink(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw new GaleneError('IO_ERROR', [`delete ${key}: ${(err as Error).message}`], { cause: err });
    }
  }

  /** Remove temporary files left by a crash mid-put (call at startup). Returns how many were removed. */
  async removeTempFiles(): Promise<number> {
    let removed = 0;
    const walk = async (dir: string): Promise<void> => {
      const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => [] as fs.Dirent[]);
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.name.includes(TEMP_MARKER)) {
          await fsp.rm(full, { force: true });
          removed++;
        }
      }
    };
    await walk(this.root);
    return removed;
  }

  /** Close cached descriptors. */
  close(): void {
    this.fds.closeAll();
  }
}
