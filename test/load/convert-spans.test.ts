/**
 * The span fast paths of convert.ts (bulk-load cells read straight from the statement text) against the
 * general parsers: whenever a fast path answers, it answers exactly what parseValue / parseDecimalScaled /
 * parseDate / parseDatetime answer for the same text; and it does answer for the common shapes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDateSpan, parseDatetimeSpan, parseDecimalScaled, parseIntegerSpan, parseScaledDecimalSpan } from '../../src/common/convert';
import { mulberry32 } from '../../src/common/prng';
import { parseDate, parseDatetime } from '../../src/common/datetime';

const random = mulberry32(7);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
const digits = (count: number): string => Array.from({ length: count }, () => String(Math.floor(random() * 10))).join('');

function numberText(): string {
  const sign = pick(['', '', '-', '+']);
  const intPart = pick(['', '0', '00', digits(1), digits(3), digits(9), digits(15), digits(16), digits(20)]);
  const frac = pick(['', '.', '.' + digits(1), '.' + digits(2), '.' + digits(3), '.5', '.005', '.995', '.' + digits(12)]);
  const exp = pick(['', '', '', 'e3', 'E-2', 'e+1']);
  return sign + intPart + frac + exp;
}

/** The text embedded in a longer string, so offsets are exercised too. */
function embed(text: string): { source: string; start: number; end: number } {
  const prefix = "x'(" + digits(2);
  return { source: prefix + text + ")'y", start: prefix.length, end: prefix.length + text.length };
}

test('integer spans equal Number() of the text wherever they answer', () => {
  for (let caseIdx = 0; caseIdx < 5000; caseIdx++) {
    const text = numberText();
    const { source, start, end } = embed(text);
    const fast = parseIntegerSpan(source, start, end);
    if (Number.isNaN(fast)) continue;
    assert.match(text, /^-?\d+$/, text);
    assert.ok(fast === Number(text), text); // -0 and 0 store alike in integer columns
    assert.ok(Number.isSafeInteger(fast), text);
  }
  assert.equal(parseIntegerSpan('12345', 0, 5), 12345);
  assert.equal(parseIntegerSpan('-007', 0, 4), -7);
  assert.ok(Object.is(parseIntegerSpan('-0', 0, 2), 0));
  assert.ok(Number.isNaN(parseIntegerSpan('-', 0, 1)));
  assert.ok(Number.isNaN(parseIntegerSpan('1.0', 0, 3)));
  assert.ok(Number.isNaN(parseIntegerSpan('99999999999999999', 0, 17)));
});

test('decimal spans equal parseDecimalScaled wherever they answer (rounding half away from zero)', () => {
  let answered = 0;
  for (let caseIdx = 0; caseIdx < 20000; caseIdx++) {
    const text = numberText();
    const scale = Math.floor(random() * 6);
    const { source, start, end } = embed(text);
    const fast = parseScaledDecimalSpan(source, start, end, scale);
    const slow = parseDecimalScaled(text, scale);
    if (Number.isNaN(fast)) continue;
    answered++;
    assert.notEqual(slow, null, text);
    assert.equal(fast, Number(slow), `${text} scale ${scale}`);
    assert.ok(!Object.is(fast, -0), text);
  }
  assert.ok(answered > 5000, `only ${answered} answered`);
  assert.equal(parseScaledDecimalSpan('1234.5', 0, 6, 2), 123450);
  assert.equal(parseScaledDecimalSpan('0.125', 0, 5, 2), 13);
  assert.equal(parseScaledDecimalSpan('-0.125', 0, 6, 2), -13);
  assert.equal(parseScaledDecimalSpan('.5', 0, 2, 0), 1);
  assert.equal(parseScaledDecimalSpan('7.', 0, 2, 1), 70);
  assert.ok(Object.is(parseScaledDecimalSpan('-0.001', 0, 6, 2), 0));
  assert.ok(Number.isNaN(parseScaledDecimalSpan('1e3', 0, 3, 2)));
  assert.ok(Number.isNaN(parseScaledDecimalSpan('.', 0, 1, 2)));
});

test('date and datetime spans equal parseDate / parseDatetime wherever they answer', () => {
  const years = ['0000', '0001', '1900', '1970', '1992', '2000', '2024', '2100', '9999'];
  const months = ['00', '01', '02', '09', '10', '12', '13', '1'];
  const days = ['00', '01', '28', '29', '30', '31', '32', '5'];
  const times = ['', ' 00:00:00', ' 23:59:59', ' 24:00:00', ' 12:60:00', ' 12:00:61', ' 1:02:03', ' 12:34:56.5', 'T12:34:56'];
  let answered = 0;
  for (const year of years) {
    for (const month of months) {
      for (const day of days) {
        for (const time of times) {
          const text = `${year}-${month}-${day}${time}`;
          const { source, start, end } = embed(text);
          const date = parseDateSpan(source, start, end);
          if (!Number.isNaN(date)) {
            answered++;
            assert.equal(date, parseDate(text), text);
          }
          const datetime = parseDatetimeSpan(source, start, end);
          if (!Number.isNaN(datetime)) {
            answered++;
            assert.equal(datetime, parseDatetime(text), text);
          }
        }
      }
    }
  }
  assert.ok(answered > 300, `only ${answered} answered`);
  assert.equal(parseDateSpan('2024-02-29', 0, 10), parseDate('2024-02-29'));
  assert.ok(Number.isNaN(parseDateSpan('2023-02-29', 0, 10)));
  assert.equal(parseDatetimeSpan('1992-01-01 10:11:12', 0, 19), parseDatetime('1992-01-01 10:11:12'));
});
