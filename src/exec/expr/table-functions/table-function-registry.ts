/**
 * The table-function registry: Doris's generators for `LATERAL VIEW fn(args) t AS c1[, c2 ...]` (explode,
 * posexplode, explode_split, explode_numbers, explode_json_*, json_each ...). A table function is one
 * declaration (TableFunctionDef): its name, how it types its arguments and the columns it generates, and a
 * kernel that turns one batch of argument vectors into generated rows.
 *
 * A kernel never builds per-row objects: it answers `parentRows` (for each generated row, the input row it
 * came from, non-decreasing) and one vector per generated column, so the Generate operator repeats the
 * input columns with one takeRows. The `_outer` twin of a declaration (`outer: true`) is derived here: it
 * adds one row of NULLs for every input row that generated none (a NULL or empty input), as Doris does.
 *
 * Adding a table function: one declaration in a family file of this folder and its array in
 * all-table-functions.ts (explode_map and explode_bitmap go in beside their MAP and BITMAP types).
 */
import { concatVectors, constantVector, takeRows, type Vector } from '../../../common/column';
import { galeneError } from '../../../common/errors';
import type { DataType } from '../../../common/types';

/** What a kernel generates from one batch of `rowCount` input rows. */
export interface GeneratedRows {
  /** For each generated row, its input row (non-decreasing). */
  readonly parentRows: Int32Array;
  /** One vector per generated column, parentRows.length rows each. */
  readonly columns: readonly Vector[];
}

export interface TableFunctionResolution {
  /** Types to cast the arguments to. */
  readonly argTypes: readonly DataType[];
  /** The generated columns' types, in order. */
  readonly columns: readonly DataType[];
}

export type TableFunctionKernel = (args: readonly Vector[], rowCount: number, columns: readonly DataType[]) => GeneratedRows;

export interface TableFunctionDef {
  /** Canonical name, lower case (Doris's name). */
  readonly name: string;
  readonly aliases?: readonly string[];
  /** Human signature for SHOW FUNCTIONS, e.g. 'explode(arr[, arr ...]) -> element type'. */
  readonly signature: string;
  readonly minArgs: number;
  readonly maxArgs: number;
  /** Throws TYPE_MISMATCH (badArgs) for arguments it cannot take. */
  readonly resolve: (argTypes: readonly DataType[]) => TableFunctionResolution;
  readonly kernel: TableFunctionKernel;
  readonly description: string;
  /** A query that runs as a test (test/exec-expr/examples.test.ts runs scalar ones; table ones run in the SQL corpus). */
  readonly example: string;
}

/** A declaration; `outer: true` also registers `<name>_outer`. */
export interface TableFunctionDecl extends TableFunctionDef {
  readonly outer?: boolean;
}

const registry = new Map<string, TableFunctionDef>();
const canonical: TableFunctionDef[] = [];

/** Add declarations (each family file's array); names must be unique. */
export function registerTableFunctions(decls: readonly TableFunctionDecl[]): void {
  for (const decl of decls) {
    const { outer, ...def } = decl;
    add(def);
    if (outer === true) add(outerOf(def));
  }
}

function add(def: TableFunctionDef): void {
  for (const name of [def.name, ...(def.aliases ?? [])]) {
    if (registry.has(name)) throw galeneError('INTERNAL', `table function ${name} declared twice`);
    registry.set(name, def);
  }
  canonical.push(def);
}

/** The `_outer` twin: every input row that generated no row gets one row of NULLs. */
function outerOf(def: TableFunctionDef): TableFunctionDef {
  const name = `${def.name}_outer`;
  return {
    ...def,
    name,
    aliases: (def.aliases ?? []).map((alias) => `${alias}_outer`),
    signature: def.signature.replace(def.name, name),
    description: `${def.description} The _outer form gives one row of NULLs for an input that generates none (NULL or empty).`,
    example: def.example.replace(`${def.name}(`, `${name}(`),
    kernel: (args, rowCount, columns) => keepEveryRow(def.kernel(args, rowCount, columns), rowCount, columns),
  };
}

/** Add a NULL row for each input row absent from `rows.parentRows`. */
function keepEveryRow(rows: GeneratedRows, rowCount: number, types: readonly DataType[]): GeneratedRows {
  const { parentRows } = rows;
  const generated = parentRows.length;
  let missing = 0;
  let cursor = 0;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    if (cursor < generated && parentRows[cursor] === rowIdx) while (cursor < generated && parentRows[cursor] === rowIdx) cursor++;
    else missing++;
  }
  if (missing === 0) return rows;
  const total = generated + missing;
  const parents = new Int32Array(total);
  // Index into each column followed by one NULL row (at position `generated`).
  const picks = new Int32Array(total);
  cursor = 0;
  let outIdx = 0;
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    if (cursor < generated && parentRows[cursor] === rowIdx) {
      while (cursor < generated && parentRows[cursor] === rowIdx) {
        parents[outIdx] = rowIdx;
        picks[outIdx++] = cursor++;
      }
    } else {
      parents[outIdx] = rowIdx;
      picks[outIdx++] = generated;
    }
  }
  const columns = rows.columns.map((vec, colIdx) => takeRows(concatVectors(types[colIdx], [vec, constantVector(types[colIdx], null, 1)]), picks));
  return { parentRows: parents, columns };
}

/** The declaration of a table function by name or alias (case-insensitive), or undefined. */
export function lookupTableFunction(name: string): TableFunctionDef | undefined {
  return registry.get(name.toLowerCase());
}

/** Every table function (one entry per canonical name, `_outer` twins included), for SHOW FUNCTIONS and docs. */
export function listTableFunctions(): readonly TableFunctionDef[] {
  return canonical;
}
