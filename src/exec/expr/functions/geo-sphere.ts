/**
 * Measures and relations of geometry shapes as Doris computes them. Distances, lengths and areas are on
 * S2's sphere (S2Earth: radius 6371010 m, haversine distances, great-circle edges); ST_Angle and
 * ST_Azimuth use S2Earth's initial bearing. The relations (contains / intersects / touches) follow Doris's
 * own planar tests on (longitude, latitude) degrees with its 1e-6 tolerance, except that a circle is
 * a cap on the sphere.
 */
import { inRing, polygonEdges, properCross, type GeoShape } from './geo-shapes';

/** S2Earth::RadiusMeters(). */
export const EARTH_RADIUS_METERS = 6371010;
export const EARTH_RADIUS_KM = 6371.01;
const RAD = Math.PI / 180;
/** Doris's TOLERANCE (degrees) for a point on a line. */
const TOLERANCE = 1e-6;

/** S2LatLng::GetDistance (haversine) in radians between (lng, lat) degree pairs. */
export function angleBetween(lng1: number, lat1: number, lng2: number, lat2: number): number {
  const phi1 = lat1 * RAD;
  const phi2 = lat2 * RAD;
  const dlat = Math.sin(0.5 * (phi2 - phi1));
  const dlng = Math.sin(0.5 * (lng2 * RAD - lng1 * RAD));
  const x = dlat * dlat + dlng * dlng * Math.cos(phi1) * Math.cos(phi2);
  return 2 * Math.asin(Math.sqrt(Math.min(1, x)));
}

export const validLngLat = (lng: number, lat: number): boolean => Math.abs(lat) <= 90 && Math.abs(lng) <= 180;

/** S2Earth::GetInitialBearing from (lat1, lng1) to (lat2, lng2), degrees in, radians out. */
export function initialBearing(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const phi1 = lat1 * RAD;
  const cosLat2 = Math.cos(lat2 * RAD);
  const latDiff = lat2 * RAD - phi1;
  const lngDiff = lng2 * RAD - lng1 * RAD;
  const hav = Math.sin(lngDiff / 2) ** 2;
  const x = Math.sin(latDiff) + Math.sin(phi1) * cosLat2 * 2 * hav;
  const y = Math.sin(lngDiff) * cosLat2;
  return Math.atan2(y, x);
}

/**
 * Doris's GeoPoint::ComputeAngle over three points' (x, y): it reads each point as S2LatLng::FromDegrees(x, y),
 * latitude first, which the documented results depend on. NULL when p2 equals p1 or p3 or is antipodal.
 */
export function angleOf(x1: number, y1: number, x2: number, y2: number, x3: number, y3: number): number | null {
  if ((x2 === x1 && y2 === y1) || (x2 === x3 && y2 === y3)) return null;
  if (angleBetween(x1, y1, x2, y2) / RAD === 180 || angleBetween(x3, y3, x2, y2) / RAD === 180) return null;
  const a = initialBearing(x2, y2, x3, y3);
  const b = initialBearing(x2, y2, x1, y1);
  return b - a < 0 ? b - a + 2 * Math.PI : b - a;
}

type Vec3 = [number, number, number];
const toVec = (lng: number, lat: number): Vec3 => {
  const phi = lat * RAD;
  const lambda = lng * RAD;
  return [Math.cos(phi) * Math.cos(lambda), Math.cos(phi) * Math.sin(lambda), Math.sin(phi)];
};
const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const crossV = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

const vecAngle = (a: Vec3, b: Vec3): number => {
  const c = crossV(a, b);
  return Math.atan2(Math.sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]), dot(a, b));
};

/** S2::GirardArea: the triangle's angle excess from its edge normals. */
function girardArea(a: Vec3, b: Vec3, c: Vec3): number {
  const ab = crossV(a, b);
  const bc = crossV(b, c);
  const ac = crossV(a, c);
  return Math.max(0, vecAngle(ab, ac) - vecAngle(ab, bc) + vecAngle(bc, ac));
}

/** S2::Area: l'Huilier's formula, Girard's for long thin triangles. */
function triangleArea(a: Vec3, b: Vec3, c: Vec3): number {
  const sa = vecAngle(b, c);
  const sb = vecAngle(c, a);
  const sc = vecAngle(a, b);
  const s = 0.5 * (sa + sb + sc);
  if (s >= 3e-4) {
    const s2 = s * s;
    const dmin = s - Math.max(sa, sb, sc);
    if (dmin < 1e-2 * s * s2 * s2) {
      const area = girardArea(a, b, c);
      if (dmin < s * (0.1 * (area + 5e-15))) return area;
    }
  }
  return 4 * Math.atan(Math.sqrt(Math.max(0, Math.tan(0.5 * s) * Math.tan(0.5 * (s - sa)) * Math.tan(0.5 * (s - sb)) * Math.tan(0.5 * (s - sc)))));
}

/** The area of a counter-clockwise ring with great-circle edges (steradians, a fan from vertex 0 as S2Loop::GetArea). */
function ringSteradians(ring: Float64Array): number {
  const n = ring.length / 2;
  const v0 = toVec(ring[0], ring[1]);
  let sum = 0;
  for (let idx = 1; idx + 1 < n; idx++) {
    const b = toVec(ring[idx * 2], ring[idx * 2 + 1]);
    const c = toVec(ring[idx * 2 + 2], ring[idx * 2 + 3]);
    const sign = dot(v0, crossV(b, c)) >= 0 ? 1 : -1;
    sum += sign * triangleArea(v0, b, c);
  }
  return Math.abs(sum);
}

/** The area in steradians (S2Polygon::GetArea / S2Cap::GetArea); 0 for points and lines. */
export function steradians(shape: GeoShape): number {
  if (shape.kind === 'circle') {
    // S2Cap keeps the radius as a chord: height = chord² / 2, area = 2π·height.
    const chord = 2 * Math.sin(0.5 * Math.min(Math.PI, shape.radius / EARTH_RADIUS_METERS));
    return 2 * Math.PI * Math.max(0, 0.5 * chord * chord);
  }
  if (shape.kind === 'multipolygon') return shape.polygons.reduce((sum, polygon) => sum + steradians(polygon), 0);
  if (shape.kind !== 'polygon') return 0;
  let area = ringSteradians(shape.rings[0]);
  for (let idx = 1; idx < shape.rings.length; idx++) area -= ringSteradians(shape.rings[idx]);
  return area;
}

function pathAngle(coords: Float64Array, close: boolean): number {
  let sum = 0;
  const n = coords.length / 2;
  for (let idx = 0; idx + 1 < n; idx++) sum += angleBetween(coords[idx * 2], coords[idx * 2 + 1], coords[idx * 2 + 2], coords[idx * 2 + 3]);
  if (close) sum += angleBetween(coords[(n - 1) * 2], coords[(n - 1) * 2 + 1], coords[0], coords[1]);
  return sum;
}

/** ST_Length in meters: a line's length, a polygon's perimeter (holes too), a circle's circumference. */
export function lengthMeters(shape: GeoShape): number {
  switch (shape.kind) {
    case 'point':
      return 0;
    case 'circle':
      return 2 * Math.PI * shape.radius;
    case 'line':
      return pathAngle(shape.coords, false) * EARTH_RADIUS_METERS;
    case 'polygon':
      return shape.rings.reduce((sum, ring) => sum + pathAngle(ring, true), 0) * EARTH_RADIUS_METERS;
    case 'multipolygon':
      return shape.polygons.reduce((sum, polygon) => sum + lengthMeters(polygon), 0);
  }
}

/** Angle (radians) from a point to the great-circle arc ab. */
function pointArcAngle(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const p = toVec(px, py);
  const a = toVec(ax, ay);
  const b = toVec(bx, by);
  const normal = crossV(a, b);
  const len = Math.hypot(normal[0], normal[1], normal[2]);
  const ends = Math.min(angleBetween(px, py, ax, ay), angleBetween(px, py, bx, by));
  if (len < 1e-15) return ends;
  const unit: Vec3 = [normal[0] / len, normal[1] / len, normal[2] / len];
  // The foot of the perpendicular is on the arc when it is on the inner side of both ends.
  if (dot(crossV(a, p), unit) >= 0 && dot(crossV(p, b), unit) >= 0) return Math.min(ends, Math.asin(Math.min(1, Math.abs(dot(p, unit)))));
  return ends;
}

/** Segment lists by shape: a constant polygon tested against every row builds its edges once. */
const SEGMENTS = new WeakMap<GeoShape, Float64Array[]>();

/** The vertex pairs and edges of a shape as segment lists (a point is a zero-length segment). */
function segments(shape: GeoShape): Float64Array[] {
  let out = SEGMENTS.get(shape);
  if (out === undefined) {
    out = buildSegments(shape);
    SEGMENTS.set(shape, out);
  }
  return out;
}

function buildSegments(shape: GeoShape): Float64Array[] {
  switch (shape.kind) {
    case 'point':
    case 'circle':
      return [Float64Array.of(shape.x, shape.y, shape.x, shape.y)];
    case 'line': {
      const out: Float64Array[] = [];
      for (let idx = 0; idx + 2 < shape.coords.length; idx += 2) out.push(shape.coords.subarray(idx, idx + 4));
      return out;
    }
    case 'polygon':
      return polygonEdges(shape);
    case 'multipolygon':
      return shape.polygons.flatMap(segments);
  }
}

/** Smallest angle (radians) between the edges/vertices of two shapes, ignoring interiors and radii. */
function boundaryAngle(a: GeoShape, b: GeoShape): number {
  let best = Infinity;
  for (const sa of segments(a)) {
    for (const sb of segments(b)) {
      best = Math.min(best, pointArcAngle(sa[0], sa[1], sb[0], sb[1], sb[2], sb[3]), pointArcAngle(sa[2], sa[3], sb[0], sb[1], sb[2], sb[3]), pointArcAngle(sb[0], sb[1], sa[0], sa[1], sa[2], sa[3]), pointArcAngle(sb[2], sb[3], sa[0], sa[1], sa[2], sa[3]));
    }
  }
  return best;
}

/** ST_Distance: meters between two shapes on the sphere, 0 when they intersect. */
export function distanceMeters(a: GeoShape, b: GeoShape): number {
  if (intersects(a, b)) return 0;
  let meters = boundaryAngle(a, b) * EARTH_RADIUS_METERS;
  if (a.kind === 'circle') meters -= a.radius;
  if (b.kind === 'circle') meters -= b.radius;
  return Math.max(0, meters);
}

// ---- planar relations on (lng, lat) ----

/** Planar distance from a point to segment ab, in degrees (Doris's project_distance). */
function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / len2;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

function onPath(px: number, py: number, segs: readonly Float64Array[]): boolean {
  return segs.some((s) => segmentDistance(px, py, s[0], s[1], s[2], s[3]) < TOLERANCE);
}

type Where = 'inside' | 'boundary' | 'outside';

function locate(px: number, py: number, polygon: GeoShape & { kind: 'polygon' }): Where {
  if (onPath(px, py, segments(polygon))) return 'boundary';
  if (!inRing(px, py, polygon.rings[0])) return 'outside';
  for (let idx = 1; idx < polygon.rings.length; idx++) if (inRing(px, py, polygon.rings[idx])) return 'outside';
  return 'inside';
}

/** Whether two segment lists touch or cross anywhere (ends on the other count). */
function segsMeet(a: readonly Float64Array[], b: readonly Float64Array[]): boolean {
  for (const sa of a) {
    for (const sb of b) {
      if (properCross(sa[0], sa[1], sa[2], sa[3], sb[0], sb[1], sb[2], sb[3])) return true;
      if (segmentDistance(sa[0], sa[1], sb[0], sb[1], sb[2], sb[3]) < TOLERANCE || segmentDistance(sa[2], sa[3], sb[0], sb[1], sb[2], sb[3]) < TOLERANCE) return true;
      if (segmentDistance(sb[0], sb[1], sa[0], sa[1], sa[2], sa[3]) < TOLERANCE || segmentDistance(sb[2], sb[3], sa[0], sa[1], sa[2], sa[3]) < TOLERANCE) return true;
    }
  }
  return false;
}

function segsCross(a: readonly Float64Array[], b: readonly Float64Array[]): boolean {
  return a.some((sa) => b.some((sb) => properCross(sa[0], sa[1], sa[2], sa[3], sb[0], sb[1], sb[2], sb[3])));
}

/** Vertices and edge midpoints of a shape's segments: the sample points the relation tests look at. */
function samples(shape: GeoShape): number[] {
  const out: number[] = [];
  for (const s of segments(shape)) out.push(s[0], s[1], (s[0] + s[2]) / 2, (s[1] + s[3]) / 2);
  if (shape.kind === 'line') out.push(shape.coords[shape.coords.length - 2], shape.coords[shape.coords.length - 1]);
  return out;
}

/** Angle (radians) from a circle's center to the nearest point of a shape (0 inside a polygon). */
function centerAngle(circle: GeoShape & { kind: 'circle' }, other: GeoShape): number {
  if (other.kind === 'multipolygon') return Math.min(...other.polygons.map((polygon) => centerAngle(circle, polygon)));
  if (other.kind === 'polygon' && locate(circle.x, circle.y, other) !== 'outside') return 0;
  if (other.kind === 'circle') return angleBetween(circle.x, circle.y, other.x, other.y) - other.radius / EARTH_RADIUS_METERS;
  return boundaryAngle(circle, other);
}

export function intersects(a: GeoShape, b: GeoShape): boolean {
  if (a.kind === 'multipolygon') return a.polygons.some((polygon) => intersects(polygon, b));
  if (b.kind === 'multipolygon') return b.polygons.some((polygon) => intersects(a, polygon));
  if (a.kind === 'circle') return centerAngle(a, b) * EARTH_RADIUS_METERS <= a.radius;
  if (b.kind === 'circle') return intersects(b, a);
  if (a.kind === 'point' && b.kind === 'point') return a.x === b.x && a.y === b.y;
  if (b.kind === 'polygon' && a.kind !== 'polygon') return intersects(b, a);
  if (a.kind === 'polygon') {
    if (b.kind === 'point') return locate(b.x, b.y, a) !== 'outside';
    const pts = samples(b);
    for (let idx = 0; idx < pts.length; idx += 2) if (locate(pts[idx], pts[idx + 1], a) !== 'outside') return true;
    if (b.kind === 'polygon') {
      const back = samples(a);
      for (let idx = 0; idx < back.length; idx += 2) if (locate(back[idx], back[idx + 1], b) !== 'outside') return true;
    }
    return segsMeet(segments(a), segments(b));
  }
  return segsMeet(segments(a), segments(b));
}

/** ST_Contains: every point of b in a; a point on a polygon's boundary is not contained (as S2 has it). */
export function contains(a: GeoShape, b: GeoShape): boolean {
  if (b.kind === 'multipolygon') return b.polygons.every((polygon) => contains(a, polygon));
  switch (a.kind) {
    case 'multipolygon':
      return a.polygons.some((polygon) => contains(polygon, b));
    case 'point':
      return b.kind === 'point' && a.x === b.x && a.y === b.y;
    case 'line':
      return b.kind === 'point' && onPath(b.x, b.y, segments(a));
    case 'circle': {
      if (b.kind === 'circle') return angleBetween(a.x, a.y, b.x, b.y) * EARTH_RADIUS_METERS + b.radius <= a.radius;
      const pts = samples(b);
      for (let idx = 0; idx < pts.length; idx += 2) if (angleBetween(a.x, a.y, pts[idx], pts[idx + 1]) * EARTH_RADIUS_METERS > a.radius) return false;
      return true;
    }
    case 'polygon': {
      if (b.kind === 'point') return locate(b.x, b.y, a) === 'inside';
      if (b.kind === 'circle') return locate(b.x, b.y, a) === 'inside' && boundaryAngle(b, a) * EARTH_RADIUS_METERS >= b.radius;
      const pts = samples(b);
      for (let idx = 0; idx < pts.length; idx += 2) if (locate(pts[idx], pts[idx + 1], a) === 'outside') return false;
      return !segsCross(segments(a), segments(b));
    }
  }
}

/** ST_Touches: the shapes meet, but only on boundaries (a point or a line's end counts as boundary). */
export function touches(a: GeoShape, b: GeoShape): boolean {
  // A multipolygon touches when some part touches and no part meets the other shape's interior.
  if (a.kind === 'multipolygon' || b.kind === 'multipolygon') {
    const [multi, other] = a.kind === 'multipolygon' ? [a, b] : [b as GeoShape & { kind: 'multipolygon' }, a];
    const meeting = multi.polygons.filter((polygon) => intersects(polygon, other));
    return meeting.length > 0 && meeting.every((polygon) => touches(polygon, other));
  }
  if (a.kind === 'point' && b.kind === 'point') return false;
  if (b.kind === 'point' && a.kind !== 'point') return touches(b, a);
  if (a.kind === 'circle' || b.kind === 'circle') {
    const [circle, other] = a.kind === 'circle' ? [a, b] : [b as GeoShape & { kind: 'circle' }, a];
    return Math.abs(centerAngle(circle, other) * EARTH_RADIUS_METERS - circle.radius) < 1e-6 * Math.max(1, circle.radius);
  }
  if (a.kind === 'point') {
    if (b.kind === 'line') {
      const c = b.coords;
      return (a.x === c[0] && a.y === c[1]) || (a.x === c[c.length - 2] && a.y === c[c.length - 1]);
    }
    return b.kind === 'polygon' && locate(a.x, a.y, b) === 'boundary';
  }
  if (!intersects(a, b) || segsCross(segments(a), segments(b))) return false;
  if (a.kind === 'line' && b.kind === 'line') return linesTouch(a.coords, b.coords);
  // Polygon with a line or a polygon: nothing of either lies strictly inside a polygon.
  for (const [inner, outer] of [[a, b], [b, a]] as const) {
    if (outer.kind !== 'polygon') continue;
    const pts = samples(inner);
    for (let idx = 0; idx < pts.length; idx += 2) if (locate(pts[idx], pts[idx + 1], outer) === 'inside') return false;
    // Equal or boundary-sharing polygons have every sample on a boundary: probe just inside an edge too.
    const probe = inner.kind === 'polygon' ? interiorProbe(inner) : null;
    if (probe !== null && locate(probe[0], probe[1], outer) === 'inside') return false;
  }
  return true;
}

/** A point just inside a polygon, off the middle of one of its shell's edges (left of it: rings are counter-clockwise). */
function interiorProbe(polygon: GeoShape & { kind: 'polygon' }): [number, number] | null {
  const shell = polygon.rings[0];
  const n = shell.length / 2;
  for (let idx = 0; idx < n; idx++) {
    const next = (idx + 1) % n;
    const dx = shell[next * 2] - shell[idx * 2];
    const dy = shell[next * 2 + 1] - shell[idx * 2 + 1];
    const x = (shell[idx * 2] + shell[next * 2]) / 2 - dy * 1e-3;
    const y = (shell[idx * 2 + 1] + shell[next * 2 + 1]) / 2 + dx * 1e-3;
    if (locate(x, y, polygon) === 'inside') return [x, y];
  }
  return null;
}

/** Two lines touch when they meet only where an end of one lies on the other. */
function linesTouch(a: Float64Array, b: Float64Array): boolean {
  const sa = segments({ kind: 'line', coords: a });
  const sb = segments({ kind: 'line', coords: b });
  const interiorOn = (coords: Float64Array, other: readonly Float64Array[]): boolean => {
    for (let idx = 2; idx + 2 < coords.length; idx += 2) if (onPath(coords[idx], coords[idx + 1], other)) return true;
    return false;
  };
  if (interiorOn(a, sb) || interiorOn(b, sa)) return false;
  const endsOn = (coords: Float64Array, other: readonly Float64Array[]): number => Number(onPath(coords[0], coords[1], other)) + Number(onPath(coords[coords.length - 2], coords[coords.length - 1], other));
  const count = endsOn(a, sb) + endsOn(b, sa);
  // Overlapping collinear lines put both ends of one on the other: that is not a touch.
  return count >= 1 && endsOn(a, sb) < 2 && endsOn(b, sa) < 2;
}
