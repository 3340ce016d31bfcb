/**
 * The fast paths of Stream Load's readers against the general ones, on random inputs: span-parse.ts's
 * parsers answer (when they answer) exactly what parseValue answers for the same text; flat-json.ts's
 * scanner accepts only lines JSON.parse accepts and gives, for every source column, the text JsonReader's
 * JSON.parse path gives (valueText of the value found by exact key). Both must also answer for the
 * common shapes, or the fast path would silently never run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseValue } from '../../src/common/convert';
import { mulberry32 } from '../../src/common/prng';
import { Types, type DataType } from '../../src/common/types';
import { FlatJsonScanner } from '../../src/load/source/flat-json';
import { spanParserFor } from '../../src/load/source/span-parse';

const random = mulberry32(11);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
const digits = (count: number): string => Array.from({ length: count }, () => String(Math.floor(random() * 10))).join('');

function cellText(): string {
  return pick([
    () => pick(['', '-', '+']) + digits(1 + Math.floor(random() * 18)),
    () => pick(['', '-']) + digits(1 + Math.floor(random() * 4)) + '.' + digits(Math.floor(random() * 5)),
    () => `${pick(['1998', '2024', '0000', '9999', '20x4', '2023'])}-${pick(['01', '02', '12', '13', '00', '1'])}-${pick(['01', '28', '29', '30', '31', '32', '00', '9'])}`,
    () => `${pick(['1998-05-01', '2024-02-29', '2023-02-29', '2024-12-31'])}${pick([' ', 'T', '  '])}${pick(['00', '23', '24', '9'])}:${pick(['00', '59', '60'])}:${pick(['00', '59', '60', '5'])}${pick(['', '', '.5', ' '])}`,
    () => pick([' 12', '12 ', '1e3', '0x10', 'abc', '\\N', '', '-0', '007', '2147483647', '2147483648', '-2147483648', '-2147483649', '127', '128', '-128', '32767', '32768']),
  ])();
}

const TYPES: readonly DataType[] = [Types.TINYINT, Types.SMALLINT, Types.INT, Types.BIGINT, Types.DATE, Types.DATETIME, Types.datetime(3), Types.decimal(9, 2), Types.decimal(15, 0), Types.decimal(5, 3)];

test('span parsers answer what parseValue answers, wherever they answer', () => {
  const answered = new Map<string, number>();
  for (const type of TYPES) {
    const fast = spanParserFor(type);
    assert.ok(fast !== null, `${type.name} has a fast parser`);
    for (let caseIdx = 0; caseIdx < 4000; caseIdx++) {
      const text = cellText();
      const prefix = 'ab\t';
      const source = prefix + text + '\tcd';
      const value: number = fast(source, prefix.length, prefix.length + text.length);
      if (value !== value) continue;
      const expected = parseValue(type, text);
      assert.equal(expected.failure, null, `${type.name} '${text}': the fast path answered ${value}, parseValue failed`);
      // -0 and 0 are the same stored value (the integer columns are typed arrays).
      assert.equal(typeof expected.value === 'bigint' ? BigInt(value) : value + 0, typeof expected.value === 'number' ? expected.value + 0 : expected.value, `${type.name} '${text}'`);
      answered.set(type.name, (answered.get(type.name) ?? 0) + 1);
    }
  }
  for (const name of ['TINYINT', 'SMALLINT', 'INT', 'BIGINT', 'DATE', 'DATETIME', 'DECIMAL']) assert.ok((answered.get(name) ?? 0) > 20, `${name} fast path answered ${answered.get(name) ?? 0} times`);
  assert.equal(spanParserFor(Types.STRING), null);
  assert.equal(spanParserFor(Types.decimal(38, 2)), null);
});

// ---------------------------------------------------------------- flat JSON lines

const NAMES = ['timestamp', 'status', 'Size', 'name', 'ünï'];

function jsonValue(): string {
  return pick([
    () => JSON.stringify(pick(['GET /x HTTP/1.0', '', 'a"b', 'tab\there', 'back\\slash', 'ünïcödé', '1998-05-01 00:00:00', '\\N', 'line\nbreak'])),
    () => pick(['', '-']) + digits(1 + Math.floor(random() * 17)),
    () => pick(['0', '-0', '00', '01', '1.5', '1.0', '-2e3', '1E2', '12345678901234567890', '0.0']),
    () => pick(['true', 'false', 'null', 'nul', 'tru', 'NaN', '[]', '[1,2]', '{}', '{"a":1}', '"unterminated']),
  ])();
}

function jsonKey(): string {
  return JSON.stringify(pick([...NAMES, 'TIMESTAMP', 'size', 'other', 'STATUS', 'Ünï', 'na"me', '']));
}

function jsonLine(): string {
  const members = Array.from({ length: Math.floor(random() * 7) }, () => `${pick(['', ' '])}${jsonKey()}${pick(['', ' '])}:${pick(['', ' ', '\t'])}${jsonValue()}`);
  const body = `{${members.join(pick([',', ', ', ',,']))}${pick(['', ' '])}}`;
  return pick(['', ' ', '\t']) + pick([body, body, body, body, body.slice(0, -1), '[' + body + ']', body + ' x']) + pick(['', ' ', '\r']);
}

function valueText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

test('the flat JSON scanner gives the values JSON.parse gives, and only for lines it parses', () => {
  const scanner = new FlatJsonScanner(NAMES);
  const starts = new Int32Array(NAMES.length);
  const ends = new Int32Array(NAMES.length);
  let accepted = 0;
  for (let caseIdx = 0; caseIdx < 20000; caseIdx++) {
    const line = jsonLine();
    const padding = Buffer.from('xx\n');
    const buf = Buffer.concat([padding, Buffer.from(line, 'utf8'), padding]);
    const lineEnd = buf.length - padding.length;
    if (!scanner.scan(buf, padding.length, lineEnd, starts, ends)) continue;
    accepted++;
    let parsed: unknown;
    assert.doesNotThrow(() => (parsed = JSON.parse(line)), `accepted a line JSON.parse refuses: ${line}`);
    assert.ok(parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed), line);
    const object = parsed as Record<string, unknown>;
    assert.equal(buf.toString('utf8', scanner.rowStart, scanner.rowEnd), line.trim(), line);
    // Keys that name a column only when case is ignored make the reader take the slow path.
    const lowerNames = NAMES.map((name) => name.toLowerCase());
    for (const key of Object.keys(object)) assert.ok(NAMES.includes(key) || !lowerNames.includes(key.toLowerCase()), `accepted a case-insensitive key: ${line}`);
    NAMES.forEach((name, slotIdx) => {
      const expected = Object.prototype.hasOwnProperty.call(object, name) ? valueText(object[name]) : null;
      const actual = starts[slotIdx] < 0 ? null : buf.toString('utf8', starts[slotIdx], ends[slotIdx]);
      assert.equal(actual, expected, `${name} of ${line}`);
    });
  }
  assert.ok(accepted > 1000, `the scanner accepted only ${accepted} lines`);
  // The common shape is taken.
  const line = Buffer.from('{"timestamp":"1998-05-01 00:00:00","status":200,"Size":0,"name":"GET /a HTTP/1.0","ünï":null,"extra":false}');
  assert.ok(scanner.scan(line, 0, line.length, starts, ends));
  assert.equal(line.toString('utf8', starts[1], ends[1]), '200');
  assert.equal(starts[4], -1);
});
