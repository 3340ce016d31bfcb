import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Types } from '../../src/common/types';
import { call, col, column, dictColumn, evalOne, evalText, NULL, num, str } from './expr-test-helpers';

const like = (value: string, pattern: string) => evalOne(call('like', str(value), str(pattern)));

test('LIKE patterns: prefix, suffix, contains, exact, wildcards', () => {
  assert.equal(like('doris', 'do%'), '1');
  assert.equal(like('doris', '%is'), '1');
  assert.equal(like('doris', '%ri%'), '1');
  assert.equal(like('doris', '%xy%'), '0');
  assert.equal(like('doris', 'doris'), '1');
  assert.equal(like('Doris', 'doris'), '0');
  assert.equal(like('doris', 'd_ris'), '1');
  assert.equal(like('doris', 'd_is'), '0');
  assert.equal(like('doris', 'd%s'), '1');
  assert.equal(like('', '%'), '1');
  assert.equal(like('', ''), '1');
  assert.equal(like('a', ''), '0');
  assert.equal(like('do', 'do%'), '1');
  assert.equal(like('d', 'do%'), '0');
  assert.equal(like('héllo', 'h_llo'), '1');
  assert.equal(like('😀', '_'), '1');
  assert.equal(like('a\nb', 'a%b'), '1');
  assert.equal(like('a.b', 'a.b'), '1');
  assert.equal(like('axb', 'a.b'), '0');
  assert.equal(like('a(b', 'a(%'), '1');
  assert.equal(like('x[1]', '%[1]'), '1');
});

test('LIKE escapes', () => {
  assert.equal(like('100%', '100\\%'), '1');
  assert.equal(like('100x', '100\\%'), '0');
  assert.equal(like('a_b', 'a\\_b'), '1');
  assert.equal(like('axb', 'a\\_b'), '0');
  assert.equal(like('a\\b', 'a\\\\b'), '1');
  assert.equal(like('50% off', '%\\%%'), '1');
  assert.equal(evalOne(call('like', str('a%b'), str('a!%b'), str('!'))), '1');
  assert.equal(evalOne(call('like', str('axb'), str('a!%b'), str('!'))), '0');
});

test('LIKE over columns, NULLs, non-constant patterns and dictionaries', () => {
  const values = column(Types.STRING, ['apple', 'banana', null, 'avocado']);
  assert.deepEqual(evalText(call('like', col(0, Types.STRING), str('a%')), [values]), ['1', '0', null, '1']);
  assert.deepEqual(evalText(call('not_like', col(0, Types.STRING), str('a%')), [values]), ['0', '1', null, '0']);
  assert.equal(evalOne(call('like', NULL, str('a%'))), null);
  assert.equal(evalOne(call('like', str('a'), NULL)), null);
  const patterns = column(Types.STRING, ['%e', 'b_n%', 'x', '%c%']);
  assert.deepEqual(evalText(call('like', col(0, Types.STRING), col(1, Types.STRING)), [values, patterns]), ['1', '1', null, '1']);
  const dict = dictColumn(Types.STRING, ['alpha', 'beta'], [0, 1, 1, 0]);
  assert.deepEqual(evalText(call('like', col(0, Types.STRING), str('%ta')), [dict]), ['0', '1', '1', '0']);
});

test('REGEXP and regexp functions', () => {
  assert.equal(evalOne(call('regexp', str('doris'), str('^d.r'))), '1');
  assert.equal(evalOne(call('rlike', str('doris'), str('^x'))), '0');
  assert.equal(evalOne(call('not_regexp', str('doris'), str('^x'))), '1');
  assert.equal(evalOne(call('regexp', str('abc123'), str('[[:digit:]]+$'))), '1');
  assert.equal(evalOne(call('regexp_extract', str('AbCdE'), str('([[:lower:]]+)C([[:lower:]]+)'), num('1'))), 'b');
  assert.equal(evalOne(call('regexp_replace', str('a1b22'), str('[0-9]+'), str('#'))), 'a#b#');
  assert.equal(evalOne(call('regexp_replace', str('john smith'), str('(\\w+) (\\w+)'), str('\\2 \\1'))), 'smith john');
  assert.throws(() => evalOne(call('regexp', str('a'), str('('))), /Invalid regex/);
});
