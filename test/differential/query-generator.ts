/**
 * The differential test's seeded random query generator (issue 14, "Proof"): SELECTs over three small,
 * NULL-heavy tables (DIFF_TABLES), in the SQL that Galene (Doris's dialect) and DuckDB read alike, so the
 * two engines' answers can be compared row for row (differential.test.ts).
 *
 * What it generates is chosen by construct families (`Family`); the test enables exactly those Galene
 * supports today. To add a family when a construct lands (a join type, subqueries, CTEs, set operations,
 * window functions ...):
 *   1. add its name to `Family` (and a line to FAMILY_NOTES saying what it generates);
 *   2. generate it behind `this.on('name')` where it belongs (FROM items in `fromClause`, predicates in
 *      `predicate`, whole-query shapes in `query`), in text both engines give the same meaning to (watch
 *      for dialect differences: MySQL's NULL ordering is set on the DuckDB side; `/` and concat() differ);
 *   3. add the name to ENABLED_FAMILIES in differential.test.ts and run the test; a mismatch it finds is a
 *      Galene bug to fix or report, never a family to enable with expected failures.
 * The generator draws every choice from one seeded PRNG, so a seed names a query list; adding a family
 * changes the list (the seed is printed with every failure to replay it).
 */
import { mulberry32 } from '../../src/common/prng';

export type Family =
  | 'filter' // WHERE with comparisons, AND / OR / NOT, IS [NOT] NULL, BETWEEN, IN lists, LIKE
  | 'expression' // arithmetic, CASE, COALESCE / IFNULL, ABS, UPPER / LOWER / SUBSTRING / LENGTH, YEAR in the select list
  | 'inner-join' // [INNER] JOIN ... ON equalities (and an extra conjunct), comma joins with the equality in WHERE
  | 'left-join' // LEFT [OUTER] JOIN ... ON equalities (and an extra conjunct on the right side)
  | 'aggregate' // COUNT(*), COUNT(x), COUNT(DISTINCT x), SUM, MIN, MAX, AVG, without GROUP BY
  | 'group-by' // GROUP BY columns and expressions, with aggregates
  | 'having' // HAVING over aggregates
  | 'distinct' // SELECT DISTINCT
  | 'order-limit' // ORDER BY (every output column, so the order is total) with LIMIT [OFFSET]
  | 'outer-join' // RIGHT [OUTER] JOIN and FULL [OUTER] JOIN ... ON
  | 'subquery' // [NOT] EXISTS, [NOT] IN (SELECT ...), scalar subqueries, correlated and not, in WHERE and the select list
  | 'set-op' // UNION / INTERSECT / EXCEPT [ALL] of two SELECTs
  | 'cte' // WITH c AS (SELECT * FROM t WHERE ...) as the first FROM item, sometimes joined to itself
  | 'window'; // rank / dense_rank / aggregates OVER (PARTITION BY ... [ORDER BY ...]) in the select list

export const FAMILY_NOTES: Readonly<Record<Family, string>> = {
  filter: 'WHERE with comparisons, AND / OR / NOT, IS [NOT] NULL, BETWEEN, IN lists, LIKE',
  expression: 'arithmetic, CASE, COALESCE / IFNULL, ABS, UPPER / LOWER / SUBSTRING / LENGTH, YEAR',
  'inner-join': 'INNER JOIN ... ON, comma joins with WHERE equalities',
  'left-join': 'LEFT JOIN ... ON',
  aggregate: 'COUNT / SUM / MIN / MAX / AVG without GROUP BY',
  'group-by': 'GROUP BY columns and expressions',
  having: 'HAVING over aggregates',
  distinct: 'SELECT DISTINCT',
  'order-limit': 'ORDER BY every output column, LIMIT, OFFSET',
  'outer-join': 'RIGHT JOIN and FULL JOIN ... ON',
  subquery: '[NOT] EXISTS, [NOT] IN (SELECT ...), scalar subqueries, correlated and not',
  'set-op': 'UNION / INTERSECT / EXCEPT [ALL] of two SELECTs',
  cte: 'WITH c AS (SELECT * FROM t WHERE ...) as a FROM item',
  window: 'rank / dense_rank / count / sum / min / max OVER (PARTITION BY ... [ORDER BY ...])',
};

type ColumnType = 'int' | 'decimal' | 'string' | 'date';

interface TableDef {
  readonly name: string;
  readonly columns: readonly (readonly [string, ColumnType])[];
  readonly rows: number;
}

/** The tables: `k` is a NOT NULL key, every other column is NULL in about a third of the rows. */
export const DIFF_TABLES: readonly TableDef[] = [
  { name: 't1', rows: 200, columns: [['k', 'int'], ['a', 'int'], ['b', 'int'], ['d', 'decimal'], ['s', 'string'], ['dt', 'date']] },
  { name: 't2', rows: 120, columns: [['k', 'int'], ['t1k', 'int'], ['a', 'int'], ['d', 'decimal'], ['s', 'string']] },
  { name: 't3', rows: 16, columns: [['k', 'int'], ['a', 'int'], ['s', 'string']] },
];

const SQL_TYPES: Readonly<Record<ColumnType, string>> = { int: 'INT', decimal: 'DECIMAL(8, 2)', string: 'VARCHAR(12)', date: 'DATE' };
const STRINGS = ['', 'a', 'ab', 'abc', 'b', 'ba', 'B', 'x y', 'zz', 'a%b', 'Abc'];

type Random = () => number;
const int = (random: Random, low: number, high: number): number => low + Math.floor(random() * (high - low + 1));
const pick = <T>(random: Random, values: readonly T[]): T => values[Math.floor(random() * values.length)];
const quote = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** CREATE TABLE statements, one per table, for Galene (Doris's DDL) or DuckDB. */
export function createTableSql(engine: 'galene' | 'duckdb'): string[] {
  return DIFF_TABLES.map((table) => {
    const columns = table.columns.map(([name, type]) => `${name} ${SQL_TYPES[type]}${name === 'k' ? ' NOT NULL' : ' NULL'}`).join(', ');
    return engine === 'galene' ? `CREATE TABLE ${table.name} (${columns}) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 3` : `CREATE TABLE ${table.name} (${columns})`;
  });
}

/** INSERT statements with the tables' rows (seeded; the same text for both engines). */
export function insertSql(seed: number): string[] {
  const random = mulberry32(seed);
  return DIFF_TABLES.map((table) => {
    const tuples: string[] = [];
    for (let rowIdx = 0; rowIdx < table.rows; rowIdx++) {
      const values = table.columns.map(([name, type]) => {
        if (name === 'k') return String(rowIdx + 1);
        if (random() < 0.33) return 'NULL';
        if (name === 't1k') return String(int(random, 1, 230)); // some match no t1 row
        switch (type) {
          case 'int':
            return String(int(random, -5, 25));
          case 'decimal':
            return (int(random, -5000, 5000) / 100).toFixed(2);
          case 'string':
            return quote(pick(random, STRINGS));
          case 'date':
            return `'2024-${String(int(random, 1, 12)).padStart(2, '0')}-${String(int(random, 1, 28)).padStart(2, '0')}'`;
        }
      });
      tuples.push(`(${values.join(', ')})`);
    }
    return `INSERT INTO ${table.name} VALUES ${tuples.join(', ')}`;
  });
}

interface ScopeColumn {
  readonly sql: string;
  readonly type: ColumnType;
}

export interface GeneratedQuery {
  readonly sql: string;
  /** The ORDER BY fixes the row order (it names every output column). */
  readonly ordered: boolean;
}

export class QueryGenerator {
  private readonly random: Random;
  private readonly families: ReadonlySet<Family>;
  private scope: ScopeColumn[] = [];

  constructor(seed: number, families: readonly Family[]) {
    this.random = mulberry32(seed);
    this.families = new Set(families);
  }

  private on(family: Family): boolean {
    return this.families.has(family);
  }

  private chance(p: number): boolean {
    return this.random() < p;
  }

  query(): GeneratedQuery {
    if (this.on('set-op') && this.chance(0.15)) return this.setOperation();
    const from = this.fromClause();
    const where: string[] = [...from.where];
    if (this.on('filter') && this.chance(0.7)) where.push(this.predicate(2));
    const aggregateShape = (this.on('aggregate') || this.on('group-by')) && this.chance(0.5);
    let select: string[];
    let groupBy: string[] = [];
    let having: string | null = null;
    if (aggregateShape) {
      if (this.on('group-by') && (!this.on('aggregate') || this.chance(0.7))) {
        const keyCount = int(this.random, 1, 2);
        for (let keyIdx = 0; keyIdx < keyCount; keyIdx++) {
          const key = this.on('expression') && this.chance(0.3) ? this.withoutSubqueries(() => this.expression(pick(this.random, ['int', 'string'] as const), 1)) : pick(this.random, this.scope).sql;
          // A bare literal is no grouping key (an integer one would name a select-list position).
          groupBy.push(/^[-\d']|^DATE /.test(key) ? pick(this.random, this.scope).sql : key);
        }
        groupBy = [...new Set(groupBy)];
      }
      const aggregates = Array.from({ length: int(this.random, 1, 3) }, () => this.aggregate());
      select = [...groupBy, ...aggregates];
      if (this.on('having') && groupBy.length > 0 && this.chance(0.4)) having = `${this.aggregate('int')} ${pick(this.random, ['>', '<', '>=', '<>'])} ${int(this.random, 0, 20)}`;
    } else {
      select = Array.from({ length: int(this.random, 1, 4) }, () => {
        if (this.on('window') && this.chance(0.2)) return this.windowCall();
        if (this.on('subquery') && this.chance(0.1)) return this.scalarSubquery();
        return this.on('expression') && this.chance(0.4) ? this.expression(pick(this.random, ['int', 'decimal', 'string', 'date'] as const), 2) : pick(this.random, this.scope).sql;
      });
    }
    const distinct = this.on('distinct') && !aggregateShape && this.chance(0.25);
    let sql = `${from.with}SELECT ${distinct ? 'DISTINCT ' : ''}${select.map((item, itemIdx) => `${item} AS c${itemIdx}`).join(', ')} FROM ${from.sql}`;
    if (where.length) sql += ` WHERE ${where.join(' AND ')}`;
    if (groupBy.length) sql += ` GROUP BY ${groupBy.join(', ')}`;
    if (having) sql += ` HAVING ${having}`;
    let ordered = false;
    if (this.on('order-limit') && this.chance(0.5)) {
      const positions = select.map((_, itemIdx) => itemIdx + 1).sort(() => this.random() - 0.5);
      sql += ` ORDER BY ${positions.map((position) => `${position}${this.chance(0.5) ? ' DESC' : ''}`).join(', ')}`;
      ordered = true;
      if (this.chance(0.7)) sql += ` LIMIT ${int(this.random, 0, 30)}${this.chance(0.3) ? ` OFFSET ${int(this.random, 0, 10)}` : ''}`;
    }
    return { sql, ordered };
  }

  /** FROM items: one table, or two / three joined; sets the column scope. Join equalities of comma joins go to WHERE. */
  private fromClause(): { sql: string; where: string[]; with: string } {
    const tables = DIFF_TABLES.map((table) => table.name);
    const first = pick(this.random, tables);
    // A CTE over the first table (all its columns, some rows), named like a table for the rest.
    let withClause = '';
    let firstItem = first;
    if (this.on('cte') && this.chance(0.2)) {
      this.scope = this.columnsOf(first, first);
      withClause = `WITH c AS (SELECT * FROM ${first} WHERE ${this.predicate(1)}) `;
      firstItem = 'c';
      tables.push('c');
    }
    this.scope = this.columnsOf(first, 'x');
    const joins = (this.on('inner-join') || this.on('left-join')) && this.chance(0.5) ? int(this.random, 1, 2) : 0;
    let sql = `${firstItem} AS x`;
    const where: string[] = [];
    // Comma joins and JOIN ... ON are not mixed: JOIN binds tighter than the comma, so an ON after a comma
    // could not see the tables before it.
    const kinds = this.on('inner-join') && this.chance(0.3) ? ['comma'] : [...(this.on('inner-join') ? ['inner'] : []), ...(this.on('left-join') ? ['left'] : []), ...(this.on('outer-join') ? ['right', 'full'] : [])];
    for (let joinIdx = 0; joinIdx < joins; joinIdx++) {
      const alias = joinIdx === 0 ? 'y' : 'z';
      const table = pick(this.random, tables);
      const right = this.columnsOf(table === 'c' ? first : table, alias);
      const condition = this.joinCondition(right);
      const kind = pick(this.random, kinds);
      if (kind === 'comma') {
        sql += `, ${table} AS ${alias}`;
        where.push(condition);
      } else {
        const keyword = kind === 'left' ? pick(this.random, ['LEFT JOIN', 'LEFT OUTER JOIN']) : kind === 'right' ? pick(this.random, ['RIGHT JOIN', 'RIGHT OUTER JOIN']) : kind === 'full' ? pick(this.random, ['FULL JOIN', 'FULL OUTER JOIN']) : pick(this.random, ['JOIN', 'INNER JOIN']);
        sql += ` ${keyword} ${table} AS ${alias} ON ${condition}`;
      }
      this.scope.push(...right);
    }
    return { sql, where, with: withClause };
  }

  /** Two SELECTs of one table each, with the same column types, under a set operation. */
  private setOperation(): GeneratedQuery {
    const types = Array.from({ length: int(this.random, 1, 2) }, () => pick(this.random, ['int', 'string', 'decimal'] as const));
    const side = (): string => {
      const table = pick(this.random, DIFF_TABLES.filter((def) => types.every((type) => def.columns.some(([, columnType]) => columnType === type))));
      this.scope = this.columnsOf(table.name, 'x');
      const items = types.map((type, itemIdx) => `${this.columnOf(type)} AS c${itemIdx}`);
      return `SELECT ${items.join(', ')} FROM ${table.name} AS x${this.chance(0.6) ? ` WHERE ${this.predicate(1)}` : ''}`;
    };
    const op = pick(this.random, ['UNION', 'UNION ALL', 'INTERSECT', 'EXCEPT', 'INTERSECT ALL', 'EXCEPT ALL']);
    let sql = `${side()} ${op} ${side()}`;
    const ordered = this.on('order-limit') && this.chance(0.4);
    if (ordered) sql += ` ORDER BY ${types.map((_type, itemIdx) => `${itemIdx + 1}${this.chance(0.5) ? ' DESC' : ''}`).join(', ')} LIMIT ${int(this.random, 1, 20)}`;
    return { sql, ordered };
  }

  /** A window function over the columns in scope; deterministic with ties (ranks and RANGE frames only). */
  private windowCall(): string {
    const partition = pick(this.random, this.scope).sql;
    const orderColumn = this.columnOf(pick(this.random, ['int', 'string', 'date'] as const)) ?? pick(this.random, this.scope).sql;
    const order = `ORDER BY ${orderColumn}${this.chance(0.5) ? ' DESC' : ''}`;
    const intColumn = this.columnOf('int');
    return pick(this.random, [
      () => `rank() OVER (PARTITION BY ${partition} ${order})`,
      () => `dense_rank() OVER (PARTITION BY ${partition} ${order})`,
      () => `count(*) OVER (PARTITION BY ${partition})`,
      () => (intColumn !== null ? `sum(${intColumn}) OVER (PARTITION BY ${partition} ${order})` : `count(*) OVER (${order})`),
      () => `min(${orderColumn}) OVER (PARTITION BY ${partition})`,
      () => (intColumn !== null ? `max(${intColumn}) OVER (${order})` : `rank() OVER (${order})`),
    ])();
  }

  private subqueryDepth = 0;

  /**
   * `generate()` with no subquery predicates: Galene refuses a correlated subquery inside an aggregate's
   * argument or a GROUP BY expression ("doesn't yet support"), so those places get none.
   */
  private withoutSubqueries<T>(generate: () => T): T {
    this.subqueryDepth++;
    try {
      return generate();
    } finally {
      this.subqueryDepth--;
    }
  }

  /** A table for a subquery, aliased apart from the outer query's (and other subqueries') aliases. */
  private subqueryTable(): { table: TableDef; alias: string; columns: ScopeColumn[] } {
    const table = pick(this.random, DIFF_TABLES);
    const alias = `sq${this.subqueryDepth}_${int(this.random, 0, 99)}`;
    return { table, alias, columns: this.columnsOf(table.name, alias) };
  }

  /** A correlation `inner = outer` on columns of one type, or null when none pairs up. */
  private correlation(inner: readonly ScopeColumn[]): string | null {
    const pairs: [ScopeColumn, ScopeColumn][] = [];
    for (const column of inner) for (const outer of this.scope) if (column.type === outer.type && column.type !== 'decimal') pairs.push([column, outer]);
    if (pairs.length === 0) return null;
    const [column, outer] = pick(this.random, pairs);
    return `${column.sql} = ${outer.sql}`;
  }

  /** `(SELECT agg FROM t AS sq WHERE sq.col = outer.col)`, or an uncorrelated count. */
  private scalarSubquery(): string {
    const { table, alias, columns } = this.subqueryTable();
    const intColumn = columns.find((column) => column.type === 'int' && !column.sql.endsWith('.k'))?.sql ?? `${alias}.k`;
    const aggregate = pick(this.random, ['count(*)', `max(${intColumn})`, `min(${intColumn})`, `sum(${intColumn})`]);
    const correlation = this.chance(0.8) ? this.correlation(columns) : null;
    return `(SELECT ${aggregate} FROM ${table.name} AS ${alias}${correlation ? ` WHERE ${correlation}` : ''})`;
  }

  /** EXISTS / NOT EXISTS, [NOT] IN (SELECT ...), or a comparison with a scalar subquery. */
  private subqueryPredicate(): string {
    this.subqueryDepth++;
    try {
      const { table, alias, columns } = this.subqueryTable();
      const correlation = this.correlation(columns);
      const extra = this.chance(0.4) ? ` AND ${pick(this.random, columns.filter((column) => column.type === 'int')).sql} ${pick(this.random, ['>', '<', '<>'])} ${int(this.random, 0, 15)}` : '';
      return pick(this.random, [
        () => `${this.chance(0.3) ? 'NOT ' : ''}EXISTS (SELECT 1 FROM ${table.name} AS ${alias} WHERE ${correlation ?? '1 = 1'}${extra})`,
        () => {
          const type = pick(this.random, ['int', 'string'] as const);
          const outer = this.columnOf(type);
          const inner = columns.find((column) => column.type === type && !column.sql.endsWith('.k'));
          if (outer === null || inner === undefined) return `EXISTS (SELECT 1 FROM ${table.name} AS ${alias} WHERE ${correlation ?? '1 = 1'})`;
          const where = this.chance(0.5) && correlation !== null ? ` WHERE ${correlation}${extra}` : extra ? ` WHERE 1 = 1${extra}` : '';
          return `${outer} ${this.chance(0.3) ? 'NOT ' : ''}IN (SELECT ${inner.sql} FROM ${table.name} AS ${alias}${where})`;
        },
        () => {
          const outer = this.columnOf('int') ?? this.literal('int');
          return `${outer} ${pick(this.random, ['<', '>=', '='])} ${this.scalarSubquery()}`;
        },
      ])();
    } finally {
      this.subqueryDepth--;
    }
  }

  private columnsOf(table: string, alias: string): ScopeColumn[] {
    return DIFF_TABLES.find((def) => def.name === table)!.columns.map(([name, type]) => ({ sql: `${alias}.${name}`, type }));
  }

  /** An equality between a column in scope and one of the joined table's, of one type; sometimes with an extra conjunct on the joined table. */
  private joinCondition(right: readonly ScopeColumn[]): string {
    const pairs: [ScopeColumn, ScopeColumn][] = [];
    for (const left of this.scope) for (const other of right) if (left.type === other.type && left.type !== 'date' && left.type !== 'decimal') pairs.push([left, other]);
    const [left, other] = pick(this.random, pairs);
    let condition = `${left.sql} = ${other.sql}`;
    if (this.chance(0.25)) {
      const extra = right.filter((column) => column.type === 'int');
      condition += ` AND ${pick(this.random, extra).sql} ${pick(this.random, ['>', '<', '<>'])} ${int(this.random, 0, 15)}`;
    }
    return condition;
  }

  private columnOf(type: ColumnType): string | null {
    const columns = this.scope.filter((column) => column.type === type);
    return columns.length ? pick(this.random, columns).sql : null;
  }

  private literal(type: ColumnType): string {
    switch (type) {
      case 'int':
        return String(int(this.random, -3, 20));
      case 'decimal':
        return (int(this.random, -3000, 3000) / 100).toFixed(2);
      case 'string':
        return quote(pick(this.random, STRINGS));
      case 'date':
        return `DATE '2024-${String(int(this.random, 1, 12)).padStart(2, '0')}-${String(int(this.random, 1, 28)).padStart(2, '0')}'`;
    }
  }

  /** A value of `type`: a column, a literal, or (family 'expression') an expression over smaller ones. */
  private expression(type: ColumnType, depth: number): string {
    const column = this.columnOf(type);
    if (depth <= 0 || !this.on('expression') || this.chance(0.35)) return column !== null && this.chance(0.8) ? column : this.literal(type);
    const sub = (subType: ColumnType): string => this.expression(subType, depth - 1);
    switch (type) {
      case 'int':
        return pick(this.random, [
          () => `(${sub('int')} ${pick(this.random, ['+', '-', '*'])} ${sub('int')})`,
          () => `abs(${sub('int')})`,
          () => `CASE WHEN ${this.predicate(depth - 1)} THEN ${sub('int')} ELSE ${sub('int')} END`,
          () => `coalesce(${sub('int')}, ${sub('int')})`,
          () => `ifnull(${sub('int')}, ${this.literal('int')})`,
          () => `length(${sub('string')})`,
          () => (this.columnOf('date') !== null ? `year(${sub('date')})` : `(${sub('int')} + 1)`),
        ])();
      case 'decimal':
        return pick(this.random, [
          () => `(${sub('decimal')} ${pick(this.random, ['+', '-'])} ${sub(pick(this.random, ['decimal', 'int'] as const))})`,
          () => `(${sub('decimal')} * ${int(this.random, -3, 3)})`,
          () => `abs(${sub('decimal')})`,
          () => `coalesce(${sub('decimal')}, ${this.literal('decimal')})`,
        ])();
      case 'string':
        return pick(this.random, [
          () => `upper(${sub('string')})`,
          () => `lower(${sub('string')})`,
          () => `substring(${sub('string')}, ${int(this.random, 1, 3)}, ${int(this.random, 0, 3)})`,
          () => `coalesce(${sub('string')}, ${this.literal('string')})`,
          () => `CASE WHEN ${this.predicate(depth - 1)} THEN ${sub('string')} ELSE ${sub('string')} END`,
        ])();
      case 'date':
        return pick(this.random, [() => `coalesce(${sub('date')}, ${this.literal('date')})`, () => `CASE WHEN ${this.predicate(depth - 1)} THEN ${sub('date')} END`])();
    }
  }

  /** A boolean condition over the columns in scope. */
  predicate(depth: number): string {
    if (this.on('subquery') && this.subqueryDepth === 0 && this.chance(0.12)) return this.subqueryPredicate();
    if (depth > 0 && this.chance(0.35)) {
      return pick(this.random, [
        () => `(${this.predicate(depth - 1)} AND ${this.predicate(depth - 1)})`,
        () => `(${this.predicate(depth - 1)} OR ${this.predicate(depth - 1)})`,
        () => `NOT (${this.predicate(depth - 1)})`,
      ])();
    }
    const type = pick(this.random, ['int', 'int', 'decimal', 'string', 'date'] as const);
    const value = this.expression(type, depth > 0 ? 1 : 0);
    return pick(this.random, [
      () => `${value} ${pick(this.random, ['=', '<>', '<', '<=', '>', '>='])} ${this.literal(type)}`,
      () => `${value} ${pick(this.random, ['=', '<', '>='])} ${this.expression(type, 0)}`,
      () => `${value} IS ${this.chance(0.5) ? 'NOT ' : ''}NULL`,
      () => {
        const [low, high] = [this.literal(type), this.literal(type)];
        return `${value} ${this.chance(0.3) ? 'NOT ' : ''}BETWEEN ${low} AND ${high}`;
      },
      () => `${value} ${this.chance(0.3) ? 'NOT ' : ''}IN (${Array.from({ length: int(this.random, 1, 4) }, () => (this.chance(0.1) ? 'NULL' : this.literal(type))).join(', ')})`,
      () => (type === 'string' ? `${value} ${this.chance(0.3) ? 'NOT ' : ''}LIKE ${quote(pick(this.random, ['a%', '%b', '_', '%', 'a_c', 'A%', '%a%b%']))}` : `${value} IS NOT NULL`),
    ])();
  }

  /** An aggregate call over the columns in scope (of an integer value when `type` says so). */
  private aggregate(type: ColumnType = pick(this.random, ['int', 'decimal', 'string', 'date'] as const)): string {
    const argument = this.withoutSubqueries(() => this.expression(type, this.on('expression') ? 1 : 0));
    const numeric = type === 'int' || type === 'decimal';
    return pick(this.random, [
      () => 'count(*)',
      () => `count(${argument})`,
      () => `count(DISTINCT ${argument})`,
      () => `min(${argument})`,
      () => `max(${argument})`,
      () => (numeric ? `sum(${argument})` : `count(${argument})`),
      () => (type === 'decimal' ? `avg(${argument})` : type === 'int' ? `sum(${argument})` : `max(${argument})`),
    ])();
  }
}
