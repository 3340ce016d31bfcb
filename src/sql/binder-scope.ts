/**
 * Name resolution scopes of the binder: the columns visible at one point of a query (a FROM clause's
 * tables, a subquery's output), each with its table qualifier. Names resolve case-insensitively as in
 * Doris; an unqualified name found in two tables is ambiguous (1052), a name found nowhere is unknown
 * (1054) with the clause named as MySQL does.
 */
import { GaleneError } from '../common/errors';
import type { DataType } from '../common/types';
import type { OutputColumn } from '../exec/plan/physical-plan';
import type { ColumnRefExpr, Span } from './ast';

/** Clause names as they appear in MySQL's "Unknown column 'x' in '...'" messages. */
export type Clause = 'field list' | 'where clause' | 'order clause' | 'group statement' | 'having clause' | 'on clause';

export interface ScopeColumn {
  readonly name: string;
  /** Table name or alias that qualifies it (null for derived values). */
  readonly qualifier: string | null;
  readonly database: string | null;
  /** Position in the plan output the scope describes. */
  readonly index: number;
  readonly type: DataType;
  /** The right-hand copy of a USING column: reachable only qualified, not expanded by `*`. */
  readonly hiddenUnqualified: boolean;
  readonly origin: OutputColumn;
}

function spanOf(node: Span): { offset: number; length: number } {
  return { offset: node.pos, length: Math.max(0, node.end - node.pos) };
}

export class Scope {
  readonly columns: readonly ScopeColumn[];

  constructor(columns: readonly ScopeColumn[]) {
    this.columns = columns;
  }

  static readonly EMPTY = new Scope([]);

  /** The columns of a plan output, all under one qualifier. */
  static of(output: readonly OutputColumn[], qualifier: string | null, database: string | null): Scope {
    return new Scope(output.map((origin, index) => ({ name: origin.name, qualifier, database, index, type: origin.type, hiddenUnqualified: false, origin })));
  }

  /** This scope followed by `other`, whose indices shift past this one's columns (joins). */
  concat(other: Scope): Scope {
    const shift = this.columns.length;
    return new Scope([...this.columns, ...other.columns.map((column) => ({ ...column, index: column.index + shift }))]);
  }

  /** True when some table of the scope is called `qualifier`. */
  hasQualifier(qualifier: string): boolean {
    const lower = qualifier.toLowerCase();
    return this.columns.some((column) => column.qualifier?.toLowerCase() === lower);
  }

  private matches(column: ScopeColumn, qualifier: readonly string[], lowerName: string): boolean {
    if (column.name.toLowerCase() !== lowerName) return false;
    if (qualifier.length === 0) return !column.hiddenUnqualified;
    const table = qualifier[qualifier.length - 1].toLowerCase();
    if (column.qualifier?.toLowerCase() !== table) return false;
    if (qualifier.length >= 2) return column.database?.toLowerCase() === qualifier[qualifier.length - 2].toLowerCase();
    return true;
  }

  /** The column a reference names, null when none; throws AMBIGUOUS_COLUMN when several match. */
  find(ref: Pick<ColumnRefExpr, 'qualifier' | 'name'> & Partial<Span>, clause: Clause): ScopeColumn | null {
    const lowerName = ref.name.toLowerCase();
    let found: ScopeColumn | null = null;
    for (const column of this.columns) {
      if (!this.matches(column, ref.qualifier, lowerName)) continue;
      if (found !== null) {
        throw new GaleneError('AMBIGUOUS_COLUMN', [[...ref.qualifier, ref.name].join('.'), clause], ref.pos !== undefined ? { span: spanOf(ref as Span) } : {});
      }
      found = column;
    }
    return found;
  }

  /** Whether an unqualified name resolves here (without throwing on ambiguity). */
  hasName(name: string): boolean {
    const lower = name.toLowerCase();
    return this.columns.some((column) => !column.hiddenUnqualified && column.name.toLowerCase() === lower);
  }
}

export function unknownColumn(ref: ColumnRefExpr, clause: Clause): GaleneError {
  return new GaleneError('UNKNOWN_COLUMN', [[...ref.qualifier, ref.name].join('.'), clause], { span: spanOf(ref) });
}
