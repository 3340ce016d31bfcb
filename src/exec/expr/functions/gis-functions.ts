/**
 * Doris's spatial (ST_) functions. A GEOMETRY value is a VARCHAR holding geo-shapes.ts's binary form;
 * constructors give NULL for text that is not a valid shape, and every function gives NULL for an
 * argument that is not a geometry (Doris's behaviour), so bad input never fails a query.
 */
import type { Vector } from '../../../common/column';
import { Types, type DataType } from '../../../common/types';
import type { FunctionDef } from '../function-registry';
import { byteSource, NullsOut, valuesOrNulls } from '../kernels';
import { arg, defineFunction, type ArgSpec, type FunctionDecl } from '../signature';
import { fixedVector, StringOut, toF64 } from '../vector-ops';
import { encodePointInto, encodeShape, makeCircle, makePoint, parseWkb, parseWkt, POINT_BYTES, shapeOfBytes, shapeToWkb, shapeToWkt, type GeoShape } from './geo-shapes';
import { angleBetween, angleOf, contains, distanceMeters, EARTH_RADIUS_KM, EARTH_RADIUS_METERS, intersects, lengthMeters, steradians, touches, validLngLat } from './geo-sphere';

function gis(decl: Omit<FunctionDecl, 'family'>): FunctionDef {
  return defineFunction({ family: 'spatial', ...decl });
}

/** Per row, the bytes of a string argument. */
function bytesOf(vec: Vector): (rowIdx: number) => Uint8Array {
  const src = byteSource(vec);
  return (rowIdx) => src.bytes.subarray(src.starts[rowIdx], src.ends[rowIdx]);
}

/** Per row, the shape of a GEOMETRY argument (null: not one); a constant argument is decoded once. */
function shapesOf(vec: Vector, rowCount: number, isConst: boolean): (GeoShape | null)[] {
  const read = bytesOf(vec);
  if (isConst && rowCount > 0) return new Array<GeoShape | null>(rowCount).fill(shapeOfBytes(read(0)));
  const out: (GeoShape | null)[] = new Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = vec.nulls !== null && vec.nulls[rowIdx] === 1 ? null : shapeOfBytes(read(rowIdx));
  return out;
}

function shapeOut(site: { returnType: DataType }, rowCount: number, shapeAt: (rowIdx: number) => GeoShape | null): Vector {
  const out = new StringOut(site.returnType, rowCount, rowCount * 24);
  // Points (ST_Point over a column) reuse one buffer instead of allocating per row.
  const point = Buffer.alloc(POINT_BYTES);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const shape = shapeAt(rowIdx);
    if (shape === null) out.pushNull();
    else if (shape.kind === 'point') {
      encodePointInto(point, shape.x, shape.y);
      out.pushBytes(point, 0, POINT_BYTES);
    } else {
      const bytes = encodeShape(shape);
      out.pushBytes(bytes, 0, bytes.length);
    }
  }
  return out.finish();
}

const geoArg = (name: string): ArgSpec => arg(name, 'STRING');

/** A constructor from WKT; `only` keeps one kind (ST_LineFromText, ST_Polygon). */
function fromText(name: string, aliases: string[], only: GeoShape['kind'] | null, description: string, example: string): FunctionDef {
  return gis({
    name,
    aliases,
    args: [arg('wkt', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const read = bytesOf(args[0]);
      return shapeOut(site, rowCount, (rowIdx) => {
        const shape = parseWkt(Buffer.from(read(rowIdx)).toString('utf8'));
        return shape === null || (only !== null && shape.kind !== only) ? null : shape;
      });
    },
    description,
    example,
  });
}

/** A DOUBLE per row from one shape; null from `value` gives NULL. */
function shapeMeasure(name: string, value: (shape: GeoShape) => number | null, description: string, example: string): FunctionDef {
  return gis({
    name,
    args: [geoArg('geo')],
    returns: Types.DOUBLE,
    kernel: (args, rowCount, site) => {
      const shapes = shapesOf(args[0], rowCount, site.isConst[0]);
      return valuesOrNulls(Types.DOUBLE, new Float64Array(rowCount), rowCount, (rowIdx) => {
        const shape = shapes[rowIdx];
        return shape === null ? null : value(shape);
      });
    },
    description,
    example,
  });
}

/** A VARCHAR per row from one shape (text or bytes); null from `value` gives NULL. */
function shapeText(name: string, aliases: string[], value: (shape: GeoShape) => string | Uint8Array | null, description: string, example: string): FunctionDef {
  return gis({
    name,
    aliases,
    args: [geoArg('geo')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const shapes = shapesOf(args[0], rowCount, site.isConst[0]);
      const out = new StringOut(site.returnType, rowCount, rowCount * 32);
      for (const shape of shapes) {
        const result = shape === null ? null : value(shape);
        if (result === null) out.pushNull();
        else if (typeof result === 'string') out.push(result);
        else out.pushBytes(result, 0, result.length);
      }
      return out.finish();
    },
    description,
    example,
  });
}

/** A BOOLEAN per row from two shapes; NULL when either is not a geometry. */
function relation(name: string, test: (a: GeoShape, b: GeoShape) => boolean, description: string, example: string): FunctionDef {
  return gis({
    name,
    args: [geoArg('shape1'), geoArg('shape2')],
    returns: Types.BOOLEAN,
    kernel: (args, rowCount, site) => {
      const left = shapesOf(args[0], rowCount, site.isConst[0]);
      const right = shapesOf(args[1], rowCount, site.isConst[1]);
      const out = new Uint8Array(rowCount);
      const nulls = new NullsOut(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const a = left[rowIdx];
        const b = right[rowIdx];
        if (a === null || b === null) nulls.setNull(rowIdx);
        else out[rowIdx] = test(a, b) ? 1 : 0;
      }
      return fixedVector(Types.BOOLEAN, out, nulls.map);
    },
    description,
    example,
  });
}

/** A DOUBLE from four DOUBLE arguments (two lng/lat pairs); NULL for coordinates off the globe. */
function pairMeasure(name: string, value: (x1: number, y1: number, x2: number, y2: number) => number, description: string, example: string): FunctionDef {
  return gis({
    name,
    args: [arg('x_lng', 'DOUBLE'), arg('x_lat', 'DOUBLE'), arg('y_lng', 'DOUBLE'), arg('y_lat', 'DOUBLE')],
    returns: Types.DOUBLE,
    kernel: (args, rowCount) => {
      const [x1, y1, x2, y2] = args.map(toF64);
      return valuesOrNulls(Types.DOUBLE, new Float64Array(rowCount), rowCount, (rowIdx) => {
        if (!validLngLat(x1[rowIdx], y1[rowIdx]) || !validLngLat(x2[rowIdx], y2[rowIdx])) return null;
        return value(x1[rowIdx], y1[rowIdx], x2[rowIdx], y2[rowIdx]);
      });
    },
    description,
    example,
  });
}

/** ST_Angle / ST_Azimuth over point arguments; NULL when one is not a point or the angle is undefined. */
function pointsAngle(name: string, count: number, value: (points: GeoShape[]) => number | null, description: string, example: string): FunctionDef {
  return gis({
    name,
    args: Array.from({ length: count }, (_, idx) => geoArg(`point${idx + 1}`)),
    returns: Types.DOUBLE,
    kernel: (args, rowCount, site) => {
      const columns = args.map((vec, argIdx) => shapesOf(vec, rowCount, site.isConst[argIdx]));
      return valuesOrNulls(Types.DOUBLE, new Float64Array(rowCount), rowCount, (rowIdx) => {
        const points = columns.map((column) => column[rowIdx]);
        return points.every((shape) => shape !== null && shape.kind === 'point') ? value(points as GeoShape[]) : null;
      });
    },
    description,
    example,
  });
}

/** Doris reads point coordinates rounded to 13 decimals (GeoPoint::x / y). */
const round13 = (value: number): number => Number(value.toFixed(13));
const coordsOf = (shape: GeoShape): [number, number] => (shape.kind === 'point' ? [round13(shape.x), round13(shape.y)] : [0, 0]);

const GEOMETRY_TYPE: Record<GeoShape['kind'], string> = { point: 'ST_POINT', line: 'ST_LINESTRING', polygon: 'ST_POLYGON', circle: 'ST_CIRCLE', multipolygon: 'ST_MULTIPOLYGON' };

const POLYGON_EXAMPLE = "ST_Polygon('POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))')";

export const GIS_FUNCTIONS: readonly FunctionDef[] = [
  gis({
    name: 'st_point',
    args: [arg('x', 'DOUBLE'), arg('y', 'DOUBLE')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const [xs, ys] = args.map(toF64);
      return shapeOut(site, rowCount, (rowIdx) => makePoint(xs[rowIdx], ys[rowIdx]));
    },
    description: 'The point (x = longitude, y = latitude, in degrees) as a GEOMETRY; NULL off the globe.',
    example: 'SELECT ST_AsText(ST_Point(24.7, 56.7))',
  }),
  gis({
    name: 'st_circle',
    args: [arg('center_lng', 'DOUBLE'), arg('center_lat', 'DOUBLE'), arg('radius', 'DOUBLE')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const [xs, ys, radii] = args.map(toF64);
      return shapeOut(site, rowCount, (rowIdx) => makeCircle(xs[rowIdx], ys[rowIdx], radii[rowIdx]));
    },
    description: 'A circle on the sphere: center longitude and latitude in degrees, radius in meters.',
    example: 'SELECT ST_AsText(ST_Circle(111, 64, 10000))',
  }),
  fromText('st_geometryfromtext', ['st_geomfromtext'], null, 'The GEOMETRY of a WKT text (POINT, LINESTRING, POLYGON, MULTIPOLYGON); NULL for anything else.', "SELECT ST_AsText(ST_GeometryFromText('LINESTRING (1 1, 2 2)'))"),
  fromText('st_linefromtext', ['st_linestringfromtext'], 'line', 'The GEOMETRY of a LINESTRING WKT text; NULL for anything else.', "SELECT ST_AsText(ST_LineFromText('LINESTRING (1 1, 2 2)'))"),
  fromText('st_polygon', ['st_polyfromtext', 'st_polygonfromtext'], 'polygon', 'The GEOMETRY of a POLYGON WKT text (closed rings that do not cross themselves); NULL for anything else.', `SELECT ST_AsText(${POLYGON_EXAMPLE})`),
  shapeText('st_astext', ['st_aswkt'], shapeToWkt, "The WKT text of a GEOMETRY ('POINT (24.7 56.7)', 'CIRCLE ((111 64), 10000)').", 'SELECT ST_AsText(ST_Point(24.7, 56.7))'),
  shapeMeasure('st_x', (shape) => (shape.kind === 'point' ? round13(shape.x) : null), 'The longitude (x) of a point; NULL for other shapes.', 'SELECT ST_X(ST_Point(24.7, 56.7))'),
  shapeMeasure('st_y', (shape) => (shape.kind === 'point' ? round13(shape.y) : null), 'The latitude (y) of a point; NULL for other shapes.', 'SELECT ST_Y(ST_Point(24.7, 56.7))'),
  relation('st_contains', contains, 'Whether shape1 contains every point of shape2 (a point on a polygon\'s boundary is not contained).', `SELECT ST_Contains(${POLYGON_EXAMPLE}, ST_Point(5, 5))`),
  relation('st_intersects', intersects, 'Whether the two shapes share a point (boundaries included).', `SELECT ST_Intersects(${POLYGON_EXAMPLE}, ST_Point(5, 5))`),
  relation('st_disjoint', (a, b) => !intersects(a, b), 'Whether the two shapes share no point.', `SELECT ST_Disjoint(${POLYGON_EXAMPLE}, ST_Point(50, 50))`),
  relation('st_touches', touches, 'Whether the two shapes meet on their boundaries only, their interiors apart.', `SELECT ST_Touches(${POLYGON_EXAMPLE}, ST_LineFromText('LINESTRING (10 5, 15 5)'))`),
  pairMeasure('st_distance_sphere', (x1, y1, x2, y2) => angleBetween(x1, y1, x2, y2) * EARTH_RADIUS_METERS, 'The great-circle distance in meters between two (longitude, latitude) points on a sphere of radius 6371010 m.', 'SELECT ST_Distance_Sphere(116.35620117, 39.939093, 116.4274406433, 39.9020987219)'),
  pairMeasure('st_angle_sphere', (x1, y1, x2, y2) => (angleBetween(x1, y1, x2, y2) * 180) / Math.PI, 'The central angle in degrees between two (longitude, latitude) points.', 'SELECT ST_Angle_Sphere(116.35620117, 39.939093, 116.4274406433, 39.9020987219)'),
  pointsAngle('st_angle', 3, (points) => {
    const [[x1, y1], [x2, y2], [x3, y3]] = points.map(coordsOf);
    return angleOf(x1, y1, x2, y2, x3, y3);
  }, 'The angle in radians [0, 2π) at point2, clockwise from the direction of point3 to that of point1; NULL when point2 equals or is antipodal to another.', 'SELECT ST_Angle(ST_Point(1, 0), ST_Point(0, 0), ST_Point(0, 1))'),
  pointsAngle('st_azimuth', 2, (points) => {
    const [[x1, y1], [x2, y2]] = points.map(coordsOf);
    return angleOf(0, 90, x1, y1, x2, y2);
  }, 'The azimuth in radians [0, 2π) from point1 to point2, clockwise from north (Doris\'s ST_Angle with a north point); NULL for equal points.', 'SELECT ST_Azimuth(ST_Point(1, 0), ST_Point(0, 0))'),
  shapeMeasure('st_area_square_meters', (shape) => steradians(shape) * EARTH_RADIUS_METERS * EARTH_RADIUS_METERS, 'The area on the sphere in square meters of a polygon or circle; 0 for points and lines.', 'SELECT ST_Area_Square_Meters(ST_Circle(0, 0, 1))'),
  shapeMeasure('st_area_square_km', (shape) => steradians(shape) * EARTH_RADIUS_KM * EARTH_RADIUS_KM, 'The area on the sphere in square kilometers of a polygon or circle; 0 for points and lines.', "SELECT ST_Area_Square_Km(ST_Polygon('POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))'))"),
  shapeMeasure('st_length', lengthMeters, 'The length in meters of a line on the sphere, the perimeter of a polygon, the circumference of a circle; 0 for a point.', "SELECT ST_Length(ST_LineFromText('LINESTRING (0 0, 1 0)'))"),
  gis({
    name: 'st_distance',
    args: [geoArg('shape1'), geoArg('shape2')],
    returns: Types.DOUBLE,
    kernel: (args, rowCount, site) => {
      const left = shapesOf(args[0], rowCount, site.isConst[0]);
      const right = shapesOf(args[1], rowCount, site.isConst[1]);
      return valuesOrNulls(Types.DOUBLE, new Float64Array(rowCount), rowCount, (rowIdx) => {
        const a = left[rowIdx];
        const b = right[rowIdx];
        return a === null || b === null ? null : distanceMeters(a, b);
      });
    },
    description: 'The shortest distance in meters on the sphere between two shapes; 0 when they intersect.',
    example: "SELECT ST_Distance(ST_GeometryFromText('POINT (2 2)'), ST_GeometryFromText('LINESTRING (0 0, 10 0)'))",
  }),
  shapeText('st_geometrytype', [], (shape) => GEOMETRY_TYPE[shape.kind], 'The type name of a GEOMETRY: ST_POINT, ST_LINESTRING, ST_POLYGON, ST_MULTIPOLYGON or ST_CIRCLE.', 'SELECT ST_GeometryType(ST_Circle(0, 0, 100))'),
  shapeText('st_asbinary', [], shapeToWkb, 'The little-endian WKB bytes of a point, line, polygon or multipolygon; NULL for a circle.', 'SELECT hex(ST_AsBinary(ST_Point(24.7, 56.7)))'),
  gis({
    name: 'st_geometryfromwkb',
    aliases: ['st_geomfromwkb'],
    args: [arg('wkb', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const read = bytesOf(args[0]);
      return shapeOut(site, rowCount, (rowIdx) => parseWkb(read(rowIdx)));
    },
    description: 'The GEOMETRY of WKB bytes (either byte order, or their hex text); NULL when they are not a point, line, polygon or multipolygon.',
    example: 'SELECT ST_AsText(ST_GeometryFromWKB(ST_AsBinary(ST_Point(24.7, 56.7))))',
  }),
];
