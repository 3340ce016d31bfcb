/**
 * Full-text search functions that only an index can answer: score(), the BM25 relevance of a row to the
 * MATCH predicates of its WHERE clause (later Doris versions). The optimizer rule
 * src/sql/rules/score-topn-pushdown.ts replaces the call by a column the scan computes from the inverted
 * index's statistics (src/storage/inverted/bm25.ts); a call left in the plan — no MATCH, no ORDER BY
 * score LIMIT n — fails with Doris's message when it would run.
 */
import { GaleneError } from '../../../common/errors';
import { Types } from '../../../common/types';
import type { FunctionDef } from '../function-registry';

/** Doris's CheckScoreUsage message, for a score() the pushdown could not take. */
export const SCORE_USAGE_MESSAGE = 'score() function requires WHERE clause with MATCH function, ORDER BY and LIMIT for optimization';

export const SEARCH_FUNCTIONS: readonly FunctionDef[] = [
  {
    name: 'score',
    family: 'search',
    signature: 'score() -> FLOAT',
    minArgs: 0,
    maxArgs: 0,
    resolve: () => ({ argTypes: [], returnType: Types.FLOAT }),
    nulls: 'custom',
    // Never folded or shared: each row has its own score, and only the scan can compute it.
    volatility: 'row',
    kernel: () => {
      throw new GaleneError('SCORE_USAGE', [SCORE_USAGE_MESSAGE]);
    },
    description:
      'BM25 relevance (k1 = 1.2, b = 0.75, statistics summed over the table) of the row to the MATCH predicates of the WHERE clause on columns with an inverted index. Only in the select list of SELECT ... WHERE col MATCH_ANY ... ORDER BY score() [DESC] LIMIT n.',
    example: "SELECT id, score() AS s FROM docs WHERE body MATCH_ANY 'olap' ORDER BY s DESC LIMIT 10",
  },
];
