/**
 * Building one segment's inverted-index file off the event loop: `buildInvertedFileSync` analyzes the
 * column and writes the file atomically (storage/atomic-file.ts: a SIGKILL at any point leaves the whole
 * file or none); `InvertedBuilder` runs it in a worker thread (inverted-build-worker.ts) through the
 * shared IndexBuildWorker.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import type { Vector } from '../../common/column';
import { compactArray } from '../../common/column';
import type { ObjectPut, ObjectStore } from '../../io/object-store';
import { writeFileAtomicSync } from '../atomic-file';
import { buildIndexObject, IndexBuildWorker } from '../index-build-worker';
import type { AnalyzerConfig } from './analyzer';
import { buildInvertedIndex } from './inverted-writer';

export interface InvertedBuildInput {
  /** The indexed column of the segment, one value per segment row. */
  readonly vector: Vector;
  readonly analyzer: AnalyzerConfig;
}

/** What a build reports: the file's size and its statistics. */
export interface InvertedFileInfo {
  readonly size: number;
  readonly termCount: number;
  readonly docCount: number;
}

export function buildInvertedFileSync(target: string, input: InvertedBuildInput): InvertedFileInfo {
  const built = buildInvertedIndex(input.vector, input.analyzer);
  writeFileAtomicSync(target, built.parts, 'inverted index');
  return { size: built.size, termCount: built.footer.termCount, docCount: built.footer.docCount };
}

export interface InvertedBuildRequest {
  readonly target: string;
  readonly input: InvertedBuildInput;
}

/** Structured cloning copies a view's whole buffer: give the worker views that are their own buffers. */
function own<T extends ArrayBufferView>(view: T): T {
  return view.byteLength === view.buffer.byteLength ? view : ((view as unknown as { slice(): T }).slice());
}

/** A vector whose typed arrays hold only its own values (cheap to send to a worker). */
export function compactForTransfer(vec: Vector): Vector {
  const nulls = vec.nulls === null ? null : own(vec.nulls);
  switch (vec.kind) {
    case 'fixed':
      return { ...vec, values: own(vec.values), nulls };
    case 'string':
      return { ...vec, offsets: own(vec.offsets), bytes: own(vec.bytes), nulls };
    case 'dict':
      return { ...vec, codes: own(vec.codes), nulls };
    case 'object':
      return { ...vec, nulls };
    case 'array': {
      const compact = compactArray(vec);
      return { ...compact, offsets: own(compact.offsets), child: compactForTransfer(compact.child), nulls };
    }
    case 'struct':
      return { ...vec, children: vec.children.map(compactForTransfer), nulls };
  }
}

/** Runs inverted-index builds in one worker thread, one at a time. */
export class InvertedBuilder {
  private readonly worker = new IndexBuildWorker<InvertedBuildRequest, InvertedFileInfo>(path.join(__dirname, 'inverted-build-worker.js'), 'inverted index build');

  build(target: string, input: InvertedBuildInput): Promise<InvertedFileInfo> {
    return this.worker.run({ target, input: { ...input, vector: compactForTransfer(input.vector) } });
  }

  /** Build the index object `key` of `store` (segmentIndexKey), in place on a local store, else put with `put` (default `store.put`). */
  buildObject(store: ObjectStore, key: string, input: InvertedBuildInput, tempDir = os.tmpdir(), put?: ObjectPut): Promise<InvertedFileInfo> {
    return buildIndexObject(store, key, (file) => this.build(file, input), tempDir, put);
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
