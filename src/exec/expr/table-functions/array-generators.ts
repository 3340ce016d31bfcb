/**
 * Table functions over arrays: explode (one or more arrays, zipped: the longest sets the row count and the
 * shorter ones read NULL past their end, as Doris's explode(a, b)), posexplode (the 0-based position
 * first) and unnest (Doris's name for explode of one array). A NULL array generates no row; its `_outer`
 * twin keeps the input row with NULLs (table-function-registry.ts).
 *
 * The list layout (column.ts) makes this a walk over offsets: parentRows and element ids per array, then
 * one takeRows over each child.
 */
import { concatVectors, constantVector, takeRows, type ArrayVector, type StructVector, type Vector } from '../../../common/column';
import { DataType, elementType, mapKeyType, mapValueType, Types } from '../../../common/types';
import { badArgs } from '../function-registry';
import type { GeneratedRows, TableFunctionDecl, TableFunctionResolution } from './table-function-registry';

/** ARRAY arguments (a NULL literal or `[]` reads as ARRAY<TINYINT>, as element_at types them). */
function arraysResolution(name: string, types: readonly DataType[], withPosition: boolean): TableFunctionResolution {
  const argTypes = types.map((type) => {
    if (type.name === 'NULL') return Types.array(Types.TINYINT);
    if (type.name !== 'ARRAY') throw badArgs(name, types);
    return elementType(type).name === 'NULL' ? Types.array(Types.TINYINT) : type;
  });
  const columns = argTypes.map(elementType);
  return { argTypes, columns: withPosition ? [Types.INT, ...columns] : columns };
}

/** Rows of `child` by id, -1 reading NULL. */
function takeOrNull(child: Vector, type: DataType, ids: Int32Array, anyMissing: boolean): Vector {
  if (!anyMissing) return takeRows(child, ids);
  const withNull = concatVectors(type, [child, constantVector(type, null, 1)]);
  const nullRow = child.length;
  const picks = ids.map((id) => (id < 0 ? nullRow : id));
  return takeRows(withNull, picks);
}

function sizeOf(list: ArrayVector, rowIdx: number): number {
  return list.nulls !== null && list.nulls[rowIdx] === 1 ? 0 : list.offsets[rowIdx + 1] - list.offsets[rowIdx];
}

/** explode / posexplode over `args` (arrays of one batch). */
function explodeArrays(args: readonly Vector[], rowCount: number, columns: readonly DataType[], withPosition: boolean): GeneratedRows {
  const lists = args as readonly ArrayVector[];
  let total = 0;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    let longest = 0;
    for (const list of lists) longest = Math.max(longest, sizeOf(list, rowIdx));
    total += longest;
  }
  const parentRows = new Int32Array(total);
  const positions = withPosition ? new Int32Array(total) : null;
  const ids = lists.map(() => new Int32Array(total));
  const missing = lists.map(() => false);
  let outIdx = 0;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    let longest = 0;
    for (const list of lists) longest = Math.max(longest, sizeOf(list, rowIdx));
    for (let pos = 0; pos < longest; pos++) {
      parentRows[outIdx] = rowIdx;
      if (positions !== null) positions[outIdx] = pos;
      for (let listIdx = 0; listIdx < lists.length; listIdx++) {
        const list = lists[listIdx];
        if (pos < sizeOf(list, rowIdx)) ids[listIdx][outIdx] = list.offsets[rowIdx] + pos;
        else {
          ids[listIdx][outIdx] = -1;
          missing[listIdx] = true;
        }
      }
      outIdx++;
    }
  }
  const elementColumns = lists.map((list, listIdx) => takeOrNull(list.child, columns[listIdx + (withPosition ? 1 : 0)], ids[listIdx], missing[listIdx]));
  if (positions === null) return { parentRows, columns: elementColumns };
  return { parentRows, columns: [{ kind: 'fixed', type: Types.INT, length: total, values: positions, nulls: null }, ...elementColumns] };
}

export const ARRAY_TABLE_FUNCTIONS: readonly TableFunctionDecl[] = [
  {
    name: 'explode',
    outer: true,
    signature: 'explode(arr[, arr ...]) -> element type of each arr',
    minArgs: 1,
    maxArgs: Infinity,
    resolve: (types) => arraysResolution('explode', types, false),
    kernel: (args, rowCount, columns) => explodeArrays(args, rowCount, columns, false),
    description: 'One row per element; several arrays are zipped (the longest sets the row count, the others read NULL past their end). A NULL or empty array generates no row.',
    example: 'SELECT e FROM (SELECT 1) t LATERAL VIEW explode([1, 2, 3]) tmp AS e',
  },
  {
    name: 'posexplode',
    outer: true,
    signature: 'posexplode(arr[, arr ...]) -> INT position, element type of each arr',
    minArgs: 1,
    maxArgs: Infinity,
    resolve: (types) => arraysResolution('posexplode', types, true),
    kernel: (args, rowCount, columns) => explodeArrays(args, rowCount, columns, true),
    description: 'Like explode, with the 0-based position of the element as the first column.',
    example: "SELECT p, e FROM (SELECT 1) t LATERAL VIEW posexplode(['a', 'b']) tmp AS p, e",
  },
  {
    name: 'unnest',
    signature: 'unnest(arr[, arr ...]) -> element type of each arr',
    minArgs: 1,
    maxArgs: Infinity,
    resolve: (types) => arraysResolution('unnest', types, false),
    kernel: (args, rowCount, columns) => explodeArrays(args, rowCount, columns, false),
    description: 'The elements of the array as rows (explode under its SQL-standard name).',
    example: 'SELECT e FROM (SELECT 1) t LATERAL VIEW unnest([1, 2]) tmp AS e',
  },
  {
    name: 'explode_map',
    outer: true,
    signature: 'explode_map(map) -> key type, value type',
    minArgs: 1,
    maxArgs: 1,
    resolve: (types) => {
      if (types[0].name !== 'MAP') throw badArgs('explode_map', types);
      return { argTypes: types, columns: [mapKeyType(types[0]), mapValueType(types[0])] };
    },
    // A map is a list of STRUCT<key, value> entries: explode the entries, then split the struct.
    kernel: (args, rowCount) => {
      const exploded = explodeArrays(args, rowCount, [elementType(args[0].type)], false);
      const entries = exploded.columns[0] as StructVector;
      return { parentRows: exploded.parentRows, columns: [...entries.children] };
    },
    description: 'One row per map entry, as two columns (key, value). A NULL or empty map generates no row.',
    example: "SELECT k, v FROM (SELECT 1) t LATERAL VIEW explode_map(map('a', 1, 'b', 2)) tmp AS k, v",
  },
];
