import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Types } from '../../src/common/types';
import type { BoundExpr } from '../../src/exec/bound-expr';
import { commonSuperType, compileExpr, evaluateConstant, literalValue, operatorFunctionName, resolveFunction, selectTrue } from '../../src/exec/expr';
import { batchOf, call, col, column, ctx, dictColumn, evalOne, evalText, makeContext, NULL, num, str, typed } from './expr-test-helpers';

test('literal types follow Doris', () => {
  const typeOf = (literalType: 'integer' | 'decimal' | 'float' | 'string', value: string) => literalValue({ literalType, value });
  assert.equal(typeOf('integer', '1').type.name, 'TINYINT');
  assert.equal(typeOf('integer', '300').type.name, 'SMALLINT');
  assert.equal(typeOf('integer', '70000').type.name, 'INT');
  assert.equal(typeOf('integer', '3000000000').type.name, 'BIGINT');
  assert.equal(typeOf('integer', '3000000000').value, 3000000000n);
  assert.equal(typeOf('integer', '99999999999999999999').type.name, 'LARGEINT');
  assert.deepEqual(typeOf('decimal', '1.50').type, Types.decimal(3, 2));
  assert.deepEqual(typeOf('decimal', '0.5').type, Types.decimal(1, 1));
  assert.equal(typeOf('decimal', '1.50').value, 150);
  assert.equal(typeOf('float', '1e3').type.name, 'DOUBLE');
  assert.deepEqual(typeOf('string', 'héllo').type, Types.varchar(5));
});

test('integer arithmetic widens one step', () => {
  assert.equal(resolveFunction('add', [Types.TINYINT, Types.TINYINT]).returnType.name, 'SMALLINT');
  assert.equal(resolveFunction('add', [Types.SMALLINT, Types.TINYINT]).returnType.name, 'INT');
  assert.equal(resolveFunction('multiply', [Types.INT, Types.INT]).returnType.name, 'BIGINT');
  assert.equal(resolveFunction('add', [Types.BIGINT, Types.INT]).returnType.name, 'LARGEINT');
  assert.equal(resolveFunction('divide', [Types.INT, Types.INT]).returnType.name, 'DOUBLE');
  assert.equal(resolveFunction('add', [Types.INT, Types.DOUBLE]).returnType.name, 'DOUBLE');
  assert.equal(resolveFunction('mod', [Types.SMALLINT, Types.INT]).returnType.name, 'INT');
  assert.equal(operatorFunctionName('+'), 'add');
  assert.equal(operatorFunctionName('<=>'), 'eq_null_safe');
  assert.equal(operatorFunctionName('DIV'), 'int_divide');
  // No overflow: INT max * INT max is exact in BIGINT, BIGINT max + 1 exact in LARGEINT.
  const ints = column(Types.INT, [2147483647, -2147483648, 7, null]);
  assert.deepEqual(evalText(call('multiply', col(0, Types.INT), col(0, Types.INT)), [ints]), ['4611686014132420609', '4611686018427387904', '49', null]);
  assert.deepEqual(evalText(call('add', col(0, Types.INT), num('1')), [ints]), ['2147483648', '-2147483647', '8', null]);
  assert.equal(evalOne(call('add', num('9223372036854775807'), num('1'))), '9223372036854775808');
  assert.equal(evalOne(call('subtract', num('100'), num('120'))), '-20');
  assert.equal(evalOne(call('negative', num('5'))), '-5');
});

test('division, modulo and DIV: NULL on zero, doubles for integer division', () => {
  assert.equal(evalOne(call('divide', num('7'), num('2'))), '3.5');
  assert.equal(evalOne(call('divide', num('7'), num('0'))), null);
  assert.equal(evalOne(call('mod', num('7'), num('0'))), null);
  assert.equal(evalOne(call('mod', num('-7'), num('3'))), '-1');
  assert.equal(evalOne(call('int_divide', num('7'), num('2'))), '3');
  assert.equal(evalOne(call('int_divide', num('-7'), num('2'))), '-3');
  assert.equal(evalOne(call('int_divide', num('7'), num('0'))), null);
  const values = column(Types.DOUBLE, [1, 2, null, 4]);
  const divisors = column(Types.INT, [1, 0, 5, 2]);
  assert.deepEqual(evalText(call('divide', col(0, Types.DOUBLE), col(1, Types.INT)), [values, divisors]), ['1', null, null, '2']);
});

test('decimal arithmetic is exact', () => {
  assert.equal(evalOne(call('add', num('0.1'), num('0.2'))), '0.3');
  const sum = resolveFunction('add', [Types.decimal(10, 2), Types.decimal(5, 3)]);
  assert.deepEqual(sum.returnType, Types.decimal(12, 3));
  assert.deepEqual(resolveFunction('multiply', [Types.decimal(10, 2), Types.decimal(5, 3)]).returnType, Types.decimal(15, 5));
  assert.deepEqual(resolveFunction('divide', [Types.decimal(10, 2), Types.decimal(5, 3)]).returnType, Types.decimal(17, 6));
  assert.equal(evalOne(call('multiply', num('1.5'), num('2.25'))), '3.375');
  assert.equal(evalOne(call('divide', num('10.00'), num('3'))), '3.333333');
  assert.equal(evalOne(call('divide', num('2.00'), num('3'))), '0.666667');
  assert.equal(evalOne(call('divide', num('1.00'), num('0'))), null);
  assert.equal(evalOne(call('subtract', num('1.05'), num('2'))), '-0.95');
  assert.equal(evalOne(call('mod', num('7.5'), num('2'))), '1.5');
  // INT with DECIMAL gives a DECIMAL.
  assert.equal(evalOne(call('add', num('1'), num('0.25'))), '1.25');
  // Wide decimals (bigint) stay exact.
  const wide = Types.decimal(30, 10);
  const big = column(wide, [123456789012345678901234567890n, -1n]);
  assert.deepEqual(evalText(call('add', col(0, wide), col(0, wide)), [big]), ['24691357802469135780.2469135780', '-0.0000000002']);
  assert.deepEqual(evalText(call('multiply', col(0, wide), num('2')), [big]), ['24691357802469135780.2469135780', '-0.0000000002']);
  // Decimal with double is DOUBLE.
  assert.equal(evalOne(call('add', num('0.5'), num('1e0'))), '1.5');
});

test('comparisons across types use the common super type', () => {
  assert.deepEqual(commonSuperType([Types.INT, Types.decimal(5, 2)], 'comparison'), Types.decimal(12, 2));
  assert.equal(commonSuperType([Types.INT, Types.DOUBLE], 'comparison').name, 'DOUBLE');
  assert.equal(commonSuperType([Types.DATE, Types.DATETIME], 'comparison').name, 'DATETIME');
  assert.equal(commonSuperType([Types.varchar(3), Types.DATE], 'comparison').name, 'DATE');
  assert.equal(commonSuperType([Types.varchar(3), Types.DATE], 'case').name, 'STRING');
  assert.deepEqual(commonSuperType([Types.varchar(3), Types.varchar(7)], 'union'), Types.varchar(7));
  assert.equal(commonSuperType([Types.NULL, Types.INT], 'coalesce').name, 'INT');
  assert.equal(commonSuperType([Types.DATE, Types.INT], 'comparison').name, 'DATE');

  assert.equal(evalOne(call('lt', num('1'), num('1.5'))), '1');
  assert.equal(evalOne(call('eq', num('2'), num('2.0'))), '1');
  assert.equal(evalOne(call('gt', num('2'), num('1e0'))), '1');
  assert.equal(evalOne(call('eq', num('1'), NULL)), null);
  assert.equal(evalOne(call('eq_null_safe', NULL, NULL)), '1');
  assert.equal(evalOne(call('eq_null_safe', num('1'), NULL)), '0');
  const dates = column(Types.DATE, [19723, 19724, null]); // 2024-01-01, 2024-01-02
  assert.deepEqual(evalText(call('eq', col(0, Types.DATE), str('2024-01-02')), [dates]), ['0', '1', null]);
  const datetimes = column(Types.DATETIME, [19723 * 86400e6 + 3600e6, 19723 * 86400e6]);
  assert.deepEqual(evalText(call('gt', col(0, Types.DATETIME), typed(Types.DATE, 19723)), [datetimes]), ['1', '0']);
});

test('string comparisons are byte-wise UTF-8, dict columns compare via codes', () => {
  const strings = column(Types.STRING, ['apple', 'Banana', 'é', 'z', null, '']);
  const c = col(0, Types.STRING);
  assert.deepEqual(evalText(call('lt', c, str('b')), [strings]), ['1', '1', '0', '0', null, '1']);
  assert.deepEqual(evalText(call('eq', c, str('é')), [strings]), ['0', '0', '1', '0', null, '0']);
  assert.deepEqual(evalText(call('ge', str('b'), c), [strings]), ['1', '1', '0', '0', null, '1']);
  // U+FFFD (3 bytes) sorts before U+1F600 (4 bytes) in UTF-8 order although its UTF-16 unit is larger.
  assert.equal(evalOne(call('lt', str('\uFFFD'), str('😀'))), '1');
  const dict = dictColumn(Types.varchar(10), ['red', 'green', 'blue'], [0, 1, 2, 1, 0, 2, 2], [0, 0, 0, 0, 1, 0, 0]);
  const d = col(0, Types.varchar(10));
  assert.deepEqual(evalText(call('eq', d, str('green')), [dict]), ['0', '1', '0', '1', null, '0', '0']);
  assert.deepEqual(evalText(call('ne', d, str('green')), [dict]), ['1', '0', '1', '0', null, '1', '1']);
  assert.deepEqual(evalText(call('lt', d, str('c')), [dict]), ['0', '0', '1', '0', null, '1', '1']);
  assert.deepEqual(evalText(call('eq', d, str('absent')), [dict]), ['0', '0', '0', '0', null, '0', '0']);
  // upper() over a dictionary keeps it a dictionary.
  const upper = compileExpr(call('upper', d))(batchOf([dict]), ctx);
  assert.equal(upper.kind, 'dict');
});

test('column-vs-constant and column-vs-column numeric comparisons', () => {
  const a = column(Types.INT, [1, 5, 10, null]);
  const b = column(Types.INT, [2, 5, 3, 1]);
  assert.deepEqual(evalText(call('lt', col(0, Types.INT), num('5')), [a, b]), ['1', '0', '0', null]);
  assert.deepEqual(evalText(call('le', num('5'), col(0, Types.INT)), [a, b]), ['0', '1', '1', null]);
  assert.deepEqual(evalText(call('ge', col(0, Types.INT), col(1, Types.INT)), [a, b]), ['0', '1', '1', null]);
  const big = column(Types.BIGINT, [-5n, 2n ** 40n, 2n ** 62n, 0n]);
  assert.deepEqual(evalText(call('gt', col(0, Types.BIGINT), cast64(2n ** 40n)), [big]), ['0', '0', '1', '0']);
  assert.deepEqual(evalText(call('eq', col(0, Types.BIGINT), cast64(2n ** 40n)), [big]), ['0', '1', '0', '0']);
  assert.deepEqual(evalText(call('lt', col(0, Types.BIGINT), cast64(0n)), [big]), ['1', '0', '0', '0']);
});

function cast64(value: bigint): BoundExpr {
  return typed(Types.BIGINT, value);
}

test('three-valued AND / OR / NOT / XOR', () => {
  const t = typed(Types.BOOLEAN, 1);
  const f = typed(Types.BOOLEAN, 0);
  const n = typed(Types.BOOLEAN, null);
  const and = (a: BoundExpr, b: BoundExpr): BoundExpr => ({ kind: 'and', args: [a, b], type: Types.BOOLEAN });
  const or = (a: BoundExpr, b: BoundExpr): BoundExpr => ({ kind: 'or', args: [a, b], type: Types.BOOLEAN });
  const not = (a: BoundExpr): BoundExpr => ({ kind: 'not', args: [a], type: Types.BOOLEAN });
  assert.equal(evalOne(and(t, n)), null);
  assert.equal(evalOne(and(f, n)), '0');
  assert.equal(evalOne(and(t, t)), '1');
  assert.equal(evalOne(or(t, n)), '1');
  assert.equal(evalOne(or(f, n)), null);
  assert.equal(evalOne(or(f, f)), '0');
  assert.equal(evalOne(not(n)), null);
  assert.equal(evalOne(not(f)), '1');
  assert.equal(evalOne(call('xor', t, f)), '1');
  assert.equal(evalOne(call('xor', t, n)), null);
  // Over columns with nulls.
  const a = column(Types.BOOLEAN, [1, 1, 1, 0, 0, 0, null, null, null]);
  const b = column(Types.BOOLEAN, [1, 0, null, 1, 0, null, 1, 0, null]);
  const ca = col(0, Types.BOOLEAN);
  const cb = col(1, Types.BOOLEAN);
  assert.deepEqual(evalText(and(ca, cb), [a, b]), ['1', '0', null, '0', '0', '0', null, '0', null]);
  assert.deepEqual(evalText(or(ca, cb), [a, b]), ['1', '1', '1', '1', '0', null, '1', null, null]);
});

test('IN lists with NULL semantics', () => {
  const inList = (operand: BoundExpr, list: BoundExpr[], negated = false): BoundExpr => ({ kind: 'in', operand, list, negated, type: Types.BOOLEAN });
  assert.equal(evalOne(inList(num('1'), [NULL, num('2')])), null);
  assert.equal(evalOne(inList(num('2'), [NULL, num('2')])), '1');
  assert.equal(evalOne(inList(num('1'), [num('2'), num('3')])), '0');
  assert.equal(evalOne(inList(num('1'), [num('2'), NULL], true)), null);
  assert.equal(evalOne(inList(num('1'), [num('2'), num('3')], true)), '1');
  assert.equal(evalOne(inList(NULL, [num('2')])), null);
  const ints = column(Types.INT, [1, 2, 3, null]);
  const c = col(0, Types.INT);
  const list = [typed(Types.INT, 1), typed(Types.INT, 3)];
  assert.deepEqual(evalText(inList(c, list), [ints]), ['1', '0', '1', null]);
  assert.deepEqual(evalText(inList(c, list, true), [ints]), ['0', '1', '0', null]);
  const dict = dictColumn(Types.STRING, ['a', 'b', 'c'], [0, 1, 2, 0]);
  assert.deepEqual(evalText(inList(col(0, Types.STRING), [str('a'), str('c')]), [dict]), ['1', '0', '1', '1']);
  const plain = column(Types.STRING, ['a', 'b', null]);
  assert.deepEqual(evalText(inList(col(0, Types.STRING), [str('b')]), [plain]), ['0', '1', null]);
  // Non-constant list items.
  const other = column(Types.INT, [5, 2, null, 1]);
  assert.deepEqual(evalText(inList(c, [col(1, Types.INT)]), [ints, other]), ['0', '1', null, null]);
  const bigs = column(Types.BIGINT, [1n, 2n ** 60n]);
  assert.deepEqual(evalText(inList(col(0, Types.BIGINT), [typed(Types.BIGINT, 2n ** 60n)]), [bigs]), ['0', '1']);
});

test('CASE picks the first true branch; constant string branches stay a dictionary', () => {
  const ints = column(Types.INT, [1, 2, 3, null]);
  const c = col(0, Types.INT);
  const expr: BoundExpr = {
    kind: 'case',
    whens: [
      { when: call('eq', c, num('1')), then: str('one') },
      { when: call('lt', c, num('3')), then: str('small') },
    ],
    elseExpr: str('big'),
    type: Types.STRING,
  };
  assert.deepEqual(evalText(expr, [ints]), ['one', 'small', 'big', 'big']);
  assert.equal(compileExpr(expr)(batchOf([ints]), ctx).kind, 'dict');
  const noElse: BoundExpr = { kind: 'case', whens: [{ when: call('gt', c, num('1')), then: c }], elseExpr: null, type: Types.INT };
  assert.deepEqual(evalText(noElse, [ints]), [null, '2', '3', null]);
  const stringNoElse: BoundExpr = { kind: 'case', whens: [{ when: call('gt', c, num('2')), then: str('big') }], elseExpr: null, type: Types.STRING };
  const stringResult = compileExpr(stringNoElse)(batchOf([ints]), ctx);
  assert.equal(stringResult.kind, 'dict');
  assert.deepEqual(evalText(stringNoElse, [ints]), [null, null, 'big', null]);
});

test('IS NULL, parameters and evaluateConstant', () => {
  const ints = column(Types.INT, [1, null]);
  assert.deepEqual(evalText({ kind: 'isnull', operand: col(0, Types.INT), negated: false, type: Types.BOOLEAN }, [ints]), ['0', '1']);
  assert.deepEqual(evalText({ kind: 'isnull', operand: col(0, Types.INT), negated: true, type: Types.BOOLEAN }, [ints]), ['1', '0']);
  const paramCtx = makeContext({ parameters: [{ type: Types.INT, value: 10 }, { type: Types.STRING, value: '2.5' }] });
  const expr = call('add', { kind: 'param', index: 0, type: Types.INT }, { kind: 'param', index: 1, type: Types.DOUBLE });
  assert.equal(evaluateConstant(expr, paramCtx), 12.5);
  const perRow = call('multiply', col(0, Types.INT), { kind: 'param', index: 0, type: Types.INT });
  assert.deepEqual(evalText(perRow, [ints], paramCtx), ['10', null]);
});

test('selectTrue skips false and NULL', () => {
  const vec = column(Types.BOOLEAN, [1, 0, null, 1, 1]);
  const { rowIds, count } = selectTrue(vec);
  assert.deepEqual(Array.from(rowIds.subarray(0, count)), [0, 3, 4]);
  const none = selectTrue(column(Types.BOOLEAN, [0, 0]));
  assert.equal(none.count, 0);
});

test('errors: unknown function, wrong argument count', () => {
  assert.throws(() => resolveFunction('no_such_fn', []), { code: 'UNKNOWN_FUNCTION' } as object);
  assert.throws(() => resolveFunction('substring', [Types.STRING]), { code: 'WRONG_ARG_COUNT' } as object);
  assert.equal(resolveFunction('UCASE', [Types.STRING]).name, 'upper');
});
