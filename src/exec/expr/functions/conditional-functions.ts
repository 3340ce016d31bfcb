/**
 * Conditional functions: coalesce, if, ifnull/nvl, nullif. Their arguments unify to one common super
 * type; they read null maps themselves (nulls 'custom') and pick values per row with gatherBranches,
 * so a CASE-like choice between string constants stays dictionary-encoded.
 */
import { Vector } from '../../../common/column';
import { DataType, Types } from '../../../common/types';
import type { CallSite, FunctionDef, Resolution } from '../function-registry';
import { commonSuperType } from '../type-rules';
import { gatherBranches } from '../vector-ops';
import { compareVectors } from './comparison';

function unify(name: string, types: readonly DataType[]): DataType {
  const common = commonSuperType(types, name);
  return common.name === 'NULL' ? Types.TINYINT : common;
}

function resolveAllCommon(name: string) {
  return (types: readonly DataType[]): Resolution => {
    const common = unify(name, types);
    return { argTypes: types.map(() => common), returnType: common };
  };
}

function coalesceKernel(args: readonly Vector[], rowCount: number, site: CallSite): Vector {
  const choice = new Int32Array(rowCount).fill(-1);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    for (let argIdx = 0; argIdx < args.length; argIdx++) {
      const nulls = args[argIdx].nulls;
      if (nulls === null || nulls[rowIdx] === 0) {
        choice[rowIdx] = argIdx;
        break;
      }
    }
  }
  return gatherBranches(site.returnType, args, choice, rowCount);
}

export const CONDITIONAL_FUNCTIONS: readonly FunctionDef[] = [
  {
    name: 'coalesce',
    family: 'conditional',
    signature: 'coalesce(a, b, ...) -> common type',
    minArgs: 1,
    maxArgs: Infinity,
    resolve: resolveAllCommon('coalesce'),
    nulls: 'custom',
    kernel: coalesceKernel,
    description: 'The first non-NULL argument, or NULL.',
    example: "SELECT coalesce(NULL, 'x', 'y')",
  },
  {
    name: 'ifnull',
    aliases: ['nvl'],
    family: 'conditional',
    signature: 'ifnull(a, b) -> common type',
    minArgs: 2,
    maxArgs: 2,
    resolve: resolveAllCommon('ifnull'),
    nulls: 'custom',
    kernel: coalesceKernel,
    description: 'a unless it is NULL, then b.',
    example: 'SELECT ifnull(NULL, 5)',
  },
  {
    name: 'if',
    family: 'conditional',
    signature: 'if(cond, a, b) -> common type of a and b',
    minArgs: 3,
    maxArgs: 3,
    resolve: (types) => {
      const common = unify('if', types.slice(1));
      return { argTypes: [Types.BOOLEAN, common, common], returnType: common };
    },
    nulls: 'custom',
    kernel: (args, rowCount, site) => {
      const cond = args[0];
      const values = (cond as { values: ArrayLike<number> }).values;
      const nulls = cond.nulls;
      const choice = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) choice[rowIdx] = values[rowIdx] !== 0 && (nulls === null || nulls[rowIdx] === 0) ? 0 : 1;
      return gatherBranches(site.returnType, [args[1], args[2]], choice, rowCount);
    },
    description: 'b when cond is false or NULL, else a.',
    example: "SELECT if(1 > 2, 'yes', 'no')",
  },
  {
    name: 'nullif',
    family: 'conditional',
    signature: 'nullif(a, b) -> type of a',
    minArgs: 2,
    maxArgs: 2,
    resolve: resolveAllCommon('nullif'),
    nulls: 'custom',
    kernel: (args, rowCount, site) => {
      const [a, b] = args;
      const equal = compareVectors('eq', a, b, rowCount, site.isConst[1] ? 'vc' : 'vv');
      const choice = new Int32Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const bNull = b.nulls !== null && b.nulls[rowIdx] === 1;
        choice[rowIdx] = !bNull && equal[rowIdx] === 1 ? -1 : 0;
      }
      return gatherBranches(site.returnType, [a], choice, rowCount);
    },
    description: 'NULL when a = b, else a.',
    example: 'SELECT nullif(1, 1)',
  },
];
