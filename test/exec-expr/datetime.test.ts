import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Types } from '../../src/common/types';
import { intervalFunctionName, resolveFunction } from '../../src/exec/expr';
import { call, col, column, evalOne, evalText, lit, num, str } from './expr-test-helpers';

const ts = (text: string) => lit('datetime', text);
const date = (text: string) => lit('date', text);

test('field extraction', () => {
  const t = ts('2024-03-15 10:20:30');
  assert.equal(evalOne(call('year', t)), '2024');
  assert.equal(evalOne(call('month', t)), '3');
  assert.equal(evalOne(call('day', t)), '15');
  assert.equal(evalOne(call('dayofmonth', date('2024-02-29'))), '29');
  assert.equal(evalOne(call('hour', t)), '10');
  assert.equal(evalOne(call('minute', t)), '20');
  assert.equal(evalOne(call('second', t)), '30');
  assert.equal(evalOne(call('dayofweek', t)), '6'); // Friday
  assert.equal(evalOne(call('weekday', t)), '4');
  assert.equal(evalOne(call('dayofyear', t)), '75');
  assert.equal(evalOne(call('weekofyear', t)), '11');
  assert.equal(evalOne(call('quarter', t)), '1');
  assert.equal(evalOne(call('year', str('1999-12-31'))), '1999');
  assert.equal(evalOne(call('year', str('not a date'))), null);
  assert.equal(resolveFunction('year', [Types.DATE]).returnType.name, 'SMALLINT');
  // MySQL WEEK() examples.
  assert.equal(evalOne(call('week', date('2008-02-20'))), '7');
  assert.equal(evalOne(call('week', date('2008-02-20'), num('1'))), '8');
  assert.equal(evalOne(call('week', date('2008-12-31'), num('1'))), '53');
  assert.equal(evalOne(call('week', date('2000-01-01'), num('0'))), '0');
  assert.equal(evalOne(call('week', date('2000-01-01'), num('2'))), '52');
  assert.equal(evalOne(call('extract', str('YEAR'), t)), '2024');
  assert.equal(evalOne(call('extract', str('MINUTE'), t)), '20');
  assert.equal(evalOne(call('extract', str('QUARTER'), date('2024-11-02'))), '4');
  assert.equal(evalOne(call('to_date', t)), '2024-03-15');
  assert.equal(evalOne(call('date', t)), '2024-03-15');
  assert.equal(evalOne(call('dayname', t)), 'Friday');
  assert.equal(evalOne(call('monthname', t)), 'March');
  const days = column(Types.DATE, [0, null, -1]);
  assert.deepEqual(evalText(call('year', col(0, Types.DATE)), [days]), ['1970', null, '1969']);
});

test('date_format and str_to_date', () => {
  const t = ts('2024-03-05 14:07:09');
  assert.equal(evalOne(call('date_format', t, str('%Y/%m/%d %H:%i'))), '2024/03/05 14:07');
  assert.equal(
    evalOne(call('date_format', t, str('%W %M %e %D %j %y %c %T %p %h %l %k %a %b %f %s %S %w %% %Q'))),
    'Tuesday March 5 5th 065 24 3 14:07:09 PM 02 2 14 Tue Mar 000000 09 09 2 % Q',
  );
  assert.equal(evalOne(call('date_format', ts('1997-10-04 22:23:00'), str('%H %k %I %r %T %S %w'))), '22 22 10 10:23:00 PM 22:23:00 00 6');
  assert.equal(evalOne(call('date_format', date('1999-01-01'), str('%X %V'))), '1998 52');
  assert.equal(evalOne(call('date_format', ts('2024-01-01 00:00:00.123456'), str('%f'))), '123456');
  assert.equal(evalOne(call('str_to_date', str('2024-03-05 14:07'), str('%Y-%m-%d %H:%i'))), '2024-03-05 14:07:00');
  assert.equal(evalOne(call('str_to_date', str('March 5 2024'), str('%M %e %Y'))), '2024-03-05 00:00:00');
  assert.equal(evalOne(call('str_to_date', str('05/03/24 02:07 PM'), str('%d/%m/%y %h:%i %p'))), '2024-03-05 14:07:00');
  assert.equal(evalOne(call('str_to_date', str('2024-02-30'), str('%Y-%m-%d'))), null);
  assert.equal(evalOne(call('str_to_date', str('bad'), str('%Y'))), null);
  const values = column(Types.DATETIME, [0, null]);
  assert.deepEqual(evalText(call('date_format', col(0, Types.DATETIME), str('%Y-%m-%d')), [values]), ['1970-01-01', null]);
});

test('interval arithmetic', () => {
  assert.equal(intervalFunctionName('DAY', false), 'days_add');
  assert.equal(intervalFunctionName('MONTH', true), 'months_sub');
  assert.equal(evalOne(call('days_add', date('2024-01-31'), num('1'))), '2024-02-01');
  assert.equal(evalOne(call('days_sub', date('2024-03-01'), num('1'))), '2024-02-29');
  assert.equal(evalOne(call('months_add', date('2024-01-31'), num('1'))), '2024-02-29');
  assert.equal(evalOne(call('years_add', date('2024-02-29'), num('1'))), '2025-02-28');
  assert.equal(evalOne(call('quarters_add', date('2024-01-31'), num('1'))), '2024-04-30');
  assert.equal(evalOne(call('weeks_add', date('2024-01-01'), num('2'))), '2024-01-15');
  assert.equal(evalOne(call('hours_add', date('2024-01-01'), num('5'))), '2024-01-01 05:00:00');
  assert.equal(evalOne(call('minutes_sub', ts('2024-01-01 00:00:00'), num('1'))), '2023-12-31 23:59:00');
  assert.equal(evalOne(call('seconds_add', ts('2024-01-01 23:59:59'), num('1'))), '2024-01-02 00:00:00');
  assert.equal(evalOne(call('date_add', date('2024-01-31'), num('2'))), '2024-02-02');
  assert.equal(evalOne(call('adddate', date('2024-01-31'), num('2'))), '2024-02-02');
  assert.equal(evalOne(call('date_sub', ts('2024-01-31 10:00:00'), num('3'), str('HOUR'))), '2024-01-31 07:00:00');
  assert.equal(evalOne(call('date_add', date('2024-01-31'), num('1'), str('MONTH'))), '2024-02-29 00:00:00');
  assert.equal(evalOne(call('years_add', date('9999-01-01'), num('1'))), null);
  assert.equal(evalOne(call('timestampadd', str('MINUTE'), num('90'), ts('2024-01-01 00:00:00'))), '2024-01-01 01:30:00');
  assert.equal(resolveFunction('days_add', [Types.DATE, Types.INT]).returnType.name, 'DATE');
  assert.equal(resolveFunction('hours_add', [Types.DATE, Types.INT]).returnType.name, 'DATETIME');
});

test('differences, truncation, last_day', () => {
  assert.equal(evalOne(call('datediff', date('2024-03-01'), date('2024-02-01'))), '29');
  assert.equal(evalOne(call('datediff', ts('2024-03-01 00:00:01'), ts('2024-02-29 23:59:59'))), '1');
  assert.equal(evalOne(call('timestampdiff', str('MONTH'), date('2024-01-31'), date('2024-03-01'))), '1');
  assert.equal(evalOne(call('timestampdiff', str('DAY'), ts('2024-01-01 12:00:00'), ts('2024-01-03 11:00:00'))), '1');
  assert.equal(evalOne(call('timestampdiff', str('YEAR'), date('2000-02-29'), date('2024-02-28'))), '23');
  assert.equal(evalOne(call('months_diff', date('2024-03-01'), date('2024-01-15'))), '1');
  assert.equal(evalOne(call('hours_diff', ts('2024-01-01 10:00:00'), ts('2024-01-01 07:30:00'))), '2');
  assert.equal(evalOne(call('last_day', date('2024-02-10'))), '2024-02-29');
  assert.equal(evalOne(call('last_day', date('2023-12-01'))), '2023-12-31');
  assert.equal(evalOne(call('date_trunc', ts('2024-03-15 10:20:30'), str('month'))), '2024-03-01 00:00:00');
  assert.equal(evalOne(call('date_trunc', ts('2024-03-15 10:20:30'), str('week'))), '2024-03-11 00:00:00');
  assert.equal(evalOne(call('date_trunc', ts('2024-03-15 10:20:30'), str('quarter'))), '2024-01-01 00:00:00');
  assert.equal(evalOne(call('date_trunc', str('hour'), ts('2024-03-15 10:20:30'))), '2024-03-15 10:00:00');
  assert.equal(evalOne(call('to_days', date('2007-10-07'))), '733321');
  assert.equal(evalOne(call('from_days', num('733321'))), '2007-10-07');
  assert.equal(evalOne(call('makedate', num('2024'), num('60'))), '2024-02-29');
});

test('clock functions', () => {
  const before = Date.now();
  const now = evalOne(call('now'));
  assert.match(now ?? '', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  assert.equal(evalOne(call('eq', call('now'), call('current_timestamp'))), '1');
  assert.equal(evalOne(call('curdate')), now!.slice(0, 10));
  assert.equal(evalOne(call('from_unixtime', call('unix_timestamp', ts('2024-03-05 14:07:09')))), '2024-03-05 14:07:09');
  assert.equal(evalOne(call('from_unixtime', num('86400'), str('%Y'))), '1970');
  const unixNow = Number(evalOne(call('unix_timestamp')));
  assert.ok(Math.abs(unixNow * 1000 - before) < 5000);
});
