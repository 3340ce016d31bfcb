/**
 * Binding expressions with no statement around them — Stream Load column mappings and filters, generated
 * column expressions: a planning context that reads no tables and no session, and scope columns of a
 * table's (or a load's source's) columns.
 */
import { QueryProfile } from '../common/profile';
import { Types } from '../common/types';
import { GaleneError } from '../common/errors';
import type { PlanningContext } from '../exec/context';
import type { ScopeColumn } from '../sql/binder-scope';

/** What binding a load's expressions may ask: no tables, no `?` parameters, no system variables; user variables are NULL. */
export function loadBindingContext(database: string): PlanningContext {
  const noTables = (): never => {
    throw new GaleneError('UNSUPPORTED', ['table references in Stream Load expressions']);
  };
  return {
    profile: new QueryProfile('stream-load', '', 'load', database),
    parameters: [],
    sessionInfo: { user: 'load', host: '', connectionId: 0, version: '', database, statementStartMillis: Date.now() },
    getTable: noTables,
    estimatedRowCount: noTables,
    scanDegree: () => 0,
    getSystemVariable: (name) => {
      throw new GaleneError('UNKNOWN_SYSTEM_VARIABLE', [name]);
    },
    getUserVariable: () => ({ type: Types.NULL, value: null }),
  };
}

export const scopeColumn = (name: string, index: number, type: ScopeColumn['type'], nullable: boolean): ScopeColumn => ({
  name,
  qualifier: null,
  database: null,
  index,
  type,
  hiddenUnqualified: false,
  origin: { name, type, nullable },
});
