/**
 * The geometry module on its own: WKT -> shape -> stored bytes -> shape -> WKT and WKB round trips,
 * bytes and text that are not shapes (seeded random garbage, truncated encodings) giving null without
 * throwing, and the relations' symmetry and consistency over a seeded grid of shapes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeShape, encodeShape, formatCoord, parseWkb, parseWkt, shapeOfBytes, shapeToWkb, shapeToWkt } from '../../src/exec/expr/functions/geo-shapes';
import { contains, distanceMeters, intersects, touches } from '../../src/exec/expr/functions/geo-sphere';

const SHAPES = [
  'POINT (24.7 56.7)',
  'POINT (-179.5 -89.25)',
  'LINESTRING (1 1, 2 2, 3 1.5)',
  'POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))',
  'POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 4 2, 4 4, 2 4, 2 2))',
  'MULTIPOLYGON (((0 0, 10 0, 10 10, 0 10, 0 0), (4 4, 6 4, 6 6, 4 6, 4 4)), ((4 5, 5 4, 6 5, 5 6, 4 5)))',
  'POLYGON ((114.104486 22.547119, 114.093758 22.547753, 114.096504 22.532057, 114.104229 22.539826, 114.106203 22.54268, 114.104486 22.547119))',
];

test('WKT, stored bytes and WKB round trip', () => {
  for (const wkt of SHAPES) {
    const shape = parseWkt(wkt);
    assert.ok(shape !== null, wkt);
    assert.equal(shapeToWkt(shape), wkt);
    const decoded = decodeShape(encodeShape(shape));
    assert.ok(decoded !== null);
    assert.equal(shapeToWkt(decoded), wkt);
    const fromWkb = parseWkb(shapeToWkb(shape)!);
    assert.ok(fromWkb !== null);
    assert.equal(shapeToWkt(fromWkb), wkt);
    // The hex text of the WKB (what hex(ST_AsBinary(...)) shows) parses too.
    assert.equal(shapeToWkt(parseWkb(Buffer.from(Buffer.from(shapeToWkb(shape)!).toString('hex')))!), wkt);
  }
});

test('%.15g formatting of coordinates', () => {
  assert.equal(formatCoord(24.7), '24.7');
  assert.equal(formatCoord(-0.00045), '-0.00045');
  assert.equal(formatCoord(0.000012), '1.2e-05');
  assert.equal(formatCoord(1 / 3), '0.333333333333333');
  assert.equal(formatCoord(10000), '10000');
});

/** A seeded xorshift generator, so a failure repeats. */
function rng(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
}

test('garbage and truncated encodings are not shapes and never throw', () => {
  const next = rng(20261203);
  for (let round = 0; round < 3000; round++) {
    const bytes = Uint8Array.from({ length: Math.floor(next() * 64) }, () => Math.floor(next() * 256));
    if (round % 3 === 0 && bytes.length > 1) bytes[0] = 0;
    assert.doesNotThrow(() => shapeOfBytes(bytes));
    assert.doesNotThrow(() => parseWkb(bytes));
  }
  for (const wkt of SHAPES) {
    const encoded = encodeShape(parseWkt(wkt)!);
    for (let cut = 0; cut < encoded.length; cut++) assert.equal(decodeShape(encoded.subarray(0, cut)), null, `${wkt} cut at ${cut}`);
    const wkb = shapeToWkb(parseWkt(wkt)!)!;
    for (let cut = 0; cut < wkb.length; cut++) assert.equal(parseWkb(wkb.subarray(0, cut)), null, `${wkt} WKB cut at ${cut}`);
  }
  for (const bad of ['', 'POINT', 'POINT ()', 'POINT (1)', 'POINT (1 2 3)', 'POINT (a b)', 'LINESTRING (1 1)', 'LINESTRING (1 1, 1 1)', 'POLYGON ((0 0, 1 0, 0 0))', 'POLYGON ((0 0, 1 0, 1 1, 0 1))', 'POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (20 20, 21 20, 21 21, 20 20))', 'MULTIPOINT (1 1)', 'POINT (1e400 0)', '('.repeat(10000)]) {
    assert.equal(parseWkt(bad), null, bad);
  }
});

test('relations: intersects is symmetric, contains implies intersects, touches implies intersects, disjoint shapes are apart', () => {
  const next = rng(7);
  const pool = [...SHAPES.map((wkt) => parseWkt(wkt)!)];
  for (let idx = 0; idx < 40; idx++) {
    const x = next() * 20 - 5;
    const y = next() * 20 - 5;
    pool.push(parseWkt(`POINT (${x} ${y})`)!);
    pool.push(parseWkt(`LINESTRING (${x} ${y}, ${x + next() * 6} ${y + next() * 6 - 3})`)!);
    pool.push(parseWkt(`POLYGON ((${x} ${y}, ${x + 3} ${y}, ${x + 3} ${y + 3}, ${x} ${y + 3}, ${x} ${y}))`)!);
    pool.push({ kind: 'circle', x, y, radius: next() * 500000 });
  }
  for (const a of pool) {
    for (const b of pool) {
      const ab = intersects(a, b);
      assert.equal(ab, intersects(b, a), `${shapeToWkt(a)} / ${shapeToWkt(b)}`);
      if (contains(a, b)) assert.ok(ab, `contains without intersects: ${shapeToWkt(a)} / ${shapeToWkt(b)}`);
      if (touches(a, b)) assert.ok(ab, `touches without intersects: ${shapeToWkt(a)} / ${shapeToWkt(b)}`);
      const meters = distanceMeters(a, b);
      assert.ok(meters >= 0 && Number.isFinite(meters));
      if (ab) assert.equal(meters, 0);
    }
  }
});
