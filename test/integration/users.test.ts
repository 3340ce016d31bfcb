/**
 * Users and mysql_native_password over real connections.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startGalene } from '../helpers/galene-process';
import { connect, queryRows } from '../helpers/mysql-client';

test('CREATE USER, login, wrong password 1045, SET PASSWORD, DROP USER', async () => {
  const server = await startGalene();
  try {
    const root = await connect(server.ports.query_port);
    await root.query("CREATE USER 'alice'@'%' IDENTIFIED BY 'secret'");
    await assert.rejects(root.query("CREATE USER 'alice'@'%' IDENTIFIED BY 'x'"), { errno: 1396 });
    const alice = await connect(server.ports.query_port, { user: 'alice', password: 'secret' });
    const [[user]] = await queryRows(alice, 'SELECT current_user()');
    assert.match(user!, /alice/);
    await alice.end();
    await assert.rejects(connect(server.ports.query_port, { user: 'alice', password: 'wrong' }), (err: { errno: number; message: string }) => {
      assert.equal(err.errno, 1045);
      assert.match(err.message, /Access denied for user 'alice'/);
      return true;
    });
    await assert.rejects(connect(server.ports.query_port, { user: 'nobody', password: '' }), { errno: 1045 });
    await root.query("SET PASSWORD FOR 'alice'@'%' = PASSWORD('changed')");
    await assert.rejects(connect(server.ports.query_port, { user: 'alice', password: 'secret' }), { errno: 1045 });
    const again = await connect(server.ports.query_port, { user: 'alice', password: 'changed' });
    await again.end();
    await root.query("DROP USER 'alice'@'%'");
    await assert.rejects(connect(server.ports.query_port, { user: 'alice', password: 'changed' }), { errno: 1045 });
    await root.end();
  } finally {
    await server.stop();
  }
});
