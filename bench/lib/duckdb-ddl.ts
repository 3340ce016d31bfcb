/**
 * A Doris CREATE TABLE as DuckDB's: the column list (DuckDB reads `int`, `bigint`, `smallint`,
 * `decimal(15, 2)`, `VARCHAR(n)`, `CHAR`, `DATE`, NOT NULL alike; Doris's `DateV2` / `DateTimeV2` /
 * `STRING` become DATE / TIMESTAMP / VARCHAR), without Doris's key, distribution and properties.
 * Used by the benchmarks that load the same data into DuckDB (bench/tpch.ts, bench/clickbench.ts).
 */
export function duckdbDdl(dorisDdl: string): string {
  const head = /^\s*CREATE TABLE\s+`?(\w+)`?\s*\(/i.exec(dorisDdl);
  const columnsEnd = dorisDdl.search(/\)\s*(ENGINE\s*=|(DUPLICATE|UNIQUE|AGGREGATE)\s+KEY\b|DISTRIBUTED\s+BY\b)/i);
  if (!head || columnsEnd < 0) throw new Error(`not a Doris CREATE TABLE: ${dorisDdl.slice(0, 60)}`);
  const columns = dorisDdl
    .slice(head[0].length, columnsEnd)
    .replace(/`/g, '')
    .replace(/\bint\(\d+\)/gi, 'int')
    .replace(/\bDateTimeV2\b/gi, 'TIMESTAMP')
    .replace(/\bDateV2\b/gi, 'DATE')
    .replace(/\bSTRING\b/gi, 'VARCHAR');
  return `CREATE TABLE ${head[1]} (${columns})`;
}
