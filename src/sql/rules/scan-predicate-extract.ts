/**
 * Turns filter conjuncts over a scan's output into ScanPredicates on stored columns, when they have a shape
 * storage can prune with: `col op literal` (either side), `col IN (literals)`, `col IS [NOT] NULL`
 * (BETWEEN arrives as two comparisons). A column under an order-preserving widening cast (INT to BIGINT or
 * DOUBLE, DATE to DATETIME) qualifies when the literal converts back to the column's type exactly.
 * Anything else returns null: the predicate simply is not pushed (the Filter above re-checks anyway).
 */
import type { RawValue } from '../../common/column';
import { MICROS_PER_DAY } from '../../common/datetime';
import { isIntegerType, isStringType, physicalKind, type DataType } from '../../common/types';
import type { BoundExpr } from '../../exec/bound-expr';
import type { ScanPredicate } from '../../common/scan-predicate';
import type { LogicalScan } from '../logical-plan';

const FLIP: Readonly<Record<string, '=' | '<' | '<=' | '>' | '>='>> = { '=': '=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };
const CALL_OPS: Readonly<Record<string, '=' | '<' | '<=' | '>' | '>='>> = { eq: '=', lt: '<', le: '<=', gt: '>', ge: '>=' };

/** The scan column an expression reads, directly or under a widening cast. */
function scanColumn(expr: BoundExpr): { index: number; type: DataType } | null {
  if (expr.kind === 'column') return { index: expr.index, type: expr.type };
  if (expr.kind === 'cast' && expr.operand.kind === 'column') {
    const from = expr.operand.type;
    const to = expr.type;
    const widening =
      (isIntegerType(from) && from.name !== 'LARGEINT' && (isIntegerType(to) || to.name === 'DOUBLE')) ||
      (from.name === 'FLOAT' && to.name === 'DOUBLE') ||
      (from.name === 'DATE' && to.name === 'DATETIME') ||
      (isStringType(from) && isStringType(to));
    if (widening) return { index: expr.operand.index, type: from };
  }
  return null;
}

/** The literal as a raw value of `columnType`, or undefined when no exact conversion exists. */
export function literalForColumn(value: RawValue, literalType: DataType, columnType: DataType): RawValue | undefined {
  if (value === null) return undefined;
  if (isStringType(columnType)) return isStringType(literalType) ? value : undefined;
  if (isStringType(literalType)) return undefined;
  if (columnType.name === 'DATE') {
    if (literalType.name === 'DATE') return value;
    if (literalType.name === 'DATETIME') {
      const micros = Number(value);
      return micros % MICROS_PER_DAY === 0 ? micros / MICROS_PER_DAY : undefined;
    }
    return undefined;
  }
  if (columnType.name === 'DATETIME') return literalType.name === 'DATETIME' ? value : undefined;
  if (literalType.name === 'DATE' || literalType.name === 'DATETIME') return undefined;
  if (columnType.name === 'DECIMAL') {
    return literalType.name === 'DECIMAL' && (literalType.scale ?? 0) === (columnType.scale ?? 0) && physicalKind(literalType) === physicalKind(columnType) ? value : undefined;
  }
  // Numeric literal as an exact number.
  let num: number;
  if (literalType.name === 'DECIMAL') {
    const scale = literalType.scale ?? 0;
    num = Number(value) / 10 ** scale;
  } else {
    num = Number(value);
  }
  if (isIntegerType(columnType)) {
    const kind = physicalKind(columnType);
    if (typeof value === 'bigint' && literalType.name !== 'DECIMAL') return kind === 'i64' || kind === 'bigint' ? value : Number(value);
    if (!Number.isInteger(num)) return undefined;
    return kind === 'i64' || kind === 'bigint' ? BigInt(num) : num;
  }
  if (columnType.name === 'DOUBLE' || columnType.name === 'FLOAT' || columnType.name === 'BOOLEAN') return Number.isFinite(num) ? num : undefined;
  return undefined;
}

/** The ScanPredicate a conjunct over `scan`'s output amounts to, or null. */
export function toScanPredicate(pred: BoundExpr, scan: LogicalScan): ScanPredicate | null {
  if (pred.kind === 'isnull') {
    const col = scanColumn(pred.operand);
    return col ? { column: scan.columns[col.index], op: pred.negated ? 'isnotnull' : 'isnull' } : null;
  }
  if (pred.kind === 'in' && !pred.negated) {
    const col = scanColumn(pred.operand);
    if (!col || !pred.list.every((item) => item.kind === 'literal')) return null;
    const values: RawValue[] = [];
    for (const item of pred.list) {
      if (item.kind !== 'literal') return null;
      if (item.value === null) continue;
      const value = literalForColumn(item.value, item.type, col.type);
      if (value === undefined) return null;
      values.push(value);
    }
    return { column: scan.columns[col.index], op: 'in', values };
  }
  if (pred.kind === 'call' && pred.args.length === 2 && CALL_OPS[pred.name]) {
    let op = CALL_OPS[pred.name];
    let [colSide, litSide] = pred.args;
    if (scanColumn(colSide) === null || litSide.kind !== 'literal') {
      [litSide, colSide] = pred.args;
      op = FLIP[op];
    }
    const col = scanColumn(colSide);
    if (!col || litSide.kind !== 'literal') return null;
    const value = literalForColumn(litSide.value, litSide.type, col.type);
    if (value === undefined) return null;
    return { column: scan.columns[col.index], op, value };
  }
  return null;
}
