/**
 * Comparison operators (= != < <= > >= <=>) and XOR. Both operands are cast to their common super type
 * (commonSuperType, comparison context), so a kernel compares two vectors of one physical layout:
 * numbers with generated branch-free loops (column vs constant special-cased), 64-bit integers on their
 * high/low words without BigInt, strings on UTF-8 bytes (Doris's binary collation) without decoding.
 * Dictionary-encoded columns compared with a constant are handled by the engine (once per entry).
 */
import { Vector } from '../../../common/column';
import { DataType, physicalKind, Types } from '../../../common/types';
import type { CallSite, FunctionDef, Resolution } from '../function-registry';
import { binaryLoop, LoopShape } from '../loop-gen';
import { commonSuperType } from '../type-rules';
import { compareBytes } from '../../../common/bytes';
import { compareStrings } from '../../../common/utf8';
import { i64Views, outputU8, toJsStrings } from '../vector-ops';

export type CompareOp = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge';

const TEMPLATES: Record<CompareOp, string> = {
  eq: 'x === y ? 1 : 0',
  ne: 'x !== y ? 1 : 0',
  lt: 'x < y ? 1 : 0',
  le: 'x <= y ? 1 : 0',
  gt: 'x > y ? 1 : 0',
  ge: 'x >= y ? 1 : 0',
};

/** Does an order result (negative / 0 / positive) satisfy the operator? */
function holds(op: CompareOp, order: number): number {
  switch (op) {
    case 'eq':
      return order === 0 ? 1 : 0;
    case 'ne':
      return order !== 0 ? 1 : 0;
    case 'lt':
      return order < 0 ? 1 : 0;
    case 'le':
      return order <= 0 ? 1 : 0;
    case 'gt':
      return order > 0 ? 1 : 0;
    case 'ge':
      return order >= 0 ? 1 : 0;
  }
}

export function resolveComparison(name: string, types: readonly DataType[]): Resolution {
  const common = commonSuperType(types, 'comparison');
  const target = common.name === 'NULL' ? Types.BOOLEAN : common;
  return { argTypes: types.map(() => target), returnType: Types.BOOLEAN };
}

function shapeOf(site: CallSite): LoopShape {
  if (site.isConst[1]) return 'vc';
  if (site.isConst[0]) return 'cv';
  return 'vv';
}

/** 0/1 per row: `op` holds between the two vectors (values under NULL are don't-care). */
export function compareVectors(op: CompareOp, left: Vector, right: Vector, rowCount: number, shape: LoopShape, site: CallSite | null = null): Uint8Array {
  const out = outputU8(site, rowCount);
  if (rowCount === 0) return out;
  const kind = physicalKind(left.type);
  if (left.kind === 'fixed' && right.kind === 'fixed' && !(left.values instanceof BigInt64Array) && !(right.values instanceof BigInt64Array)) {
    const a = left.values as unknown as ArrayLike<number>;
    const b = right.values as unknown as ArrayLike<number>;
    binaryLoop(TEMPLATES[op], shape, a, b, out)(a, b, out, rowCount);
    return out;
  }
  if (left.kind === 'fixed' && right.kind === 'fixed' && left.values instanceof BigInt64Array && right.values instanceof BigInt64Array) {
    const av = i64Views(left.values);
    const bv = i64Views(right.values);
    const constRight = shape === 'vc';
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const bIdx = constRight ? 0 : rowIdx * 2;
      const ah = av.hi[rowIdx * 2 + 1];
      const bh = bv.hi[bIdx + 1];
      const al = av.lo[rowIdx * 2];
      const bl = bv.lo[bIdx];
      const order = ah !== bh ? ah - bh : al - bl;
      out[rowIdx] = holds(op, order);
    }
    return out;
  }
  if (left.kind === 'object' || right.kind === 'object' || kind === 'bigint' || kind === 'i64') {
    const a = (left as { values: ArrayLike<bigint> }).values;
    const b = (right as { values: ArrayLike<bigint> }).values;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const x = a[rowIdx];
      const y = b[rowIdx];
      out[rowIdx] = holds(op, x < y ? -1 : x > y ? 1 : 0);
    }
    return out;
  }
  // Strings.
  if (left.kind === 'string' && right.kind === 'string') {
    const { offsets: ao, bytes: ab } = left;
    const { offsets: bo, bytes: bb } = right;
    if (op === 'eq' || op === 'ne') {
      const want = op === 'eq' ? 1 : 0;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const aStart = ao[rowIdx];
        const len = ao[rowIdx + 1] - aStart;
        const bStart = bo[rowIdx];
        let equal = len === bo[rowIdx + 1] - bStart ? 1 : 0;
        for (let byteIdx = 0; equal === 1 && byteIdx < len; byteIdx++) if (ab[aStart + byteIdx] !== bb[bStart + byteIdx]) equal = 0;
        out[rowIdx] = equal === want ? 1 : 0;
      }
      return out;
    }
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = holds(op, compareBytes(ab, ao[rowIdx], ao[rowIdx + 1], bb, bo[rowIdx], bo[rowIdx + 1]));
    return out;
  }
  if (left.kind === 'string' && right.kind === 'dict' && shape === 'vc') {
    const constant = new TextEncoder().encode(right.dict[right.codes[0]]);
    const { offsets, bytes } = left;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = holds(op, compareBytes(bytes, offsets[rowIdx], offsets[rowIdx + 1], constant, 0, constant.length));
    return out;
  }
  if (left.kind === 'dict' && right.kind === 'string' && shape === 'cv') {
    const constant = new TextEncoder().encode(left.dict[left.codes[0]]);
    const { offsets, bytes } = right;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = holds(op, compareBytes(constant, 0, constant.length, bytes, offsets[rowIdx], offsets[rowIdx + 1]));
    return out;
  }
  if (left.kind === 'dict' && right.kind === 'dict' && left.dict === right.dict && (op === 'eq' || op === 'ne')) {
    const want = op === 'eq' ? 1 : 0;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = (left.codes[rowIdx] === right.codes[rowIdx] ? 1 : 0) === want ? 1 : 0;
    return out;
  }
  const a = toJsStrings(left);
  const b = toJsStrings(right);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const x = a[rowIdx];
    const y = b[rowIdx];
    out[rowIdx] = x === null || y === null ? 0 : holds(op, compareStrings(x, y));
  }
  return out;
}

function comparison(op: CompareOp, symbol: string, description: string): FunctionDef {
  return {
    name: op,
    family: 'comparison',
    signature: `a ${symbol} b -> BOOLEAN`,
    minArgs: 2,
    maxArgs: 2,
    resolve: (types) => resolveComparison(op, types),
    nulls: 'propagate',
    kernel: (args, rowCount, site) => ({ kind: 'fixed', type: Types.BOOLEAN, length: rowCount, values: compareVectors(op, args[0], args[1], rowCount, shapeOf(site), site), nulls: null }),
    description,
    example: `SELECT 1 ${symbol} 2`,
  };
}

export const COMPARISON_FUNCTIONS: readonly FunctionDef[] = [
  comparison('eq', '=', 'Equality; NULL when either side is NULL.'),
  comparison('ne', '!=', 'Inequality (also <>).'),
  comparison('lt', '<', 'Less than; strings compare as UTF-8 bytes.'),
  comparison('le', '<=', 'Less than or equal.'),
  comparison('gt', '>', 'Greater than.'),
  comparison('ge', '>=', 'Greater than or equal.'),
  {
    name: 'eq_null_safe',
    family: 'comparison',
    signature: 'a <=> b -> BOOLEAN',
    minArgs: 2,
    maxArgs: 2,
    resolve: (types) => resolveComparison('eq_null_safe', types),
    nulls: 'custom',
    kernel: (args, rowCount, site) => {
      const [left, right] = args;
      const out = compareVectors('eq', left, right, rowCount, shapeOf(site));
      const an = left.nulls;
      const bn = right.nulls;
      if (an !== null || bn !== null) {
        for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
          const aNull = an === null ? 0 : an[rowIdx];
          const bNull = bn === null ? 0 : bn[rowIdx];
          out[rowIdx] = aNull | bNull ? aNull & bNull : out[rowIdx];
        }
      }
      return { kind: 'fixed', type: Types.BOOLEAN, length: rowCount, values: out, nulls: null };
    },
    description: 'Null-safe equality: NULL <=> NULL is true, never NULL.',
    example: 'SELECT NULL <=> NULL',
  },
  {
    name: 'xor',
    family: 'logical',
    signature: 'a XOR b -> BOOLEAN',
    minArgs: 2,
    maxArgs: 2,
    resolve: (types) => ({ argTypes: types.map(() => Types.BOOLEAN), returnType: Types.BOOLEAN }),
    nulls: 'propagate',
    kernel: (args, rowCount) => {
      const a = (args[0] as { values: Uint8Array }).values;
      const b = (args[1] as { values: Uint8Array }).values;
      const out = new Uint8Array(rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = (a[rowIdx] !== 0 ? 1 : 0) ^ (b[rowIdx] !== 0 ? 1 : 0);
      return { kind: 'fixed', type: Types.BOOLEAN, length: rowCount, values: out, nulls: null };
    },
    description: 'Logical exclusive OR; NULL when either side is NULL.',
    example: 'SELECT TRUE XOR FALSE',
  },
];
