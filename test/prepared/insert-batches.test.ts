/**
 * Multi-row prepared INSERT batches (mysql2 `execute`, binary parameters) against a real Galene process:
 * the parameters go into the statement as literal rows (src/fe/prepared-insert.ts), which must store
 * exactly what the same values written as SQL literals store, and fail with the same error. Random rows
 * of every common parameter shape (integers, decimals and dates sent as strings and as typed values,
 * NULLs, strings with quotes, backslashes and non-ASCII text, out-of-range and malformed values) are sent
 * both ways into two identical tables and compared.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as mysql from 'mysql2/promise';
import { TypedParameter as T } from 'mysql2';
import { mulberry32 } from '../../src/common/prng';
import { GaleneProcess, startGalene } from '../helpers/galene-process';

let server: GaleneProcess;
let conn: mysql.Connection;

const COLUMNS = '(k INT, t TINYINT, b BIGINT, x DECIMAL(9,2), s VARCHAR(12), c CHAR(3), d DATE, dt DATETIME, f DOUBLE)';

before(async () => {
  server = await startGalene();
  const admin = await mysql.createConnection({ host: '127.0.0.1', port: server.ports.query_port, user: 'root', password: '' });
  await admin.query('CREATE DATABASE pb');
  await admin.end();
  conn = await mysql.createConnection({ host: '127.0.0.1', port: server.ports.query_port, user: 'root', password: '', database: 'pb', dateStrings: true, supportBigNumbers: true, bigNumberStrings: true });
});

after(async () => {
  await conn?.end();
  await server?.stop();
});

const random = mulberry32(5);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];

/** One cell: the parameter mysql2 sends and the SQL literal meaning the same. */
type Cell = readonly [param: unknown, literal: string];

const quote = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/** A row of valid cells; with `bad`, one cell is replaced by a value its column refuses. */
function cells(bad: boolean): Cell[] {
  const text = pick(['abc', "it's", 'back\\slash', 'ünï', '', '0123456789ab', 'x y']);
  const tiny = pick([0, 1, -128, 127]);
  const key = Math.floor(random() * 1e6);
  const row: Cell[] = [
    pick<Cell>([[key, String(key)], [null, 'NULL'], ['17', "'17'"]]),
    [tiny, String(tiny)],
    pick<Cell>([[2n ** 40n, String(2n ** 40n)], [-5, '-5'], [T.LONGLONG(9007199254740993n), '9007199254740993']]),
    pick<Cell>([['1.00', "'1.00'"], ['-3.456', "'-3.456'"], [T.NEWDECIMAL('12.5'), '12.5'], ['9999999.99', "'9999999.99'"], [2.5, '2.5']]),
    [text, quote(text)],
    pick<Cell>([['N', "'N'"], ['ab', "'ab'"], [null, 'NULL']]),
    pick<Cell>([['2024-05-01', "'2024-05-01'"], [T.DATE('2023-12-31'), "'2023-12-31'"], ['20240501', "'20240501'"]]),
    pick<Cell>([['2024-05-01 10:11:12', "'2024-05-01 10:11:12'"], ['2024-05-01', "'2024-05-01'"], [T.DATETIME('2024-05-01 23:59:59'), "'2024-05-01 23:59:59'"], [null, 'NULL']]),
    pick<Cell>([[1.5, '1.5'], [-0.25, '-0.25'], ['3', "'3'"], [1e300, '1e+300']]),
  ];
  if (bad) {
    const [colIdx, cell] = pick<[number, Cell]>([[0, ['x', "'x'"]], [1, [128, '128']], [1, [-129, '-129']], [3, ['10000000', "'10000000'"]], [3, ['1.2.3', "'1.2.3'"]], [4, ['0123456789abc', "'0123456789abc'"]], [5, ['abcd', "'abcd'"]], [6, ['2024-02-30', "'2024-02-30'"]], [7, ['soon', "'soon'"]]]);
    row[colIdx] = cell;
  }
  return row;
}

async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'ok';
  } catch (err) {
    return (err as Error).message;
  }
}

test('prepared multi-row INSERT stores what the same rows as literals store, and fails the same way', async () => {
  await conn.query(`CREATE TABLE lit ${COLUMNS} DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1`);
  await conn.query(`CREATE TABLE prm ${COLUMNS} DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1`);
  const row = `(${Array.from({ length: 9 }, () => '?').join(', ')})`;
  let failures = 0;
  for (let stmtIdx = 0; stmtIdx < 60; stmtIdx++) {
    const rowCount = 1 + Math.floor(random() * 4);
    const badRow = random() < 0.3 ? Math.floor(random() * rowCount) : -1;
    const rows = Array.from({ length: rowCount }, (_, rowIdx) => cells(rowIdx === badRow));
    const literal = await outcome(() => conn.query(`INSERT INTO lit VALUES ${rows.map((cellsOfRow) => `(${cellsOfRow.map((cell) => cell[1]).join(', ')})`).join(', ')}`));
    const prepared = await outcome(() => conn.execute(`INSERT INTO prm VALUES ${Array.from({ length: rowCount }, () => row).join(', ')}`, rows.flatMap((cellsOfRow) => cellsOfRow.map((cell) => cell[0])) as never));
    assert.equal(prepared, literal, `statement ${stmtIdx}: ${JSON.stringify(rows.map((cellsOfRow) => cellsOfRow.map((cell) => cell[1])))}`);
    if (literal !== 'ok') failures++;
  }
  assert.ok(failures > 0 && failures < 60, `${failures} of 60 statements failed: the cases should mix successes and errors`);
  const all = async (table: string): Promise<unknown[][]> => (await conn.query({ sql: `SELECT * FROM ${table} ORDER BY k, t, b, x, s, c, d, dt, f`, rowsAsArray: true }))[0] as unknown[][];
  const stored = await all('lit');
  assert.ok(stored.length > 0);
  assert.deepEqual(await all('prm'), stored);
});
