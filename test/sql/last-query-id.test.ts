/**
 * last_query_id(): the query id of the session's previous statement, the id SHOW QUERY PROFILE lists it
 * under; NULL on a fresh connection; per session, not per server.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Connection } from 'mysql2/promise';
import { startGalene, type GaleneProcess } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

let server: GaleneProcess;

before(async () => {
  server = await startGalene();
});

after(async () => {
  await server.stop();
});

async function lastQueryId(conn: Connection): Promise<string | null> {
  return (await queryRows(conn, 'SELECT last_query_id()'))[0][0];
}

test("last_query_id() names the session's previous statement, as SHOW QUERY PROFILE lists it", async () => {
  const conn = await connect(server.ports.query_port);
  const other = await connect(server.ports.query_port);
  try {
    assert.equal(await lastQueryId(conn), null);
    await queryRows(conn, 'SELECT 40 + 2');
    const first = await lastQueryId(conn);
    assert.ok(first !== null);
    const listed = await queryRows(conn, 'SHOW QUERY PROFILE "/"');
    assert.equal(listed.find((row) => row[0] === first)?.[8], 'SELECT 40 + 2');
    // The SELECT last_query_id() itself is now the previous statement: a new id, not the first again.
    const second = await lastQueryId(conn);
    assert.ok(second !== null && second !== first);
    // Another session's statements do not move this session's answer, and it has its own.
    await queryRows(other, 'SELECT 1');
    const otherLast = await lastQueryId(other);
    assert.ok(otherLast !== null && otherLast !== second);
    await queryRows(conn, 'SELECT 7');
    const third = await lastQueryId(conn);
    assert.equal((await queryRows(conn, `SHOW QUERY PROFILE "/${third}"`)).find((row) => row[0] === 'Sql')?.[1], 'SELECT 7');
  } finally {
    await conn.end();
    await other.end();
  }
});
