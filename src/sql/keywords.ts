/**
 * Keyword tables of the SQL front end.
 *
 * Only RESERVED words need backticks to be used as identifiers (MySQL's rule); every other keyword
 * (STATUS, COMMENT, DATE, TYPE, USER, ...) is matched by its upper-case spelling where the grammar expects
 * it and is an ordinary identifier elsewhere. The list follows MySQL 8's reserved words
 * (https://dev.mysql.com/doc/refman/8.0/en/keywords.html) trimmed to those our grammar uses, plus Doris's
 * MINUS and FULL (which would otherwise be read as table aliases in `a FULL JOIN b`).
 */

/** Words that cannot be used as unquoted identifiers (column, table, alias names). */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'ADD', 'ALL', 'ALTER', 'AND', 'ANALYZE', 'AS', 'ASC', 'BETWEEN', 'BOTH', 'BY', 'CASE', 'CHARACTER', 'CHECK',
  'COLLATE', 'COLUMN', 'CONSTRAINT', 'CONVERT', 'CREATE', 'CROSS', 'CURRENT_DATE', 'CURRENT_TIME',
  'CURRENT_TIMESTAMP', 'CURRENT_USER', 'DATABASE', 'DATABASES', 'DEFAULT', 'DELETE', 'DESC', 'DESCRIBE',
  'DISTINCT', 'DISTINCTROW', 'DIV', 'DROP', 'DUAL', 'ELSE', 'EXCEPT', 'EXISTS', 'EXPLAIN', 'FALSE', 'FOR',
  'FROM', 'FULL', 'GRANT', 'GROUP', 'HAVING', 'IF', 'IGNORE', 'IN', 'INDEX', 'INNER', 'INSERT', 'INTERSECT',
  'INTERVAL', 'INTO', 'IS', 'JOIN', 'KEY', 'KEYS', 'KILL', 'LEADING', 'LEFT', 'LIKE', 'LIMIT', 'LOCALTIME',
  'LOCALTIMESTAMP', 'MINUS', 'MOD', 'NATURAL', 'NOT', 'NULL', 'ON', 'OR', 'ORDER', 'OUTER', 'OVER', 'PARTITION',
  'PRIMARY', 'REGEXP', 'RENAME', 'REPLACE', 'RIGHT', 'RLIKE', 'SCHEMA', 'SCHEMAS', 'SELECT', 'SEPARATOR', 'SET',
  'SHOW', 'STRAIGHT_JOIN', 'TABLE', 'THEN', 'TO', 'TRAILING', 'TRUE', 'UNION', 'UNIQUE', 'UPDATE', 'USE',
  'USING', 'UTC_DATE', 'UTC_TIME', 'UTC_TIMESTAMP', 'VALUES', 'WHEN', 'WHERE', 'WITH', 'XOR',
]);

/**
 * Functions callable without parentheses (SQL-standard niladic functions); `CURRENT_TIMESTAMP` and
 * `CURRENT_TIMESTAMP()` both become a call with no arguments.
 */
export const NILADIC_FUNCTIONS: ReadonlySet<string> = new Set([
  'CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'CURRENT_USER', 'LOCALTIME', 'LOCALTIMESTAMP',
  'UTC_DATE', 'UTC_TIME', 'UTC_TIMESTAMP',
]);

/** Units accepted by `INTERVAL expr unit` (the ones IntervalExpr can carry). */
export const INTERVAL_UNITS: ReadonlySet<string> = new Set([
  'YEAR', 'QUARTER', 'MONTH', 'WEEK', 'DAY', 'HOUR', 'MINUTE', 'SECOND', 'MICROSECOND',
]);

/** Doris full-text match operators (`col MATCH_ANY 'x'`), parsed as calls `match_any(col, 'x')`. */
export const MATCH_OPERATORS: ReadonlySet<string> = new Set([
  'MATCH', 'MATCH_ANY', 'MATCH_ALL', 'MATCH_PHRASE', 'MATCH_PHRASE_PREFIX', 'MATCH_REGEXP', 'MATCH_PHRASE_EDGE',
]);

/** Aggregation types allowed after a value column's type in CREATE TABLE (AGGREGATE KEY model). */
export const AGGREGATION_TYPES: ReadonlySet<string> = new Set([
  'SUM', 'MIN', 'MAX', 'REPLACE', 'REPLACE_IF_NOT_NULL', 'HLL_UNION', 'BITMAP_UNION', 'QUANTILE_UNION', 'GENERIC',
]);

/** True when an unquoted word (given in upper case) needs backticks to be an identifier. */
export function isReservedWord(upper: string): boolean {
  return RESERVED_WORDS.has(upper);
}
