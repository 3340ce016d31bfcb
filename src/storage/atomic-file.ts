/**
 * Writing an immutable file so that a crash (SIGKILL included) leaves the whole file or none: the bytes
 * go to a temporary name beside the target that object-store listings skip (TEMP_MARKER; swept by the
 * store's temp-file cleanup), are fsynced, renamed over the target, and the directory is fsynced.
 * Synchronous: index builders call it from their worker thread.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GaleneError } from '../common/errors';
import { PRIVATE_FILE_MODE } from '../common/private-files';
import { uniqueTempTag } from '../common/temp-names';
import { TEMP_MARKER } from '../io/local-object-store';


/** A temporary name beside `target` that object-store listings skip (TEMP_MARKER). */
export function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `${path.basename(target)}${TEMP_MARKER}${uniqueTempTag()}`);
}

/** Rename a finished, fsynced `temp` over `target` and fsync the directory. */
export function renameIntoPlaceSync(temp: string, target: string): void {
  fs.chmodSync(temp, PRIVATE_FILE_MODE);
  fs.renameSync(temp, target);
  const dirFd = fs.openSync(path.dirname(target), 'r');
  try {
    fs.fsyncSync(dirFd);
  } finally {
    fs.closeSync(dirFd);
  }
}

/** Write `parts` (front to back) as the file `target`, atomically; `what` names it in IO errors. */
export function writeFileAtomicSync(target: string, parts: readonly Uint8Array[], what: string): void {
  const temp = tempPathFor(target);
  try {
    const fd = fs.openSync(temp, 'w', PRIVATE_FILE_MODE);
    try {
      for (const part of parts) fs.writeSync(fd, part);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    renameIntoPlaceSync(temp, target);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw new GaleneError('IO_ERROR', [`write ${what} ${target}: ${(err as Error).message}`], { cause: err });
  }
}
