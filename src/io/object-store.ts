/**
 * The one object-store interface: immutable objects under '/'-separated keys such as
 * `data/<tablet_id>/<rowset_id>_<segment>.dat`. A local directory implements it by default, a remote
 * store (S3, or RemoteLikeObjectStore in tests) in production. Objects are written once and never
 * rewritten; a `put` is atomic (no reader ever sees half an object) and `list` never shows partial writes.
 *
 * io/ imports only common/.
 */

export interface ObjectStore {
  /** 'local' stores can be read in place (see localPath); 'remote' ones go through the block cache. */
  readonly kind: 'local' | 'remote';
  /** Write an object atomically from one buffer or parts written in order. */
  put(key: string, data: Uint8Array | readonly Uint8Array[]): Promise<void>;
  /** The whole object, or `length` bytes from `offset`. Missing key or range past the end: IO_ERROR. */
  get(key: string, range?: { offset: number; length: number }): Promise<Buffer>;
  /** Size of an object, or null when it does not exist. */
  head(key: string): Promise<{ size: number } | null>;
  /** Keys starting with `prefix`, sorted. */
  list(prefix: string): Promise<string[]>;
  /** Remove an object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Filesystem path of the object for local stores (the file cache reads it in place); null otherwise. */
  localPath(key: string): string | null;
  /**
   * Per-key kind, for a store that routes keys to several stores (vault-object-store.ts); other stores
   * omit it. Callers ask `storeKindOf(store, key)`.
   */
  kindOf?(key: string): 'local' | 'remote';
  /** Close cached file descriptors (stores that hold none need not implement it). */
  close?(): void;
}

/**
 * How a writer puts one object: `store.put` itself, or the write pipeline's upload pool
 * (load/write-pipeline/upload-pool.ts), which queues it and resolves when it is written.
 */
export type ObjectPut = (key: string, parts: readonly Uint8Array[]) => Promise<void>;

/** Where `key` lives: a routing store answers per key, any other store by its kind. */
export function storeKindOf(store: ObjectStore, key: string): 'local' | 'remote' {
  return store.kindOf?.(key) ?? store.kind;
}

/** Parts given to `put` as one list. */
export function objectParts(data: Uint8Array | readonly Uint8Array[]): readonly Uint8Array[] {
  return data instanceof Uint8Array ? [data] : data;
}
