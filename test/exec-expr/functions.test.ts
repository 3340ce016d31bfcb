import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Types } from '../../src/common/types';
import { listFunctions, resolveFunction } from '../../src/exec/expr';
import { call, col, column, ctx, dictColumn, evalOne, evalText, makeContext, NULL, num, str } from './expr-test-helpers';

test('string functions', () => {
  assert.equal(evalOne(call('concat', str('a'), str('b'), str('c'))), 'abc');
  assert.equal(evalOne(call('concat', str('a'), NULL)), null);
  assert.equal(evalOne(call('concat', str('n='), num('5'))), 'n=5');
  assert.equal(evalOne(call('concat_ws', str('-'), str('a'), NULL, str('b'))), 'a-b');
  assert.equal(evalOne(call('concat_ws', NULL, str('a'))), null);
  assert.equal(evalOne(call('substring', str('doris'), num('2'), num('3'))), 'ori');
  assert.equal(evalOne(call('substr', str('doris'), num('-3'))), 'ris');
  assert.equal(evalOne(call('substring', str('doris'), num('0'))), '');
  assert.equal(evalOne(call('substring', str('doris'), num('9'))), '');
  assert.equal(evalOne(call('substring', str('héllo wörld'), num('2'), num('4'))), 'éllo');
  assert.equal(evalOne(call('substring', str('😀ab'), num('2'))), 'ab');
  assert.equal(evalOne(call('left', str('héllo'), num('2'))), 'hé');
  assert.equal(evalOne(call('right', str('héllo'), num('3'))), 'llo');
  assert.equal(evalOne(call('length', str('héllo'))), '6');
  assert.equal(evalOne(call('char_length', str('héllo'))), '5');
  assert.equal(evalOne(call('character_length', str('😀'))), '1');
  assert.equal(evalOne(call('upper', str('Doris ß é'))), 'DORIS SS É');
  assert.equal(evalOne(call('lcase', str('ABC'))), 'abc');
  assert.equal(evalOne(call('trim', str('  ab  '))), 'ab');
  assert.equal(evalOne(call('ltrim', str('  ab  '))), 'ab  ');
  assert.equal(evalOne(call('rtrim', str('  ab  '))), '  ab');
  assert.equal(evalOne(call('trim', str('xxabxx'), str('x'))), 'ab');
  assert.equal(evalOne(call('replace', str('a-b-c'), str('-'), str('+'))), 'a+b+c');
  assert.equal(evalOne(call('reverse', str('abç😀'))), '😀çba');
  assert.equal(evalOne(call('lpad', str('7'), num('3'), str('0'))), '007');
  assert.equal(evalOne(call('rpad', str('ab'), num('5'), str('xy'))), 'abxyx');
  assert.equal(evalOne(call('lpad', str('hello'), num('2'), str('0'))), 'he');
  assert.equal(evalOne(call('instr', str('doris'), str('ri'))), '3');
  assert.equal(evalOne(call('instr', str('doris'), str('zz'))), '0');
  assert.equal(evalOne(call('locate', str('o'), str('foo bar boo'), num('4'))), '10');
  assert.equal(evalOne(call('locate', str('l'), str('héllo'))), '3');
  assert.equal(evalOne(call('repeat', str('ab'), num('3'))), 'ababab');
  assert.equal(evalOne(call('repeat', str('ab'), num('-1'))), '');
  assert.equal(evalOne(call('split_part', str('a,b,c'), str(','), num('2'))), 'b');
  assert.equal(evalOne(call('split_part', str('a,b,c'), str(','), num('-1'))), 'c');
  assert.equal(evalOne(call('split_part', str('a,b,c'), str(','), num('5'))), null);
  assert.equal(evalOne(call('starts_with', str('doris'), str('do'))), '1');
  assert.equal(evalOne(call('ends_with', str('doris'), str('do'))), '0');
  assert.equal(evalOne(call('md5', str('abc'))), '900150983cd24fb0d6963f7d28e17f72');
  assert.equal(evalOne(call('ascii', str('A'))), '65');
  assert.equal(evalOne(call('strcmp', str('a'), str('b'))), '-1');
  assert.equal(evalOne(call('null_or_empty', NULL)), '1');
  // Over columns: plain and dictionary, with nulls.
  const plain = column(Types.STRING, ['Abc', null, 'xyz']);
  assert.deepEqual(evalText(call('upper', col(0, Types.STRING)), [plain]), ['ABC', null, 'XYZ']);
  assert.deepEqual(evalText(call('concat', col(0, Types.STRING), str('!')), [plain]), ['Abc!', null, 'xyz!']);
  assert.deepEqual(evalText(call('length', col(0, Types.STRING)), [plain]), ['3', null, '3']);
  const dict = dictColumn(Types.STRING, ['aa', 'bbb'], [1, 0, 1, 0], [0, 0, 1, 0]);
  assert.deepEqual(evalText(call('length', col(0, Types.STRING)), [dict]), ['3', '2', null, '2']);
  assert.deepEqual(evalText(call('concat', str('<'), col(0, Types.STRING), str('>')), [dict]), ['<bbb>', '<aa>', null, '<aa>']);
});

test('math functions', () => {
  assert.equal(evalOne(call('abs', num('-3'))), '3');
  assert.equal(resolveFunction('abs', [Types.INT]).returnType.name, 'BIGINT');
  assert.equal(evalOne(call('abs', num('-2.50'))), '2.50');
  assert.equal(evalOne(call('ceil', num('1.2'))), '2');
  assert.equal(evalOne(call('ceiling', num('-1.2'))), '-1');
  assert.equal(evalOne(call('floor', num('-1.2'))), '-2');
  assert.equal(evalOne(call('floor', num('1.5e0'))), '1');
  assert.equal(resolveFunction('floor', [Types.DOUBLE]).returnType.name, 'BIGINT');
  assert.equal(evalOne(call('round', num('2.5'))), '3');
  assert.equal(evalOne(call('round', num('-2.5'))), '-3');
  assert.equal(evalOne(call('round', num('2.5e0'))), '3');
  assert.equal(evalOne(call('round', num('1.005e0'), num('2'))), '1.01');
  assert.equal(evalOne(call('round', num('3.14159'), num('2'))), '3.14000');
  assert.equal(evalOne(call('round', num('1234'), num('-2'))), '1200');
  assert.equal(evalOne(call('truncate', num('3.789e0'), num('1'))), '3.7');
  assert.equal(evalOne(call('truncate', num('-3.789'), num('1'))), '-3.700');
  assert.equal(evalOne(call('sqrt', num('16'))), '4');
  assert.equal(evalOne(call('sqrt', num('-1'))), null);
  assert.equal(evalOne(call('pow', num('2'), num('10'))), '1024');
  assert.equal(evalOne(call('power', num('2'), num('-1'))), '0.5');
  assert.equal(evalOne(call('exp', num('0'))), '1');
  assert.equal(evalOne(call('ln', num('1'))), '0');
  assert.equal(evalOne(call('ln', num('0'))), null);
  assert.equal(evalOne(call('log10', num('1000'))), '3');
  assert.equal(evalOne(call('log2', num('8'))), '3');
  assert.equal(evalOne(call('log', num('2'), num('8'))), '3');
  assert.equal(evalOne(call('mod', num('10'), num('3'))), '1');
  assert.equal(evalOne(call('greatest', num('1'), num('5'), num('3'))), '5');
  assert.equal(evalOne(call('least', num('1'), num('5.5'), num('3'))), '1.0');
  assert.equal(evalOne(call('greatest', str('apple'), str('pear'))), 'pear');
  assert.equal(evalOne(call('greatest', num('1'), NULL)), null);
  assert.equal(evalOne(call('pi')), String(Math.PI));
  assert.equal(evalOne(call('sign', num('-4'))), '-1');
  const rand = Number(evalOne(call('rand')));
  assert.ok(rand >= 0 && rand < 1);
  // rand() differs per row; rand(seed) repeats.
  const rows = column(Types.INT, [1, 2, 3, 4]);
  const values = evalText(call('add', call('rand'), call('multiply', col(0, Types.INT), num('0'))), [rows]);
  assert.ok(new Set(values).size > 1);
  assert.deepEqual(evalText(call('rand', num('7')), [rows]), evalText(call('rand', num('7')), [rows]));
});

test('conditional functions', () => {
  assert.equal(evalOne(call('coalesce', NULL, str('x'), str('y'))), 'x');
  assert.equal(evalOne(call('coalesce', NULL, NULL)), null);
  assert.equal(evalOne(call('ifnull', NULL, num('5'))), '5');
  assert.equal(evalOne(call('nvl', num('3'), num('5'))), '3');
  assert.equal(evalOne(call('if', call('gt', num('1'), num('2')), str('yes'), str('no'))), 'no');
  assert.equal(evalOne(call('if', NULL, num('1'), num('2'))), '2');
  assert.equal(evalOne(call('nullif', num('1'), num('1'))), null);
  assert.equal(evalOne(call('nullif', num('1'), num('2'))), '1');
  assert.equal(evalOne(call('nullif', num('1'), NULL)), '1');
  const a = column(Types.INT, [null, 2, null]);
  const b = column(Types.BIGINT, [10n, 20n, null]);
  assert.deepEqual(evalText(call('coalesce', col(0, Types.INT), col(1, Types.BIGINT), num('-1')), [a, b]), ['10', '2', '-1']);
  assert.equal(resolveFunction('coalesce', [Types.INT, Types.BIGINT]).returnType.name, 'BIGINT');
});

test('session functions read the context', () => {
  const context = makeContext({ sessionInfo: { ...ctx.sessionInfo, database: 'sales' } });
  assert.equal(evalOne(call('database'), context), 'sales');
  assert.equal(evalOne(call('schema'), makeContext({ sessionInfo: { ...ctx.sessionInfo, database: null } })), null);
  assert.equal(evalOne(call('version'), context), '5.7.99 Galene');
  assert.equal(evalOne(call('current_user'), context), 'root@%');
  assert.equal(evalOne(call('user'), context), 'root@127.0.0.1');
  assert.equal(evalOne(call('connection_id'), context), '42');
});

test('listFunctions describes every function', () => {
  const all = listFunctions();
  const names = new Set(all.map((fn) => fn.name));
  for (const name of ['add', 'concat', 'date_format', 'like', 'count', 'sum', 'coalesce', 'days_add']) assert.ok(names.has(name), name);
  for (const fn of all) {
    assert.ok(fn.description.length > 0, fn.name);
    assert.ok(fn.example.length > 0, fn.name);
  }
});
