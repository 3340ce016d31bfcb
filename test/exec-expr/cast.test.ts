import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DataType, Types } from '../../src/common/types';
import { castVector } from '../../src/exec/expr';
import { col, column, dictColumn, evalText, printVector } from './expr-test-helpers';
import type { RawValue } from '../../src/common/column';

const sqlCast = (from: DataType, values: RawValue[], to: DataType) => printVector(castVector(column(from, values), to, 'sql'));

test('sql mode: values that do not convert become NULL', () => {
  assert.deepEqual(sqlCast(Types.INT, [1, null, 300, -129], Types.TINYINT), ['1', null, null, null]);
  assert.deepEqual(sqlCast(Types.STRING, ['12', 'abc', ' 7 ', null], Types.INT), ['12', null, '7', null]);
  assert.deepEqual(sqlCast(Types.DOUBLE, [2.7, -2.7, 1e20], Types.INT), ['2', '-2', null]);
  assert.deepEqual(sqlCast(Types.DOUBLE, [1e20], Types.BIGINT), [null]);
  assert.deepEqual(sqlCast(Types.BIGINT, [2n ** 40n, 5n], Types.INT), [null, '5']);
  assert.deepEqual(sqlCast(Types.decimal(5, 2), [155, -155, 149], Types.decimal(5, 1)), ['1.6', '-1.6', '1.5']);
  assert.deepEqual(sqlCast(Types.decimal(5, 2), [155, -199], Types.INT), ['1', '-1']);
  assert.deepEqual(sqlCast(Types.DOUBLE, [1.005, 0.125, -0.125], Types.decimal(5, 2)), ['1.01', '0.13', '-0.13']);
  assert.deepEqual(sqlCast(Types.INT, [99, 100], Types.decimal(3, 1)), ['99.0', null]);
  assert.deepEqual(sqlCast(Types.decimal(5, 2), [12345], Types.decimal(30, 10)), ['123.4500000000']);
  assert.deepEqual(sqlCast(Types.decimal(30, 10), [1234500000000n], Types.decimal(5, 2)), ['123.45']);
  assert.deepEqual(sqlCast(Types.decimal(30, 2), [10n ** 25n], Types.decimal(5, 2)), [null]);
  assert.deepEqual(sqlCast(Types.STRING, ['2024-02-29', '2024-02-30', '20240131'], Types.DATE), ['2024-02-29', null, '2024-01-31']);
  assert.deepEqual(sqlCast(Types.STRING, ['2024-01-01 10:00:00.999999'], Types.DATETIME), ['2024-01-01 10:00:00']);
  assert.deepEqual(sqlCast(Types.datetime(6), [1.5e6 + 0.25e6], Types.DATETIME), ['1970-01-01 00:00:01']);
  assert.deepEqual(sqlCast(Types.datetime(6), [1_750_000], Types.datetime(3)), ['1970-01-01 00:00:01.750']);
  assert.deepEqual(sqlCast(Types.DATE, [19753], Types.INT), ['20240131']);
  assert.deepEqual(sqlCast(Types.DATETIME, [19753 * 86400e6 + 86399e6], Types.BIGINT), ['20240131235959']);
  assert.deepEqual(sqlCast(Types.INT, [20240131, 20241399], Types.DATE), ['2024-01-31', null]);
  assert.deepEqual(sqlCast(Types.DATE, [19753], Types.DATETIME), ['2024-01-31 00:00:00']);
  assert.deepEqual(sqlCast(Types.DATETIME, [19753 * 86400e6 + 5e6], Types.DATE), ['2024-01-31']);
  assert.deepEqual(sqlCast(Types.STRING, ['true', 'FALSE', '2', 'x'], Types.BOOLEAN), ['1', '0', '1', null]);
  assert.deepEqual(sqlCast(Types.INT, [5, 0], Types.BOOLEAN), ['1', '0']);
  assert.deepEqual(sqlCast(Types.DOUBLE, [0.1 + 0.2, 1e21, 5], Types.STRING), ['0.30000000000000004', '1e+21', '5']);
  assert.deepEqual(sqlCast(Types.decimal(5, 2), [150], Types.STRING), ['1.50']);
  assert.deepEqual(sqlCast(Types.LARGEINT, [2n ** 100n], Types.DOUBLE), [String(2 ** 100).replace('e+', 'e+')]);
  assert.deepEqual(sqlCast(Types.STRING, ['abcdef', 'hé'], Types.varchar(3)), ['abc', 'hé']);
  assert.deepEqual(sqlCast(Types.INT, [7], Types.LARGEINT), ['7']);
  assert.deepEqual(sqlCast(Types.NULL, [null], Types.INT), [null]);
  // BoundCast through compileExpr.
  const ints = column(Types.STRING, ['1', 'x']);
  assert.deepEqual(evalText({ kind: 'cast', operand: col(0, Types.STRING), type: Types.INT }, [ints]), ['1', null]);
});

test('dictionary strings convert once per entry and stay dictionaries when cast to strings', () => {
  const dict = dictColumn(Types.STRING, ['10', 'oops'], [0, 1, 0]);
  assert.deepEqual(printVector(castVector(dict, Types.INT, 'sql')), ['10', null, '10']);
  const asVarchar = castVector(dict, Types.varchar(2), 'sql');
  assert.equal(asVarchar.kind, 'dict');
  assert.deepEqual(printVector(asVarchar), ['10', 'oo', '10']);
  assert.throws(() => castVector(dict, Types.INT, 'insert', 'k'), { message: "Incorrect integer value: 'oops' for column 'k' at row 2" });
});

test('insert mode: the first bad row throws a Doris error', () => {
  assert.throws(() => castVector(column(Types.INT, [1, null, 300]), Types.TINYINT, 'insert', 'c'), {
    code: 'OUT_OF_RANGE',
    message: "Out of range value for column 'c' at row 3",
  } as object);
  assert.throws(() => castVector(column(Types.STRING, ['12', 'abc']), Types.INT, 'insert', 'c'), {
    code: 'INVALID_VALUE',
    message: "Incorrect integer value: 'abc' for column 'c' at row 2",
  } as object);
  assert.throws(() => castVector(column(Types.STRING, ['1', 'x']), Types.INT, 'insert', 'c', 11), { message: "Incorrect integer value: 'x' for column 'c' at row 12" });
  assert.throws(() => castVector(column(Types.STRING, ['héé', 'abcd']), Types.varchar(3), 'insert', 'name'), {
    code: 'DATA_TOO_LONG',
    message: "Data too long for column 'name' at row 2",
  } as object);
  assert.throws(() => castVector(column(Types.STRING, ['2024-02-30']), Types.DATE, 'insert', 'd'), { message: "Incorrect date value: '2024-02-30' for column 'd' at row 1" });
  assert.throws(() => castVector(column(Types.STRING, ['1.5x']), Types.decimal(5, 2), 'insert', 'p'), { message: "Incorrect decimal value: '1.5x' for column 'p' at row 1" });
  assert.throws(() => castVector(column(Types.STRING, ['12345.6']), Types.decimal(5, 2), 'insert', 'p'), { code: 'OUT_OF_RANGE' } as object);
  assert.throws(() => castVector(column(Types.decimal(10, 2), [1e9]), Types.decimal(5, 2), 'insert', 'p'), { code: 'OUT_OF_RANGE' } as object);
  assert.throws(() => castVector(column(Types.INT, [123456]), Types.varchar(3), 'insert', 's'), { code: 'DATA_TOO_LONG' } as object);
  // Good rows pass through unchanged.
  assert.deepEqual(printVector(castVector(column(Types.STRING, ['1', null, '-5']), Types.SMALLINT, 'insert', 'c')), ['1', null, '-5']);
  assert.deepEqual(printVector(castVector(column(Types.STRING, ['1.555']), Types.decimal(5, 2), 'insert', 'c')), ['1.56']);
});

test('integers to FLOAT / DOUBLE: every width, NULL rows kept NULL, FLOAT rounds as Math.fround', () => {
  for (const from of [Types.TINYINT, Types.SMALLINT, Types.INT]) {
    assert.deepEqual(sqlCast(from, [1, null, -7, 0, 100], Types.DOUBLE), ['1', null, '-7', '0', '100']);
  }
  const wide = [2147483647, -2147483648, 16777217];
  const cast = castVector(column(Types.INT, [...wide, null]), Types.FLOAT, 'sql');
  assert.deepEqual(Array.from((cast as { values: Float32Array }).values.subarray(0, 3)), wide.map(Math.fround));
  assert.equal(cast.nulls?.[3], 1);
  const double = castVector(column(Types.INT, wide), Types.DOUBLE, 'sql');
  assert.deepEqual(Array.from((double as { values: Float64Array }).values), wide);
});
