/**
 * Session variables read at planning (src/exec/plan/planning-variables.ts): optimize_index_scan_parallelism
 * in every boolean spelling, off when unset, and an unknown variable (a context without it) reads as off.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RawValue } from '../../src/common/column';
import { GaleneError } from '../../src/common/errors';
import { Types } from '../../src/common/types';
import type { PlanningContext } from '../../src/exec/context';
import { booleanVariable, indexScanPerSegment } from '../../src/exec/plan/planning-variables';

function contextWith(values: Record<string, RawValue>): PlanningContext {
  return {
    getSystemVariable(name: string) {
      if (!(name in values)) throw new GaleneError('UNKNOWN_SYSTEM_VARIABLE', [name]);
      return { type: Types.BIGINT, value: values[name] };
    },
  } as unknown as PlanningContext;
}

test('optimize_index_scan_parallelism as the planner reads it', () => {
  for (const on of [1, 1n, '1', 'ON', 'true']) assert.equal(indexScanPerSegment(contextWith({ optimize_index_scan_parallelism: on })), true, String(on));
  for (const off of [0, 0n, '0', 'off', 'FALSE', null]) assert.equal(indexScanPerSegment(contextWith({ optimize_index_scan_parallelism: off })), false, String(off));
  assert.equal(indexScanPerSegment(contextWith({})), false, 'not declared: off');
  assert.equal(booleanVariable(contextWith({ other: 1 }), 'other'), true);
});
