/**
 * Doris's geometry values: points, line strings, polygons and circles in (longitude, latitude) degrees,
 * their WKT and WKB text, and the binary form a GEOMETRY value takes inside a VARCHAR (byte 0 reserved,
 * byte 1 the shape type as in Doris's GeoShapeType, then little-endian float64 coordinates). Parsing
 * follows Doris's rules: coordinates outside [-180, 180] x [-90, 90], unclosed or self-crossing rings and
 * holes outside their shell are not geometries (the ST_ functions give NULL for them).
 */

export interface GeoPoint { readonly kind: 'point'; readonly x: number; readonly y: number }
/** coords: x0, y0, x1, y1, ... with adjacent duplicates removed. */
export interface GeoLine { readonly kind: 'line'; readonly coords: Float64Array }
/** rings[0] is the shell, the rest holes; each ring open (the closing vertex dropped), counter-clockwise. */
export interface GeoPolygon { readonly kind: 'polygon'; readonly rings: readonly Float64Array[] }
/** radius in meters on the sphere. */
export interface GeoCircle { readonly kind: 'circle'; readonly x: number; readonly y: number; readonly radius: number }
/** Polygons that share at most discrete points. */
export interface GeoMultiPolygon { readonly kind: 'multipolygon'; readonly polygons: readonly GeoPolygon[] }
export type GeoShape = GeoPoint | GeoLine | GeoPolygon | GeoCircle | GeoMultiPolygon;

/** Doris's GeoShapeType codes. */
const TYPE_CODE = { point: 1, line: 2, polygon: 3, multipolygon: 6, circle: 7 } as const;

const validCoord = (x: number, y: number): boolean => Number.isFinite(x) && Number.isFinite(y) && Math.abs(x) <= 180 && Math.abs(y) <= 90;

export function makePoint(x: number, y: number): GeoPoint | null {
  return validCoord(x, y) ? { kind: 'point', x, y } : null;
}

export function makeCircle(x: number, y: number, radius: number): GeoCircle | null {
  return validCoord(x, y) && Number.isFinite(radius) && radius >= 0 ? { kind: 'circle', x, y, radius } : null;
}

/** The coordinates without adjacent duplicates, or null when one is out of range. */
function cleanCoords(list: readonly number[]): number[] | null {
  const out: number[] = [];
  for (let idx = 0; idx < list.length; idx += 2) {
    const x = list[idx];
    const y = list[idx + 1];
    if (!validCoord(x, y)) return null;
    const n = out.length;
    if (n > 0 && out[n - 2] === x && out[n - 1] === y) continue;
    out.push(x, y);
  }
  return out;
}

export function makeLine(list: readonly number[]): GeoLine | null {
  const coords = cleanCoords(list);
  return coords === null || coords.length < 4 ? null : { kind: 'line', coords: Float64Array.from(coords) };
}

const cross = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number => (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);

/** Whether segments a1a2 and b1b2 cross at a point inside both (not at an end of either). */
export function properCross(a1x: number, a1y: number, a2x: number, a2y: number, b1x: number, b1y: number, b2x: number, b2y: number): boolean {
  const d1 = cross(b1x, b1y, b2x, b2y, a1x, a1y);
  const d2 = cross(b1x, b1y, b2x, b2y, a2x, a2y);
  const d3 = cross(a1x, a1y, a2x, a2y, b1x, b1y);
  const d4 = cross(a1x, a1y, a2x, a2y, b2x, b2y);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/** Twice the signed planar area of an open ring (positive: counter-clockwise). */
function ringArea2(ring: Float64Array): number {
  let sum = 0;
  const n = ring.length / 2;
  for (let idx = 0; idx < n; idx++) {
    const next = (idx + 1) % n;
    sum += ring[idx * 2] * ring[next * 2 + 1] - ring[next * 2] * ring[idx * 2 + 1];
  }
  return sum;
}

/** A ring whose edges do not cross and whose vertices are distinct (S2Loop::IsValid's rules). */
function ringValid(ring: Float64Array): boolean {
  const n = ring.length / 2;
  const seen = new Set<string>();
  for (let idx = 0; idx < n; idx++) {
    const key = `${ring[idx * 2]},${ring[idx * 2 + 1]}`;
    if (seen.has(key)) return false;
    seen.add(key);
  }
  for (let i = 0; i < n; i++) {
    const i2 = (i + 1) % n;
    for (let j = i + 1; j < n; j++) {
      const j2 = (j + 1) % n;
      if (j === i2 || j2 === i) continue;
      if (properCross(ring[i * 2], ring[i * 2 + 1], ring[i2 * 2], ring[i2 * 2 + 1], ring[j * 2], ring[j * 2 + 1], ring[j2 * 2], ring[j2 * 2 + 1])) return false;
    }
  }
  return ringArea2(ring) !== 0;
}

/** Whether (x, y) is strictly inside an open ring (ray casting; points on an edge may go either way). */
export function inRing(x: number, y: number, ring: Float64Array): boolean {
  const n = ring.length / 2;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = ring[i * 2];
    const yi = ring[i * 2 + 1];
    const xj = ring[j * 2];
    const yj = ring[j * 2 + 1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export function makePolygon(ringLists: readonly (readonly number[])[]): GeoPolygon | null {
  if (ringLists.length === 0) return null;
  const rings: Float64Array[] = [];
  for (const list of ringLists) {
    const n = list.length;
    if (n < 2 || list[0] !== list[n - 2] || list[1] !== list[n - 1]) return null;
    const coords = cleanCoords(list);
    if (coords === null) return null;
    coords.length -= 2;
    if (coords.length < 6) return null;
    let ring: Float64Array = Float64Array.from(coords);
    if (!ringValid(ring)) return null;
    // Doris normalizes every loop to enclose the smaller side: a clockwise ring is read reversed.
    if (ringArea2(ring) < 0) ring = reverseRing(ring);
    if (rings.length > 0 && !ringInside(ring, rings[0])) return null;
    rings.push(ring);
  }
  return { kind: 'polygon', rings };
}

function reverseRing(ring: Float64Array): Float64Array {
  const n = ring.length / 2;
  const out = new Float64Array(ring.length);
  for (let idx = 0; idx < n; idx++) {
    out[idx * 2] = ring[(n - 1 - idx) * 2];
    out[idx * 2 + 1] = ring[(n - 1 - idx) * 2 + 1];
  }
  return out;
}

/** A hole must lie in its shell: every vertex inside and no edge crossing. */
function ringInside(hole: Float64Array, shell: Float64Array): boolean {
  for (let idx = 0; idx < hole.length; idx += 2) if (!inRing(hole[idx], hole[idx + 1], shell)) return false;
  return true;
}

// ---- WKT ----

class WktReader {
  pos = 0;
  constructor(private readonly text: string) {}
  skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }
  word(): string {
    this.skipSpace();
    const start = this.pos;
    while (this.pos < this.text.length && /[A-Za-z]/.test(this.text[this.pos])) this.pos++;
    return this.text.slice(start, this.pos).toUpperCase();
  }
  take(ch: string): boolean {
    this.skipSpace();
    if (this.text[this.pos] !== ch) return false;
    this.pos++;
    return true;
  }
  number(): number | null {
    this.skipSpace();
    const match = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(this.text.slice(this.pos));
    if (match === null) return null;
    this.pos += match[0].length;
    return Number(match[0]);
  }
  atEnd(): boolean {
    this.skipSpace();
    return this.pos >= this.text.length;
  }
  /** `x y` pairs separated by commas, inside parentheses. */
  coordList(): number[] | null {
    if (!this.take('(')) return null;
    const out: number[] = [];
    do {
      const x = this.number();
      const y = x === null ? null : this.number();
      if (x === null || y === null) return null;
      out.push(x, y);
    } while (this.take(','));
    return this.take(')') ? out : null;
  }
  /** `(item, item, ...)`. */
  list<T>(item: () => T | null): T[] | null {
    if (!this.take('(')) return null;
    const out: T[] = [];
    do {
      const value = item();
      if (value === null) return null;
      out.push(value);
    } while (this.take(','));
    return this.take(')') ? out : null;
  }
  ringList(): number[][] | null {
    return this.list(() => this.coordList());
  }
  polygonList(): number[][][] | null {
    return this.list(() => this.ringList());
  }
}

/** Ring edges as [x1, y1, x2, y2] segments. */
export function polygonEdges(polygon: GeoPolygon): Float64Array[] {
  const out: Float64Array[] = [];
  for (const ring of polygon.rings) {
    const n = ring.length / 2;
    for (let idx = 0; idx < n; idx++) {
      const next = (idx + 1) % n;
      out.push(Float64Array.of(ring[idx * 2], ring[idx * 2 + 1], ring[next * 2], ring[next * 2 + 1]));
    }
  }
  return out;
}

/** Whether two segments lie on one line and overlap over a positive length (a shared edge). */
function overlapping(a: Float64Array, b: Float64Array): boolean {
  if (cross(a[0], a[1], a[2], a[3], b[0], b[1]) !== 0 || cross(a[0], a[1], a[2], a[3], b[2], b[3]) !== 0) return false;
  const useX = Math.abs(a[2] - a[0]) >= Math.abs(a[3] - a[1]);
  const [a1, a2] = useX ? [a[0], a[2]] : [a[1], a[3]];
  const [b1, b2] = useX ? [b[0], b[2]] : [b[1], b[3]];
  return Math.min(Math.max(a1, a2), Math.max(b1, b2)) - Math.max(Math.min(a1, a2), Math.min(b1, b2)) > 0;
}

/** Whether a point is strictly inside a polygon's area (in the shell, in no hole, on no edge). */
function strictlyInside(x: number, y: number, polygon: GeoPolygon, edges: readonly Float64Array[]): boolean {
  for (const e of edges) if (cross(e[0], e[1], e[2], e[3], x, y) === 0 && Math.min(e[0], e[2]) <= x && x <= Math.max(e[0], e[2]) && Math.min(e[1], e[3]) <= y && y <= Math.max(e[1], e[3])) return false;
  if (!inRing(x, y, polygon.rings[0])) return false;
  return polygon.rings.slice(1).every((hole) => !inRing(x, y, hole));
}

/** Polygons that meet only at discrete points: no crossing or shared edge, no vertex or edge middle inside another. */
export function makeMultiPolygon(polygons: readonly (GeoPolygon | null)[]): GeoMultiPolygon | null {
  if (polygons.length === 0 || polygons.some((polygon) => polygon === null)) return null;
  const parts = polygons as GeoPolygon[];
  const edges = parts.map(polygonEdges);
  for (let i = 0; i < parts.length; i++) {
    for (let j = 0; j < parts.length; j++) {
      if (i === j) continue;
      for (const e of edges[j]) {
        if (strictlyInside(e[0], e[1], parts[i], edges[i]) || strictlyInside((e[0] + e[2]) / 2, (e[1] + e[3]) / 2, parts[i], edges[i])) return null;
        if (j > i && edges[i].some((f) => properCross(e[0], e[1], e[2], e[3], f[0], f[1], f[2], f[3]) || overlapping(e, f))) return null;
      }
    }
  }
  return { kind: 'multipolygon', polygons: parts };
}

/** The shape of a WKT text (POINT, LINESTRING, POLYGON, MULTIPOLYGON), or null when it is not a valid one. */
export function parseWkt(text: string): GeoShape | null {
  const reader = new WktReader(text);
  const kind = reader.word();
  let shape: GeoShape | null = null;
  if (kind === 'POINT') {
    const coords = reader.coordList();
    shape = coords !== null && coords.length === 2 ? makePoint(coords[0], coords[1]) : null;
  } else if (kind === 'LINESTRING') {
    const coords = reader.coordList();
    shape = coords === null ? null : makeLine(coords);
  } else if (kind === 'POLYGON') {
    const rings = reader.ringList();
    shape = rings === null ? null : makePolygon(rings);
  } else if (kind === 'MULTIPOLYGON') {
    const polygons = reader.polygonList();
    shape = polygons === null ? null : makeMultiPolygon(polygons.map(makePolygon));
  }
  return shape !== null && reader.atEnd() ? shape : null;
}

/** C++'s `ostream << setprecision(15)` (%.15g) of a coordinate. */
export function formatCoord(value: number): string {
  if (value === 0) return '0';
  const exponent = Math.floor(Math.log10(Math.abs(value)));
  if (exponent < -4 || exponent >= 15) {
    const [mantissa, exp] = value.toExponential(14).split('e');
    const digits = mantissa.includes('.') ? mantissa.replace(/0+$/, '').replace(/\.$/, '') : mantissa;
    const expNum = Number(exp);
    return `${digits}e${expNum < 0 ? '-' : '+'}${String(Math.abs(expNum)).padStart(2, '0')}`;
  }
  return String(Number(value.toPrecision(15)));
}

const pairText = (x: number, y: number): string => `${formatCoord(x)} ${formatCoord(y)}`;

function coordsText(coords: Float64Array, close: boolean): string {
  const parts: string[] = [];
  for (let idx = 0; idx < coords.length; idx += 2) parts.push(pairText(coords[idx], coords[idx + 1]));
  if (close) parts.push(pairText(coords[0], coords[1]));
  return parts.join(', ');
}

/** Doris's ST_AsText: `POINT (24.7 56.7)`, `CIRCLE ((111 64), 10000)`. */
export function shapeToWkt(shape: GeoShape): string {
  switch (shape.kind) {
    case 'point':
      return `POINT (${pairText(shape.x, shape.y)})`;
    case 'line':
      return `LINESTRING (${coordsText(shape.coords, false)})`;
    case 'polygon':
      return `POLYGON (${shape.rings.map((ring) => `(${coordsText(ring, true)})`).join(', ')})`;
    case 'circle':
      return `CIRCLE ((${pairText(shape.x, shape.y)}), ${formatCoord(shape.radius)})`;
    case 'multipolygon':
      return `MULTIPOLYGON (${shape.polygons.map((polygon) => `(${polygon.rings.map((ring) => `(${coordsText(ring, true)})`).join(', ')})`).join(', ')})`;
  }
}

// ---- the stored binary form ----

function f64Count(shape: GeoShape): number {
  switch (shape.kind) {
    case 'point':
      return 2;
    case 'circle':
      return 3;
    case 'line':
      return shape.coords.length;
    case 'polygon':
      return shape.rings.reduce((sum, ring) => sum + ring.length, 0);
    case 'multipolygon':
      return shape.polygons.reduce((sum, polygon) => sum + f64Count(polygon), 0);
  }
}

/** How many u32 counts the stored form has. */
function countFields(shape: GeoShape): number {
  if (shape.kind === 'line') return 1;
  if (shape.kind === 'polygon') return 1 + shape.rings.length;
  if (shape.kind === 'multipolygon') return 1 + shape.polygons.reduce((sum, polygon) => sum + countFields(polygon), 0);
  return 0;
}

/** The stored size of a point. */
export const POINT_BYTES = 18;

/** A point's stored bytes written into buf (POINT_BYTES long), for kernels that reuse one buffer. */
export function encodePointInto(buf: Buffer, x: number, y: number): void {
  buf[0] = 0;
  buf[1] = TYPE_CODE.point;
  buf.writeDoubleLE(x, 2);
  buf.writeDoubleLE(y, 10);
}

/** The bytes a GEOMETRY value stores: 0x00, the type code, then the coordinates. */
export function encodeShape(shape: GeoShape): Uint8Array {
  const buf = Buffer.alloc(2 + countFields(shape) * 4 + f64Count(shape) * 8);
  buf[1] = TYPE_CODE[shape.kind];
  let pos = 2;
  const put = (value: number): void => {
    pos = buf.writeDoubleLE(value, pos);
  };
  const putCoords = (coords: Float64Array): void => {
    pos = buf.writeUInt32LE(coords.length / 2, pos);
    for (const value of coords) put(value);
  };
  if (shape.kind === 'point') {
    put(shape.x);
    put(shape.y);
  } else if (shape.kind === 'circle') {
    put(shape.x);
    put(shape.y);
    put(shape.radius);
  } else if (shape.kind === 'line') putCoords(shape.coords);
  else {
    const polygons = shape.kind === 'polygon' ? null : shape.polygons;
    if (polygons !== null) pos = buf.writeUInt32LE(polygons.length, pos);
    for (const polygon of polygons ?? [shape as GeoPolygon]) {
      pos = buf.writeUInt32LE(polygon.rings.length, pos);
      for (const ring of polygon.rings) putCoords(ring);
    }
  }
  return buf;
}

/** The shape of stored GEOMETRY bytes, or null when they are not one. */
export function decodeShape(bytes: Uint8Array): GeoShape | null {
  if (bytes.length < 2 || bytes[0] !== 0) return null;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  let pos = 2;
  const has = (n: number): boolean => pos + n <= bytes.length;
  const get = (): number => {
    const value = view.readDoubleLE(pos);
    pos += 8;
    return value;
  };
  const getCoords = (): Float64Array | null => {
    if (!has(4)) return null;
    const n = view.readUInt32LE(pos);
    pos += 4;
    if (!has(n * 16)) return null;
    const out = new Float64Array(n * 2);
    for (let idx = 0; idx < n * 2; idx++) out[idx] = get();
    return out;
  };
  const getCount = (): number | null => {
    if (!has(4)) return null;
    pos += 4;
    return view.readUInt32LE(pos - 4);
  };
  const getPolygon = (): GeoPolygon | null => {
    const count = getCount();
    const rings: Float64Array[] = [];
    for (let idx = 0; idx < (count ?? 0); idx++) {
      const ring = getCoords();
      if (ring === null || ring.length < 6) return null;
      rings.push(ring);
    }
    return rings.length === 0 ? null : { kind: 'polygon', rings };
  };
  let shape: GeoShape | null = null;
  switch (bytes[1]) {
    case TYPE_CODE.point:
      shape = has(16) ? { kind: 'point', x: get(), y: get() } : null;
      break;
    case TYPE_CODE.circle:
      shape = has(24) ? { kind: 'circle', x: get(), y: get(), radius: get() } : null;
      break;
    case TYPE_CODE.line: {
      const coords = getCoords();
      shape = coords === null || coords.length < 4 ? null : { kind: 'line', coords };
      break;
    }
    case TYPE_CODE.polygon:
      shape = getPolygon();
      break;
    case TYPE_CODE.multipolygon: {
      const count = getCount();
      const polygons: GeoPolygon[] = [];
      for (let idx = 0; idx < (count ?? 0); idx++) {
        const polygon = getPolygon();
        if (polygon === null) return null;
        polygons.push(polygon);
      }
      shape = polygons.length === 0 ? null : { kind: 'multipolygon', polygons };
      break;
    }
  }
  return shape !== null && pos === bytes.length ? shape : null;
}

/** A GEOMETRY argument: stored bytes, else WKT text (Doris reads VARCHAR WKT where a shape is expected). */
export function shapeOfBytes(bytes: Uint8Array): GeoShape | null {
  if (bytes.length >= 2 && bytes[0] === 0) return decodeShape(bytes);
  return parseWkt(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8'));
}

// ---- WKB ----

/** Doris's ST_AsBinary: little-endian WKB with coordinates rounded to 13 decimals; circles have none. */
export function shapeToWkb(shape: GeoShape): Uint8Array | null {
  if (shape.kind === 'circle') return null;
  const parts: Buffer[] = [];
  const u32 = (value: number): void => {
    const buf = Buffer.alloc(4);
    buf.writeUInt32LE(value);
    parts.push(buf);
  };
  const f64 = (value: number): void => {
    const buf = Buffer.alloc(8);
    buf.writeDoubleLE(Number(value.toFixed(13)));
    parts.push(buf);
  };
  const header = (kind: GeoShape['kind']): void => {
    parts.push(Buffer.of(1));
    u32(TYPE_CODE[kind]);
  };
  const ringOut = (coords: Float64Array, close: boolean): void => {
    u32(coords.length / 2 + (close ? 1 : 0));
    for (const value of coords) f64(value);
    if (close) {
      f64(coords[0]);
      f64(coords[1]);
    }
  };
  const polygonOut = (polygon: GeoPolygon): void => {
    header('polygon');
    u32(polygon.rings.length);
    for (const ring of polygon.rings) ringOut(ring, true);
  };
  if (shape.kind === 'point') {
    header('point');
    f64(shape.x);
    f64(shape.y);
  } else if (shape.kind === 'line') {
    header('line');
    ringOut(shape.coords, false);
  } else if (shape.kind === 'polygon') polygonOut(shape);
  else {
    header('multipolygon');
    u32(shape.polygons.length);
    for (const polygon of shape.polygons) polygonOut(polygon);
  }
  return Buffer.concat(parts);
}

/** The shape of WKB bytes (either byte order; POINT, LINESTRING, POLYGON), also given as hex text. */
export function parseWkb(input: Uint8Array): GeoShape | null {
  let bytes = Buffer.from(input.buffer, input.byteOffset, input.length);
  const text = bytes.toString('latin1');
  const hex = /^(\\x|x)?([0-9A-Fa-f]{2})+$/.exec(text);
  if (hex !== null && (bytes[0] !== 0 && bytes[0] !== 1)) bytes = Buffer.from(text.replace(/^\\?x/, ''), 'hex');
  let pos = 0;
  const has = (n: number): boolean => pos + n <= bytes.length;
  let little = true;
  const u32 = (): number | null => {
    if (!has(4)) return null;
    const value = little ? bytes.readUInt32LE(pos) : bytes.readUInt32BE(pos);
    pos += 4;
    return value;
  };
  const coords = (count: number): number[] | null => {
    if (!has(count * 16)) return null;
    const out: number[] = [];
    for (let idx = 0; idx < count * 2; idx++, pos += 8) out.push(little ? bytes.readDoubleLE(pos) : bytes.readDoubleBE(pos));
    return out;
  };
  /** One geometry from pos: its byte order, type, then the body. */
  const geometry = (depth: number): GeoShape | null => {
    if (!has(5) || bytes[pos] > 1) return null;
    little = bytes[pos++] === 1;
    const type = u32();
    if (type === 1) {
      const xy = coords(1);
      return xy === null ? null : makePoint(xy[0], xy[1]);
    }
    if (type === 2) {
      const n = u32();
      const list = n === null ? null : coords(n);
      return list === null ? null : makeLine(list);
    }
    if (type === 3) {
      const ringCount = u32();
      if (ringCount === null) return null;
      const rings: number[][] = [];
      for (let idx = 0; idx < ringCount; idx++) {
        const n = u32();
        const list = n === null ? null : coords(n);
        if (list === null) return null;
        rings.push(list);
      }
      return makePolygon(rings);
    }
    if (type === 6 && depth === 0) {
      const count = u32();
      const polygons: (GeoPolygon | null)[] = [];
      for (let idx = 0; idx < (count ?? 0); idx++) {
        const part = geometry(1);
        if (part === null || part.kind !== 'polygon') return null;
        polygons.push(part);
      }
      return makeMultiPolygon(polygons);
    }
    return null;
  };
  const shape = geometry(0);
  return shape !== null && pos === bytes.length ? shape : null;
}
