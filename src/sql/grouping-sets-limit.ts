/** The limit on grouping sets, shared by the parser (CUBE) and the binder (GROUPING SETS). */
import { GaleneError } from '../common/errors';

/** Doris's limit on the number of grouping sets (GroupByClause.MAX_GROUPING_SETS_NUM). */
export const MAX_GROUPING_SETS = 64;

export function tooManyGroupingSets(): GaleneError {
  return new GaleneError('ANALYSIS_ERROR', [`Too many sets in GROUP BY clause, the max grouping sets size is ${MAX_GROUPING_SETS}`]);
}
