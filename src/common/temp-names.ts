/**
 * A tag that makes a temporary file name unique across processes and across the worker threads of one
 * process: threads share the process id and the clock, and each has its own module counter, so the tag
 * carries the thread id and random bytes too.
 */
import { randomBytes } from 'node:crypto';
import { threadId } from 'node:worker_threads';

let tempCounter = 0;

/** `pid-thread-counter-random`, safe inside a file name. */
export function uniqueTempTag(): string {
  return `${process.pid}-${threadId}-${++tempCounter}-${randomBytes(4).toString('hex')}`;
}
