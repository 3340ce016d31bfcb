/**
 * Unit tests of the protocol building blocks: packet splitting and joining at the 16 MiB boundary,
 * length-encoded integers, the native password check, and the text cells of every integer width against
 * formatValue (the one definition of how values print).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { vectorFromRaw } from '../../src/common/column';
import { formatValue } from '../../src/common/convert';
import { Types } from '../../src/common/types';
import { nativePasswordDoubleSha1, nativePasswordToken, newScramble, verifyNativePassword } from '../../src/protocol/native-password';
import { PacketFramer, PacketTooLargeError } from '../../src/protocol/packet-framer';
import { PacketReader } from '../../src/protocol/packet-reader';
import { PacketWriter } from '../../src/protocol/packet-writer';
import { TextColumnFormatter } from '../../src/protocol/text-column';

const CHUNK = 0xffffff;

function writePayload(size: number): Buffer {
  const writer = new PacketWriter(64);
  writer.sequenceId = 3;
  writer.begin();
  const body = Buffer.alloc(size);
  for (let byteIdx = 0; byteIdx < size; byteIdx += 4096) body[byteIdx] = byteIdx & 0xff;
  writer.bytes(body);
  writer.end();
  return writer.take();
}

test('writer splits payloads at 16 MiB - 1 and adds an empty packet after an exact multiple', () => {
  const exact = writePayload(CHUNK);
  assert.equal(exact.length, CHUNK + 8);
  assert.equal(exact.readUIntLE(0, 3), CHUNK);
  assert.equal(exact[3], 3);
  assert.equal(exact.readUIntLE(CHUNK + 4, 3), 0);
  assert.equal(exact[CHUNK + 7], 4);
  const over = writePayload(CHUNK + 10);
  assert.equal(over.length, CHUNK + 10 + 8);
  assert.equal(over.readUIntLE(CHUNK + 4, 3), 10);
  const under = writePayload(CHUNK - 1);
  assert.equal(under.length, CHUNK - 1 + 4);
  assert.equal(under.readUIntLE(0, 3), CHUNK - 1);
});

test('framer joins split payloads fed in arbitrary chunks and keeps the last sequence id', () => {
  const wire = writePayload(CHUNK + 10);
  const framer = new PacketFramer(64 * 1024 * 1024);
  const got = [];
  for (let pos = 0; pos < wire.length; pos += 1_000_003) {
    framer.push(wire.subarray(pos, Math.min(pos + 1_000_003, wire.length)));
    for (let next = framer.next(); next !== null; next = framer.next()) got.push(next);
  }
  assert.equal(got.length, 1);
  assert.equal(got[0].payload.length, CHUNK + 10);
  assert.equal(got[0].sequenceId, 4);
  assert.equal(got[0].payload[4096], 0);
  assert.equal(got[0].payload[4096 * 3], (4096 * 3) & 0xff);
  // Byte-at-a-time small packets, two in a row.
  const small = Buffer.from([2, 0, 0, 0, 0x0e, 0x01, 1, 0, 0, 5, 0x01]);
  for (const byte of small) framer.push(Buffer.from([byte]));
  assert.deepEqual(framer.next(), { payload: Buffer.from([0x0e, 0x01]), sequenceId: 0 });
  assert.deepEqual(framer.next(), { payload: Buffer.from([0x01]), sequenceId: 5 });
  assert.equal(framer.next(), null);
});

test('framer refuses a packet over the limit from its header alone', () => {
  const framer = new PacketFramer(100);
  framer.push(Buffer.from([101, 0, 0, 7]));
  assert.throws(() => framer.next(), (err: unknown) => err instanceof PacketTooLargeError && err.sequenceId === 7);
});

test('length-encoded integers round-trip through writer and reader; truncation is MALFORMED_PACKET', () => {
  const values = [0, 250, 251, 65535, 65536, 0xffffff, 0x1000000, 2 ** 40];
  const writer = new PacketWriter(16);
  for (const value of values) writer.lenencInt(value);
  const bytes = writer.take();
  const reader = new PacketReader(bytes);
  for (const value of values) assert.equal(reader.lenencInt(), value);
  assert.equal(reader.remaining, 0);
  assert.throws(() => new PacketReader(Buffer.from([0xfc, 1])).lenencInt(), (err: Error & { errno?: number }) => err.errno === 1835);
  assert.equal(new PacketReader(Buffer.from([0xfb])).lenencInt(), null);
});

test('native password: the token of the right password verifies, others do not', () => {
  const scramble = newScramble();
  const stored = nativePasswordDoubleSha1('secret');
  assert.ok(verifyNativePassword(nativePasswordToken('secret', scramble), scramble, stored));
  assert.ok(!verifyNativePassword(nativePasswordToken('Secret', scramble), scramble, stored));
  assert.ok(!verifyNativePassword(nativePasswordToken('secret', newScramble()), scramble, stored));
  assert.ok(!verifyNativePassword(Buffer.alloc(0), scramble, stored));
  assert.ok(verifyNativePassword(Buffer.alloc(0), scramble, null));
  assert.ok(!verifyNativePassword(nativePasswordToken('x', scramble), scramble, null));
});

test('integer cells printed directly match formatValue for every width and edge value', () => {
  const cases = [
    { type: Types.BOOLEAN, values: [0, 1, null, 1] },
    { type: Types.TINYINT, values: [-128, -1, 0, 9, 10, 127, null] },
    { type: Types.SMALLINT, values: [-32768, -10, 99, 100, 32767] },
    { type: Types.INT, values: [-2147483648, -999999999, 1000000000, 2147483647, null, 0] },
    { type: Types.BIGINT, values: [-(2n ** 63n), -9007199254740991n, -9007199254740992n, 0n, 9007199254740991n, 9007199254740992n, 2n ** 63n - 1n, null] },
  ];
  for (const { type, values } of cases) {
    const vec = vectorFromRaw(type, values);
    const cells = new TextColumnFormatter().format(vec, vec.length);
    for (let rowIdx = 0; rowIdx < values.length; rowIdx++) {
      const expected = formatValue(type, values[rowIdx]);
      if (expected === null) {
        assert.equal(cells.nulls![rowIdx], 1);
        continue;
      }
      const text = Buffer.from(cells.bytes.subarray(cells.offsets[rowIdx], cells.offsets[rowIdx + 1])).toString('latin1');
      assert.equal(text, expected, `${type.name} row ${rowIdx}`);
    }
  }
});

test('DATE, DATETIME and DECIMAL cells printed directly match formatValue (with fallbacks at the edges)', () => {
  const dayValues = [0, -1, 1, 59, 60, 11016, 19782, -719528, -719529, 2932896, 2932897, -100000, 30000];
  const cellText = (type: Parameters<typeof vectorFromRaw>[0], values: (number | bigint | null)[]): (string | null)[] => {
    const vec = vectorFromRaw(type, values);
    const cells = new TextColumnFormatter().format(vec, vec.length);
    return values.map((_value, rowIdx) =>
      cells.nulls !== null && cells.nulls[rowIdx] === 1 ? null : Buffer.from(cells.bytes.subarray(cells.offsets[rowIdx], cells.offsets[rowIdx + 1])).toString('latin1'),
    );
  };
  const expectAll = (type: Parameters<typeof vectorFromRaw>[0], values: (number | bigint | null)[]): void => {
    assert.deepEqual(cellText(type, values), values.map((value) => formatValue(type, value)), `${type.name}(${type.precision ?? ''},${type.scale ?? ''})`);
  };
  expectAll(Types.DATE, [...dayValues, null]);
  const microValues: (number | null)[] = [null];
  for (const days of dayValues) {
    for (const timeOfDay of [0, 1, 999_999, 45_296_789_012, 86_399_999_999]) microValues.push(days * 86_400_000_000 + timeOfDay);
  }
  for (let scale = 0; scale <= 6; scale++) expectAll(Types.datetime(scale), microValues);
  const scaledValues = [0, 1, -1, 5, -5, 10, 99, -100, 123456789, -987654321012, 999999999999999, -999999999999999, 1e15 + 1, null];
  for (const scale of [0, 1, 2, 3, 9, 15]) expectAll(Types.decimal(15, scale), scaledValues);
  expectAll(Types.decimal(30, 4), [0n, -1n, 123456789012345678901234n, null]);
});
