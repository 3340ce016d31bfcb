/**
 * ARRAY functions: the constructor (`array(...)`, which `[a, b]` parses to), array_size / size /
 * cardinality, element_at (which `arr[i]` parses to), array_contains, and the exact vector distances
 * l1_distance, l2_distance, inner_product, cosine_distance, and the ANN forms l2_distance_approximate and
 * inner_product_approximate (same values; an ANN index answers them where the optimizer pushes them down).
 *
 * Kernels work on the list layout of column.ts (offsets + one child vector): sizes are offset
 * differences, element_at is one takeRows over the child, and the distances loop over the FLOAT child's
 * Float32Array directly, reading a constant second argument (the query vector) once.
 *
 * Distances follow Doris 4.x (be/src/vec/functions/array/function_array_distance.h): both arguments are
 * cast to ARRAY<FLOAT>, the result is FLOAT, a NULL array or a NULL element is an error ("First argument
 * for function l2_distance cannot be null" / "cannot have null"), arrays of different lengths are an error
 * ("function l2_distance have different input element sizes of array: 3 and 2"), and cosine_distance of an
 * empty or all-zero vector is 2.
 */
import { compactArray, concatVectors, constantVector, takeRows, type ArrayVector, type Vector } from '../../../common/column';
import { galeneError } from '../../../common/errors';
import { DataType, elementType, isNumericType, isStringType, mapKeyType, mapValueType, Types } from '../../../common/types';
import { distanceBatch, dotProduct, l2Squared, WASM_MIN_ELEMENTS, type DistanceKernelKind } from '../../../common/vector-distance';
import type { CallSite, FunctionDef, Resolution } from '../function-registry';
import { badArgs } from '../function-registry';
import { arg, defineFunction, rest } from '../signature';
import { commonSuperType } from '../type-rules';
import { rawReader } from '../vector-ops';
import { mapElementAtKernel } from './map-functions';

const FLOAT_ARRAY = Types.array(Types.FLOAT);

function requireArray(name: string, types: readonly DataType[]): DataType {
  if (types[0].name === 'NULL') return Types.array(Types.NULL);
  if (types[0].name !== 'ARRAY') throw badArgs(name, types);
  return types[0];
}

/** `array(a, b, ...)`: row r's elements are the arguments' row r, in order (the child is one gather). */
function arrayKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const element = elementType(site.returnType);
  const width = args.length;
  const offsets = new Int32Array(rowCount + 1);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) offsets[rowIdx + 1] = (rowIdx + 1) * width;
  if (width === 0) return { kind: 'array', type: site.returnType, length: rowCount, offsets, child: constantVector(element, null, 0), nulls: null };
  const all = concatVectors(element, args.map((vec) => ({ ...vec, type: element }) as Vector));
  const ids = new Int32Array(rowCount * width);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) for (let argIdx = 0; argIdx < width; argIdx++) ids[rowIdx * width + argIdx] = argIdx * rowCount + rowIdx;
  return { kind: 'array', type: site.returnType, length: rowCount, offsets, child: takeRows(all, ids), nulls: null };
}

function sizeKernel(args: readonly Vector[], rowCount: number): Vector {
  const list = args[0] as ArrayVector;
  const out = new BigInt64Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = BigInt(list.offsets[rowIdx + 1] - list.offsets[rowIdx]);
  return { kind: 'fixed', type: Types.BIGINT, length: rowCount, values: out, nulls: null };
}

/** element_at(arr, i): 1-based, negative counts from the end, NULL out of range. */
function elementAtKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const list = args[0] as ArrayVector;
  const index = args[1];
  if (list.child.length === 0) return constantVector(site.returnType, null, rowCount);
  const readIndex = rawReader(index);
  const ids = new Int32Array(rowCount);
  const nulls = new Uint8Array(rowCount);
  let anyNull = false;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const raw = readIndex(rowIdx);
    const at = raw === null ? 0 : Number(raw);
    const start = list.offsets[rowIdx];
    const size = list.offsets[rowIdx + 1] - start;
    const pos = at > 0 ? at - 1 : size + at;
    if (at === 0 || pos < 0 || pos >= size) {
      nulls[rowIdx] = 1;
      anyNull = true;
    } else {
      ids[rowIdx] = start + pos;
    }
  }
  const picked = takeRows(list.child, ids);
  if (!anyNull) return picked;
  if (picked.nulls !== null) for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) nulls[rowIdx] |= picked.nulls[rowIdx];
  return { ...picked, nulls } as Vector;
}

/** array_contains(arr, v): 1 when an element equals v (a NULL v finds a NULL element), NULL for a NULL array. */
function containsKernel(args: readonly Vector[], rowCount: number): Vector {
  const list = args[0] as ArrayVector;
  const readElement = rawReader(list.child);
  const readValue = rawReader(args[1]);
  const out = new Uint8Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    if (list.nulls !== null && list.nulls[rowIdx] === 1) continue;
    const wanted = readValue(rowIdx);
    for (let elemIdx = list.offsets[rowIdx]; elemIdx < list.offsets[rowIdx + 1]; elemIdx++) {
      if (readElement(elemIdx) === wanted) {
        out[rowIdx] = 1;
        break;
      }
    }
  }
  return { kind: 'fixed', type: Types.BOOLEAN, length: rowCount, values: out, nulls: list.nulls };
}

type DistanceLoop = (x: Float32Array, xStart: number, y: Float32Array, yStart: number, dim: number) => number;

const L1: DistanceLoop = (x, xStart, y, yStart, dim) => {
  let sum = 0;
  for (let elemIdx = 0; elemIdx < dim; elemIdx++) sum += Math.abs(x[xStart + elemIdx] - y[yStart + elemIdx]);
  return sum;
};

const L2: DistanceLoop = (x, xStart, y, yStart, dim) => Math.sqrt(l2Squared(x, xStart, y, yStart, dim));

const INNER_PRODUCT: DistanceLoop = dotProduct;

const COSINE: DistanceLoop = (x, xStart, y, yStart, dim) => {
  let dot = 0;
  let squaredX = 0;
  let squaredY = 0;
  for (let elemIdx = 0; elemIdx < dim; elemIdx++) {
    const xv = x[xStart + elemIdx];
    const yv = y[yStart + elemIdx];
    dot += xv * yv;
    squaredX += xv * xv;
    squaredY += yv * yv;
  }
  if (squaredX === 0 || squaredY === 0) return 2;
  return 1 - dot / Math.sqrt(squaredX * squaredY);
};

/** Doris's cosine_similarity: 1 - cosine_distance, 0 when a vector is all zeros. */
const COSINE_SIMILARITY: DistanceLoop = (x, xStart, y, yStart, dim) => {
  const distance = COSINE(x, xStart, y, yStart, dim);
  return distance === 2 ? 0 : 1 - distance;
};

/** The FLOAT child of an ARRAY<FLOAT> argument, checked for NULL arrays and NULL elements (Doris's errors). */
function floatChild(vec: Vector, rowCount: number, which: string, name: string): { offsets: Int32Array; values: Float32Array } {
  const list = vec as ArrayVector;
  if (list.nulls !== null) for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) if (list.nulls[rowIdx] === 1) throw galeneError('INVALID_ARGUMENT', `${which} argument for function ${name} cannot be null`);
  const child = list.child;
  if (child.kind !== 'fixed' || !(child.values instanceof Float32Array)) throw galeneError('INTERNAL', `${name}: expected a FLOAT child, got ${child.kind}`);
  if (child.nulls !== null) {
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      for (let elemIdx = list.offsets[rowIdx]; elemIdx < list.offsets[rowIdx + 1]; elemIdx++) {
        if (child.nulls[elemIdx] === 1) throw galeneError('INVALID_ARGUMENT', `${which} argument for function ${name} cannot have null`);
      }
    }
  }
  return { offsets: list.offsets, values: child.values };
}

/**
 * A column against a constant vector (the query) in one call of common/vector-distance.ts's batch kernel
 * (WebAssembly SIMD, results equal to the loop's bit for bit); false when the rows are not all `dim` long,
 * so the row loop reports the error.
 */
function batchAgainstConstant(kind: DistanceKernelKind, column: { offsets: Int32Array; values: Float32Array }, constant: { offsets: Int32Array; values: Float32Array }, rowCount: number, sqrt: boolean, out: Float32Array): boolean {
  const dim = constant.offsets[1] - constant.offsets[0];
  const start = column.offsets[0];
  for (let rowIdx = 1; rowIdx <= rowCount; rowIdx++) if (column.offsets[rowIdx] - start !== rowIdx * dim) return false;
  const distances = new Float64Array(rowCount);
  distanceBatch(kind, column.values.subarray(start, start + rowCount * dim), dim, rowCount, constant.values.subarray(constant.offsets[0], constant.offsets[1]), distances);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = sqrt ? Math.sqrt(distances[rowIdx]) : distances[rowIdx];
  return true;
}

function distanceKernel(loop: DistanceLoop, batchKind?: DistanceKernelKind) {
  return (args: readonly Vector[], rowCount: number, site: CallSite): Vector => {
    const out = new Float32Array(rowCount);
    if (rowCount > 0) {
      const left = floatChild(args[0], rowCount, 'First', site.name);
      // A constant second argument (the query vector) is read once, as row 0.
      const right = floatChild(args[1], site.isConst[1] ? 1 : rowCount, 'Second', site.name);
      const leftConst = site.isConst[0];
      const rightConst = site.isConst[1];
      // Both distances are symmetric, so a constant on either side is the query.
      if (batchKind && leftConst !== rightConst && rowCount * (left.offsets[1] - left.offsets[0]) >= WASM_MIN_ELEMENTS) {
        const sqrt = batchKind === 'l2Squared';
        if (rightConst ? batchAgainstConstant(batchKind, left, right, rowCount, sqrt, out) : batchAgainstConstant(batchKind, right, left, rowCount, sqrt, out)) {
          return { kind: 'fixed', type: Types.FLOAT, length: rowCount, values: out, nulls: null };
        }
      }
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const leftRow = leftConst ? 0 : rowIdx;
        const rightRow = rightConst ? 0 : rowIdx;
        const xStart = left.offsets[leftRow];
        const yStart = right.offsets[rightRow];
        const dim = left.offsets[leftRow + 1] - xStart;
        const otherDim = right.offsets[rightRow + 1] - yStart;
        if (dim !== otherDim) throw galeneError('INVALID_ARGUMENT', `function ${site.name} have different input element sizes of array: ${dim} and ${otherDim}`);
        out[rowIdx] = loop(left.values, xStart, right.values, yStart, dim);
      }
    }
    return { kind: 'fixed', type: Types.FLOAT, length: rowCount, values: out, nulls: null };
  };
}

/** cross_product(a, b): the 3-vector cross product as ARRAY<FLOAT>, with the distances' NULL and size errors. */
function crossProductKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const left = floatChild(args[0], rowCount, 'First', site.name);
  const right = floatChild(args[1], rowCount, 'Second', site.name);
  const values = new Float32Array(rowCount * 3);
  const offsets = new Int32Array(rowCount + 1);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const xStart = left.offsets[rowIdx];
    const yStart = right.offsets[rowIdx];
    const dim = left.offsets[rowIdx + 1] - xStart;
    const otherDim = right.offsets[rowIdx + 1] - yStart;
    if (dim !== otherDim) throw galeneError('INVALID_ARGUMENT', `function ${site.name} have different input element sizes of array: ${dim} and ${otherDim}`);
    if (dim !== 3) throw galeneError('INVALID_ARGUMENT', `function ${site.name} requires arrays of size 3`);
    const [x1, x2, x3] = [left.values[xStart], left.values[xStart + 1], left.values[xStart + 2]];
    const [y1, y2, y3] = [right.values[yStart], right.values[yStart + 1], right.values[yStart + 2]];
    values[rowIdx * 3] = x2 * y3 - x3 * y2;
    values[rowIdx * 3 + 1] = x3 * y1 - x1 * y3;
    values[rowIdx * 3 + 2] = x1 * y2 - x2 * y1;
    offsets[rowIdx + 1] = (rowIdx + 1) * 3;
  }
  return { kind: 'array', type: FLOAT_ARRAY, length: rowCount, offsets, child: { kind: 'fixed', type: Types.FLOAT, length: rowCount * 3, values, nulls: null }, nulls: null };
}

/** Distances take numeric arrays (cast to ARRAY<FLOAT>, as Doris does) or their text, and return FLOAT. */
function resolveDistance(name: string) {
  return (types: readonly DataType[]): Resolution => {
    for (const type of types) {
      // NULL, and text such as a prepared statement's string parameter '[0.1, 0.2]', cast to ARRAY<FLOAT>.
      if (type.name === 'NULL' || isStringType(type)) continue;
      if (type.name !== 'ARRAY' || !(isNumericType(elementType(type)) || elementType(type).name === 'NULL')) throw badArgs(name, types);
    }
    return { argTypes: [FLOAT_ARRAY, FLOAT_ARRAY], returnType: Types.FLOAT };
  };
}

function distance(name: string, loop: DistanceLoop, description: string, example: string, batchKind?: DistanceKernelKind): FunctionDef {
  return defineFunction({
    name,
    family: 'array',
    args: [arg('array1'), arg('array2')],
    returns: Types.FLOAT,
    resolve: resolveDistance(name),
    nulls: 'custom',
    kernel: distanceKernel(loop, batchKind),
    description,
    example,
  });
}

export const ARRAY_FUNCTIONS: readonly FunctionDef[] = [
  defineFunction({
    name: 'array',
    family: 'array',
    args: [rest('element', undefined, true)],
    returns: 'ARRAY<common type>',
    resolve: (types) => {
      const common = commonSuperType(types, 'array');
      return { argTypes: types.map(() => common), returnType: Types.array(common) };
    },
    nulls: 'custom',
    kernel: arrayKernel,
    description: 'An array of the arguments (their common type); `[a, b, ...]` is the same.',
    example: 'SELECT array(1, 2, 3), [0.5, 1.5]',
  }),
  defineFunction({
    name: 'array_size',
    aliases: ['size', 'cardinality'],
    family: 'array',
    args: [arg('arr')],
    returns: Types.BIGINT,
    // A map is a list of entries too: size(m) / cardinality(m) count its entries, as map_size does.
    resolve: (types) => ({ argTypes: [types[0].name === 'MAP' ? types[0] : requireArray('array_size', types)], returnType: Types.BIGINT }),
    kernel: sizeKernel,
    description: 'Number of elements of an array (NULL elements count), or of entries of a map; NULL for a NULL array.',
    example: 'SELECT array_size([1, NULL, 3])',
  }),
  defineFunction({
    name: 'element_at',
    family: 'array',
    args: [arg('arr'), arg('index', 'BIGINT')],
    returns: 'element type',
    resolve: (types) => {
      if (types[0].name === 'MAP') {
        // element_at(map, key) / m['k']: the key casts to the map's key type.
        const keyType = commonSuperType([mapKeyType(types[0]), types[1]], 'element_at');
        return { argTypes: [Types.map(keyType, mapValueType(types[0])), keyType], returnType: mapValueType(types[0]).name === 'NULL' ? Types.TINYINT : mapValueType(types[0]) };
      }
      const arrayType = requireArray('element_at', types);
      return { argTypes: [arrayType, Types.BIGINT], returnType: elementType(arrayType).name === 'NULL' ? Types.TINYINT : elementType(arrayType) };
    },
    kernel: (args, rowCount, site) => (args[0].type.name === 'MAP' ? mapElementAtKernel(args, rowCount, site) : elementAtKernel(args, rowCount, site)),
    description: "The element at a 1-based index (negative counts from the end); NULL out of range. `arr[i]` is the same. On a map, the key's value (NULL when absent); `m[key]` is the same.",
    example: 'SELECT element_at([10, 20, 30], 2), [10, 20, 30][-1]',
  }),
  defineFunction({
    name: 'array_contains',
    family: 'array',
    args: [arg('arr'), arg('value')],
    returns: Types.BOOLEAN,
    resolve: (types) => {
      const arrayType = requireArray('array_contains', types);
      const common = commonSuperType([elementType(arrayType), types[1]], 'array_contains');
      return { argTypes: [Types.array(common), common], returnType: Types.BOOLEAN };
    },
    nulls: 'custom',
    kernel: containsKernel,
    description: 'Whether the array has an element equal to the value (a NULL value finds a NULL element); NULL for a NULL array.',
    example: "SELECT array_contains(['a', 'b'], 'b')",
  }),
  defineFunction({
    name: 'array_cross_product',
    aliases: ['cross_product'],
    family: 'array',
    args: [arg('arr1'), arg('arr2')],
    returns: FLOAT_ARRAY,
    resolve: (types) => ({ argTypes: resolveDistance('array_cross_product')(types).argTypes, returnType: FLOAT_ARRAY }),
    nulls: 'custom',
    kernel: crossProductKernel,
    description: 'The cross product of two numeric arrays of 3 elements, as ARRAY<FLOAT>; a NULL array or element, or another size, is an error.',
    example: 'SELECT array_cross_product([1, 2, 3], [2, 3, 4])',
  }),
  distance('l1_distance', L1, 'Manhattan (L1) distance of two numeric arrays of one length, as FLOAT.', 'SELECT l1_distance([4, 5], [6, 8])'),
  distance('l2_distance', L2, 'Euclidean (L2) distance of two numeric arrays of one length, as FLOAT.', 'SELECT l2_distance([4, 5], [6, 8])', 'l2Squared'),
  distance('inner_product', INNER_PRODUCT, 'Inner (dot) product of two numeric arrays of one length, as FLOAT.', 'SELECT inner_product([1, 2], [3, 4])', 'dotProduct'),
  distance('cosine_distance', COSINE, '1 - cosine similarity of two numeric arrays of one length, as FLOAT (2 when a vector is all zeros).', 'SELECT cosine_distance([1, 2], [2, 4])'),
  distance('cosine_similarity', COSINE_SIMILARITY, 'Cosine similarity of two numeric arrays of one length, as FLOAT (0 when a vector is all zeros).', 'SELECT cosine_similarity([1, 2], [2, 4])'),
  // The ANN forms: the same values; the ann_index_pushdown rule (src/sql/rules/ann-index-pushdown.ts) answers
  // them from an ANN index of the column with the same metric, and they are computed exactly anywhere else.
  distance('l2_distance_approximate', L2, 'l2_distance, answered from an ANN index (metric l2_distance) of the column where the query shape allows (ORDER BY ... LIMIT, range predicates); exact elsewhere.', 'SELECT l2_distance_approximate([4, 5], [6, 8])'),
  distance('inner_product_approximate', INNER_PRODUCT, 'inner_product, answered from an ANN index (metric inner_product) of the column where the query shape allows (ORDER BY ... DESC LIMIT, range predicates); exact elsewhere.', 'SELECT inner_product_approximate([1, 2], [3, 4])'),
];
