/**
 * The score() form of TableScan (TableScanNode.score, planned by src/sql/rules/score-topn-pushdown.ts): the
 * table's scan with its usual columns, pruning and index predicates, asked for each row's global row id;
 * each batch's rows are then scored by the table source (TableSource.scoreRows: BM25 from the inverted
 * index files, src/be/score-rows.ts) and the score becomes one more FLOAT column after the scan's columns
 * (the row id stays after it only when the plan asked for it). The text is never read for the score.
 * Profile: RowsRead as TableScan, ScoreRowsScored, ScoreTimeMs (the scoring alone).
 */
import type { Batch, FixedVector } from '../../common/column';
import { GaleneError } from '../../common/errors';
import { Types } from '../../common/types';
import type { BoundScoreMatch } from '../context';
import { findColumn } from '../../meta/schema';
import { exprToString } from '../plan/bound-expr-utils';
import type { OperatorRuntime } from '../plan/operator-runtime';
import type { ScoreScanSpec, TableScanNode } from '../plan/physical-plan';
import { invertedField, operandValue } from './inverted-scan';

/** The MATCH texts bound for this run (`?` parameters substituted). */
function bindMatches(node: TableScanNode & { score: ScoreScanSpec }, rt: OperatorRuntime): BoundScoreMatch[] {
  return node.score.matches.map((match) => {
    const value = operandValue(match.text, findColumn(node.table, match.column)?.type ?? Types.STRING, rt);
    if (typeof value !== 'string') throw new GaleneError('SCORE_USAGE', [`score(): the MATCH text of ${match.column} is not a string: ${exprToString(match.text)}`]);
    return { indexName: match.indexName, column: match.column, op: match.op, text: value };
  });
}

export async function* openScoreScan(node: TableScanNode & { score: ScoreScanSpec }, rt: OperatorRuntime): AsyncIterable<Batch> {
  const source = rt.ctx.openTable(node.table);
  if (source.scoreRows === undefined) throw new GaleneError('SCORE_USAGE', [`score() needs an inverted index of an OLAP table; ${node.table.name} has none`]);
  const profile = rt.ctx.profile;
  const matches = bindMatches(node, rt);
  const keepRowId = node.globalRowId === true;
  for await (const batch of source.scan({ columns: node.columns, predicates: node.predicates, limit: node.limit, profile, globalRowId: true, ...invertedField(node, rt) })) {
    profile.add('RowsRead', batch.length);
    if (batch.length === 0) continue;
    const rowIds = batch.columns[batch.columns.length - 1] as FixedVector;
    const start = performance.now();
    const scores = await source.scoreRows({ rowIds: rowIds.values as BigInt64Array, matches, profile });
    profile.add('ScoreTimeMs', performance.now() - start);
    profile.add('ScoreRowsScored', batch.length);
    const score: FixedVector = { kind: 'fixed', type: Types.FLOAT, length: batch.length, values: scores, nulls: null };
    yield { length: batch.length, columns: [...batch.columns.slice(0, -1), score, ...(keepRowId ? [rowIds] : [])] };
  }
}

export function explainScoreScan(spec: ScoreScanSpec): string[] {
  return [`score: bm25(${spec.matches.map((match) => `${match.column} ${match.op.toUpperCase()} ${exprToString(match.text)} [${match.indexName}]`).join(' + ')})`];
}
