/**
 * `FROM t PARTITION (p1, p2)` (also `PARTITIONS`): the rows of those partitions, as a filter on the
 * partition column that says exactly what the partitions hold — `col >= lower AND col < upper` per RANGE
 * partition, `col IN (...)` (and `col IS NULL`) per LIST one — so the planner's partition pruning keeps
 * just those partitions' tablets, as Doris's scan of a partition list does. Single-column partitioning
 * only; several partition columns are refused.
 */
import type { RawValue } from '../common/column';
import { parseValue } from '../common/convert';
import { GaleneError } from '../common/errors';
import { Types, type DataType } from '../common/types';
import type { BoundExpr } from '../exec/bound-expr';
import { partitionInfoOf, partitionsNamed, type PartitionBoundValue, type TableSchema } from '../meta/schema';

const literal = (type: DataType, value: RawValue): BoundExpr => ({ kind: 'literal', type, value });
const compare = (name: 'ge' | 'lt' | 'eq', left: BoundExpr, right: BoundExpr): BoundExpr => ({ kind: 'call', name, args: [left, right], type: Types.BOOLEAN });

function boundValue(type: DataType, value: PartitionBoundValue): BoundExpr | null {
  if (typeof value !== 'string') return null; // MINVALUE / MAXVALUE: no bound on that side
  return literal(type, parseValue(type, value).value);
}

/** The predicate (over the table's columns, `columnIdx` the partition column's position) or null: no restriction. */
export function partitionListFilter(table: TableSchema, names: readonly string[]): BoundExpr | null {
  const partitions = partitionsNamed(table, names);
  const info = partitionInfoOf(table);
  if (partitions === null || info === null) return null;
  if (info.columns.length !== 1) throw new GaleneError('UNSUPPORTED', ['FROM ... PARTITION (...) on a table partitioned by several columns']);
  const colIdx = table.columns.findIndex((column) => column.name.toLowerCase() === info.columns[0].toLowerCase());
  const column = table.columns[colIdx];
  const ref: BoundExpr = { kind: 'column', index: colIdx, type: column.type, name: column.name };
  const branches = partitions.map((partition): BoundExpr => {
    if (info.type === 'RANGE') {
      const lower = partition.lower ? boundValue(column.type, partition.lower[0]) : null;
      const upper = partition.upper ? boundValue(column.type, partition.upper[0]) : null;
      const parts = [...(lower ? [compare('ge', ref, lower)] : []), ...(upper ? [compare('lt', ref, upper)] : [])];
      if (parts.length === 0) return literal(Types.BOOLEAN, 1);
      return parts.length === 1 ? parts[0] : { kind: 'and', args: parts, type: Types.BOOLEAN };
    }
    const values = (partition.values ?? []).map((tuple) => tuple[0]);
    const present = values.filter((value): value is string => value !== null).map((value) => literal(column.type, parseValue(column.type, value).value));
    const parts: BoundExpr[] = [];
    if (present.length > 0) parts.push({ kind: 'in', operand: ref, list: present, negated: false, type: Types.BOOLEAN });
    if (values.includes(null)) parts.push({ kind: 'isnull', operand: ref, negated: false, type: Types.BOOLEAN });
    if (parts.length === 0) return literal(Types.BOOLEAN, 0);
    return parts.length === 1 ? parts[0] : { kind: 'or', args: parts, type: Types.BOOLEAN };
  });
  return branches.length === 1 ? branches[0] : { kind: 'or', args: branches, type: Types.BOOLEAN };
}
