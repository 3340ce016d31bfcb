/**
 * Test helpers for the parser: compare an AST against an expected fragment (only the keys the
 * fragment names are checked, recursively; arrays must match in length), and drop spans for printing.
 */
import assert from 'node:assert/strict';

/** Asserts that `actual` contains everything in `expected` (objects partially, arrays fully, scalars exactly). */
export function assertFragment(actual: unknown, expected: unknown, path = '$'): void {
  if (expected === null || typeof expected !== 'object') {
    assert.deepEqual(actual, expected, `at ${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(withoutSpans(actual))}`);
    return;
  }
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `at ${path}: expected an array, got ${JSON.stringify(withoutSpans(actual))}`);
    assert.equal(actual.length, expected.length, `at ${path}: expected ${expected.length} elements, got ${JSON.stringify(withoutSpans(actual))}`);
    for (let elemIdx = 0; elemIdx < expected.length; elemIdx++) assertFragment(actual[elemIdx], expected[elemIdx], `${path}[${elemIdx}]`);
    return;
  }
  assert.ok(actual !== null && typeof actual === 'object', `at ${path}: expected an object, got ${JSON.stringify(actual)}`);
  for (const [key, value] of Object.entries(expected)) {
    assertFragment((actual as Record<string, unknown>)[key], value, `${path}.${key}`);
  }
}

/** A deep copy without `pos`/`end` keys (for readable failure messages). */
export function withoutSpans(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null, (key, inner) => (key === 'pos' || key === 'end' ? undefined : inner)));
}

/** Shorthands for expected fragments. */
export const col = (name: string, ...qualifier: string[]) => ({ kind: 'column', name, qualifier });
export const int = (value: string) => ({ kind: 'literal', literalType: 'integer', value });
export const str = (value: string) => ({ kind: 'literal', literalType: 'string', value });
export const bin = (op: string, left: unknown, right: unknown) => ({ kind: 'binary', op, left, right });
export const call = (name: string, ...args: unknown[]) => ({ kind: 'call', name, args });
