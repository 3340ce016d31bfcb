/**
 * Which bucket (tablet) a row belongs to: the hash lives in common/bucket-hash.ts, so that bucket pruning
 * (storage/bucket-pruning.ts, read by the scan and by EXPLAIN) computes exactly the loads' buckets.
 */
export { computeBuckets } from '../common/bucket-hash';
