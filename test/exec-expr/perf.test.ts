import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BATCH_SIZE, Batch } from '../../src/common/column';
import { Types } from '../../src/common/types';
import { compileExpr, selectTrue } from '../../src/exec/expr';
import { call, col, ctx, typed } from './expr-test-helpers';

/** Timings are logged, not asserted (the machine is shared); results are checked. */
test('kernel timings over 4M float64 rows', () => {
  const totalRows = 4 * 1024 * 1024;
  const batches: Batch[] = [];
  for (let start = 0; start < totalRows; start += BATCH_SIZE) {
    const a = new Float64Array(BATCH_SIZE);
    const b = new Float64Array(BATCH_SIZE);
    for (let rowIdx = 0; rowIdx < BATCH_SIZE; rowIdx++) {
      a[rowIdx] = (start + rowIdx) % 1000;
      b[rowIdx] = 0.5;
    }
    batches.push({
      length: BATCH_SIZE,
      columns: [
        { kind: 'fixed', type: Types.DOUBLE, length: BATCH_SIZE, values: a, nulls: null },
        { kind: 'fixed', type: Types.DOUBLE, length: BATCH_SIZE, values: b, nulls: null },
      ],
    });
  }
  const lessThan = compileExpr(call('lt', col(0, Types.DOUBLE), typed(Types.DOUBLE, 500)));
  const product = compileExpr(call('multiply', col(0, Types.DOUBLE), col(1, Types.DOUBLE)));
  const selection = new Int32Array(BATCH_SIZE);
  const time = (label: string, body: () => number): number => {
    body(); // warm up
    const started = process.hrtime.bigint();
    const result = body();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    console.log(`${label}: ${ms.toFixed(1)} ms over ${totalRows} rows (${((totalRows / ms) * 1e3 / 1e6).toFixed(0)} M rows/s)`);
    return result;
  };
  const selected = time('a < const (+ selectTrue)', () => {
    let count = 0;
    for (const batch of batches) count += selectTrue(lessThan(batch, ctx), selection).count;
    return count;
  });
  assert.equal(selected, countBelow(totalRows));
  const checksum = time('a * b', () => {
    let sum = 0;
    for (const batch of batches) {
      const out = product(batch, ctx);
      sum += (out as { values: Float64Array }).values[7];
    }
    return sum;
  });
  assert.ok(checksum > 0);
});

function countBelow(totalRows: number): number {
  let count = 0;
  for (let rowIdx = 0; rowIdx < totalRows; rowIdx++) if (rowIdx % 1000 < 500) count++;
  return count;
}
