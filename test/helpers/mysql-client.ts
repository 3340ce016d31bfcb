/**
 * mysql2 connections for tests, returning every value as the text the server sent (null for NULL), so
 * tests compare exactly what a MySQL client sees.
 */
import * as mysql from 'mysql2/promise';

export type TextRow = (string | null)[];

export async function connect(port: number, options: Partial<mysql.ConnectionOptions> = {}): Promise<mysql.Connection> {
  return mysql.createConnection({
    host: '127.0.0.1',
    port,
    user: 'root',
    password: '',
    rowsAsArray: true,
    typeCast: (field, next) => (field.type === 'GEOMETRY' ? next() : field.string()),
    ...options,
  });
}

/** Rows of a query as text arrays. */
export async function queryRows(conn: mysql.Connection, sql: string): Promise<TextRow[]> {
  const [rows] = await conn.query({ sql, rowsAsArray: true });
  return rows as TextRow[];
}

/** Rows of a query as text keyed by column name (for results whose column order a test should not depend on). */
export async function queryRecords(conn: mysql.Connection, sql: string): Promise<Record<string, string | null>[]> {
  const [rows] = await conn.query({ sql, rowsAsArray: false });
  return rows as Record<string, string | null>[];
}

/** The counters of the connection's last query profile (SHOW QUERY PROFILE), by name. */
export async function lastQueryProfile(conn: mysql.Connection): Promise<Map<string, string>> {
  const [[id]] = await queryRows(conn, 'SHOW QUERY PROFILE "/"');
  return new Map((await queryRows(conn, `SHOW QUERY PROFILE "/${id}"`)).map(([name, value]) => [name!, value!]));
}

/** `use()` with a session variable set to `value`, then set back to `restore` (also when `use` fails). */
export async function withSessionVariable<T>(conn: mysql.Connection, name: string, value: string, restore: string, use: () => Promise<T>): Promise<T> {
  await conn.query(`SET ${name} = ${value}`);
  try {
    return await use();
  } finally {
    await conn.query(`SET ${name} = ${restore}`);
  }
}
