/** Entry point of a flush worker thread (flush-pool.ts): sorts, merges and encodes one memtable at a time. */
import type { Vector } from '../../common/column';
import { flushMemtable, type MemtableFlushSpec } from '../../storage/memtable';
import { serveBuildRequests } from '../../storage/index-build-worker';

export interface FlushRequest {
  readonly columns: Vector[];
  readonly length: number;
  readonly spec: MemtableFlushSpec;
}

serveBuildRequests((request: FlushRequest) => flushMemtable(request.columns, request.length, request.spec));
