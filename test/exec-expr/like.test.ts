import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Types } from '../../src/common/types';
import { matchLike } from '../../src/exec/expr';
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

test('LIKE escapes follow Doris: the escape character escapes only %, _ and itself', () => {
  assert.equal(like('\\b', '\\b'), '1');
  assert.equal(like('b', '\\b'), '0');
  assert.equal(like('a\\', 'a\\'), '1');
  assert.equal(like('a', 'a\\'), '0');
  assert.equal(like('x\\yz', '%\\y%'), '1');
  assert.equal(evalOne(call('like', str('a!b'), str('a!b'), str('!'))), '1');
  assert.equal(evalOne(call('like', str('a!b'), str('a!!b'), str('!'))), '1');
});

/** Reference LIKE by dynamic programming over characters, with Doris's escape rule. */
function referenceLike(value: string, pattern: string): boolean {
  const elems: { any: boolean; many: boolean; ch: string }[] = [];
  const chars = Array.from(pattern);
  for (let charIdx = 0; charIdx < chars.length; charIdx++) {
    const ch = chars[charIdx];
    const next = chars[charIdx + 1];
    if (ch === '\\' && (next === '%' || next === '_' || next === '\\')) {
      elems.push({ any: false, many: false, ch: next });
      charIdx++;
    } else elems.push({ any: ch === '_', many: ch === '%', ch });
  }
  const text = Array.from(value);
  let row = new Array<boolean>(text.length + 1).fill(false);
  row[0] = true;
  for (const elem of elems) {
    const next = new Array<boolean>(text.length + 1).fill(false);
    if (elem.many) {
      let seen = false;
      for (let pos = 0; pos <= text.length; pos++) next[pos] = seen = seen || row[pos];
    } else for (let pos = 1; pos <= text.length; pos++) next[pos] = row[pos - 1] && (elem.any || text[pos - 1] === elem.ch);
    row = next;
  }
  return row[text.length];
}

test('LIKE agrees with a reference matcher on random patterns (segments, _, %, escapes, UTF-8)', () => {
  let seed = 12345;
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const alphabet = ['a', 'b', 'é', '😀'];
  const patternAlphabet = ['a', 'b', 'é', '😀', '%', '%', '_', '\\', '\\%', '\\_'];
  for (let caseIdx = 0; caseIdx < 3000; caseIdx++) {
    const value = Array.from({ length: rand(8) }, () => alphabet[rand(alphabet.length)]).join('');
    const pattern = Array.from({ length: rand(7) }, () => patternAlphabet[rand(patternAlphabet.length)]).join('');
    assert.equal(like(value, pattern), referenceLike(value, pattern) ? '1' : '0', `'${value}' LIKE '${pattern}'`);
  }
});

test('LIKE with many % over long values does not backtrack', () => {
  const pattern = '%a'.repeat(19) + '%b';
  assert.equal(like('a'.repeat(205), pattern), '0');
  assert.equal(like('a'.repeat(204) + 'b', pattern), '1');
  assert.equal(like('a'.repeat(5000), '%a_%a_%a_%a_%a_%a_%a_%a_%a_%b'), '0');
});

test('REGEXP runs on RE2: catastrophic patterns answer at once', () => {
  assert.equal(evalOne(call('regexp', str('a'.repeat(36)), str('.*.*.*.*.*.*.*.*=x'))), '0');
  assert.equal(evalOne(call('regexp', str('a'.repeat(40) + '!'), str('^(a+)+$'))), '0');
  assert.equal(evalOne(call('regexp', str('a\nb'), str('a.b'))), '1');
  assert.equal(evalOne(call('regexp_replace', str('a$b'), str('[$]'), str('$$'))), 'a$$b');
  assert.throws(() => evalOne(call('regexp_extract', str('a'), str('[a'), num('0'))), /Invalid regex expression: \[a/);
});

test('matchLike: one string, linear time, optional case folding (SHOW ... LIKE)', () => {
  assert.equal(matchLike('a'.repeat(64), '%a'.repeat(19) + '%b'), false);
  assert.equal(matchLike('Orders_2024', 'orders\\_%', { caseInsensitive: true }), true);
  assert.equal(matchLike('Orders_2024', 'orders\\_%'), false);
  assert.equal(matchLike('ordersX2024', 'orders\\_%', { caseInsensitive: true }), false);
});
