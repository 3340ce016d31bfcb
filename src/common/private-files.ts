/**
 * File modes for what Galene writes that holds data or secrets (the metadata store, the audit log, load
 * error logs, segment objects): readable by the owning user only. Directories Galene creates for them are
 * 0700. An existing directory the operator made (e.g. data_dir) keeps its mode.
 */
import * as fs from 'node:fs';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** `mkdir -p` whose created directories are 0700 (the umask can only narrow it). */
export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Asynchronous `makePrivateDir`. */
export async function makePrivateDirAsync(dir: string): Promise<void> {
  await fs.promises.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}
