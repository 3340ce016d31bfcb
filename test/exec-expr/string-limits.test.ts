import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Types } from '../../src/common/types';
import { STRING_COLUMN_MAX_BYTES, STRING_VALUE_MAX_BYTES } from '../../src/exec/expr/vector-ops';
import { resolveAggregate } from '../../src/exec/expr';
import { call, col, column, dictColumn, evalOne, evalText, num, printVector, str } from './expr-test-helpers';

const overflow = /string column length is too large/;

test('functions that multiply their input check the result size before building it', () => {
  assert.throws(() => evalOne(call('lpad', str('a'), num('1000000000'), str('x'))), overflow);
  assert.throws(() => evalOne(call('rpad', str('a'), num('1000000000'), str('xyz'))), overflow);
  assert.throws(() => evalOne(call('repeat', str('x'), num(String(STRING_VALUE_MAX_BYTES + 1)))), overflow);
  assert.throws(() => evalOne(call('repeat', str('ab'), num(String(STRING_COLUMN_MAX_BYTES)))), overflow);
  assert.throws(() => evalOne(call('space', num('1000000000'))), overflow);
  assert.throws(() => evalOne(call('replace', str('a'.repeat(1000)), str('a'), str('b'.repeat(300000)))), overflow);
});

test('the limit is on the whole batch, not only each value', () => {
  // 60 rows x 10 MB: each value is fine, the batch passes STRING_COLUMN_MAX_BYTES.
  const values = column(Types.STRING, Array.from({ length: 60 }, () => 'x'));
  assert.ok(60 * 10_000_000 > STRING_COLUMN_MAX_BYTES);
  assert.throws(() => evalText(call('repeat', col(0, Types.STRING), num('10000000')), [values]), overflow);
  assert.deepEqual(evalText(call('length', call('repeat', col(0, Types.STRING), num('1000'))), [values]), Array(60).fill('1000'));
});

test('pads below the limit are right, with multi-byte pads and truncation', () => {
  assert.equal(evalOne(call('lpad', str('7'), num('3'), str('0'))), '007');
  assert.equal(evalOne(call('rpad', str('ab'), num('5'), str('xy'))), 'abxyx');
  assert.equal(evalOne(call('lpad', str('é'), num('4'), str('😀ü'))), '😀ü😀é');
  assert.equal(evalOne(call('lpad', str('abc'), num('2'), str('z'))), 'ab');
  assert.equal(evalOne(call('lpad', str('abc'), num('-1'), str('z'))), null);
  assert.equal(evalOne(call('rpad', str('a'), num('3'), str(''))), '');
  assert.equal(evalOne(call('length', call('rpad', str('a'), num('1000000'), str('xy')))), '1000000');
});

test('group_concat checks the size of what it accumulates, across batches', () => {
  const acc = resolveAggregate('group_concat', [Types.STRING], false).create();
  // One 1 MiB dictionary entry referenced by every row: the input costs 1 MiB, the result would be 300 MiB.
  const big = 'x'.repeat(1 << 20);
  const rows = 100;
  const batch = dictColumn(Types.STRING, [big], Array(rows).fill(0));
  acc.resize(1);
  acc.update(new Int32Array(rows), [batch], rows);
  acc.update(new Int32Array(rows), [batch], rows);
  assert.throws(() => acc.update(new Int32Array(rows), [batch], rows), overflow);
  const small = resolveAggregate('group_concat', [Types.STRING], false).create();
  small.resize(1);
  small.update(new Int32Array(3), [dictColumn(Types.STRING, ['ab'], [0, 0, 0])], 3);
  assert.deepEqual(printVector(small.finalize(1)), ['ab, ab, ab']);
});
