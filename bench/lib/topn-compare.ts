/**
 * Checking an ORDER BY ... LIMIT [OFFSET] answer against DuckDB's whole ordered answer, accepting any valid
 * order of tied rows (bench/clickbench.ts). A LIMIT over rows that tie on the sort key may return any of
 * them, so comparing with DuckDB's own LIMIT result row by row would call right answers wrong.
 *
 * Given the sort key columns, the answer is right when: it has as many rows as DuckDB's window
 * (rows offset .. offset + limit - 1 of the whole ordered answer); its visible key values are DuckDB's
 * window's, position by position; and its rows can be matched one to one to rows of DuckDB's whole answer
 * (values equal, numbers within duckdb-peer's tolerance) so that each key value is used as many times as
 * it occurs in the window (a small max-flow: answer rows to candidate rows to key values). DuckDB's answer
 * is streamed and read only as far as the last key value of the window (to the end when `keys` is empty).
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { duckValueText, rowKey, valuesMatch } from '../../test/helpers/duckdb-peer';
import type { TextRow } from '../../test/helpers/mysql-client';

interface Candidate {
  readonly key: string;
  readonly answerRows: number[];
}

const rowsMatch = (answer: TextRow, expected: readonly (string | null)[]): boolean => answer.every((value, colIdx) => valuesMatch(value, expected[colIdx] ?? null));

/**
 * Null when `answer` is a right answer of `checkSql` (DuckDB, ordered, without LIMIT / OFFSET) under
 * `LIMIT limit OFFSET offset` with sort key columns `keys`; else what is wrong.
 */
export async function checkLimitedAnswer(duck: DuckDBConnection, checkSql: string, keys: readonly number[], answer: readonly TextRow[], offset: number, limit: number): Promise<string | null> {
  const windowKeys: (string | null)[][] = [];
  const candidates: Candidate[] = [];
  const result = await duck.stream(checkSql);
  let rowIdx = 0;
  let lastWindowKey: string | null = null;
  streaming: for await (const chunk of result.yieldRows()) {
    for (const values of chunk) {
      const row = values.map(duckValueText);
      const keyValues = keys.map((column) => row[column]);
      const key = rowKey(keyValues);
      if (rowIdx >= offset + limit && key !== lastWindowKey) break streaming;
      if (rowIdx >= offset && rowIdx < offset + limit) {
        windowKeys.push(keyValues);
        lastWindowKey = key;
      }
      const answerRows: number[] = [];
      answer.forEach((answerRow, answerIdx) => {
        if (rowsMatch(answerRow, row)) answerRows.push(answerIdx);
      });
      if (answerRows.length) candidates.push({ key, answerRows });
      rowIdx++;
    }
  }
  if (answer.length !== windowKeys.length) return `${answer.length} rows, expected ${windowKeys.length}`;
  const answerWidth = answer[0]?.length ?? 0;
  for (let position = 0; position < answer.length; position++) {
    for (let keyIdx = 0; keyIdx < keys.length; keyIdx++) {
      const column = keys[keyIdx];
      if (column < answerWidth && !valuesMatch(answer[position][column], windowKeys[position][keyIdx])) {
        return `row ${position + 1} column ${column + 1}: ${JSON.stringify(answer[position][column])}, expected ${JSON.stringify(windowKeys[position][keyIdx])} (sort key)`;
      }
    }
  }
  const keyCounts = new Map<string, number>();
  for (const keyValues of windowKeys) keyCounts.set(rowKey(keyValues), (keyCounts.get(rowKey(keyValues)) ?? 0) + 1);
  const matched = maxMatching(answer.length, candidates.filter((candidate) => keyCounts.has(candidate.key)), keyCounts);
  return matched === answer.length ? null : `${answer.length - matched} of ${answer.length} rows are not rows of DuckDB's answer within the LIMIT's sort key range`;
}

/** Max flow source -> answer rows (1) -> candidate rows (1) -> key values (their window counts) -> sink. */
function maxMatching(answerCount: number, candidates: readonly Candidate[], keyCounts: ReadonlyMap<string, number>): number {
  const keyNames = [...keyCounts.keys()];
  const source = 0;
  const firstAnswer = 1;
  const firstCandidate = firstAnswer + answerCount;
  const firstKey = firstCandidate + candidates.length;
  const sink = firstKey + keyNames.length;
  const edges: { to: number; capacity: number; reverse: number }[][] = Array.from({ length: sink + 1 }, () => []);
  const addEdge = (from: number, to: number, capacity: number): void => {
    edges[from].push({ to, capacity, reverse: edges[to].length });
    edges[to].push({ to: from, capacity: 0, reverse: edges[from].length - 1 });
  };
  const keyNode = new Map(keyNames.map((name, keyIdx) => [name, firstKey + keyIdx]));
  for (let answerIdx = 0; answerIdx < answerCount; answerIdx++) addEdge(source, firstAnswer + answerIdx, 1);
  candidates.forEach((candidate, candidateIdx) => {
    for (const answerIdx of candidate.answerRows) addEdge(firstAnswer + answerIdx, firstCandidate + candidateIdx, 1);
    addEdge(firstCandidate + candidateIdx, keyNode.get(candidate.key)!, 1);
  });
  keyNames.forEach((name, keyIdx) => addEdge(firstKey + keyIdx, sink, keyCounts.get(name)!));
  let flow = 0;
  for (;;) {
    // One augmenting path by breadth-first search.
    const previous = new Int32Array(sink + 1).fill(-1);
    const previousEdge = new Int32Array(sink + 1);
    previous[source] = source;
    const queue = [source];
    for (let head = 0; head < queue.length && previous[sink] < 0; head++) {
      const node = queue[head];
      edges[node].forEach((edge, edgeIdx) => {
        if (edge.capacity > 0 && previous[edge.to] < 0) {
          previous[edge.to] = node;
          previousEdge[edge.to] = edgeIdx;
          queue.push(edge.to);
        }
      });
    }
    if (previous[sink] < 0) return flow;
    for (let node = sink; node !== source; node = previous[node]) {
      const edge = edges[previous[node]][previousEdge[node]];
      edge.capacity -= 1;
      edges[node][edge.reverse].capacity += 1;
    }
    flow++;
  }
}
