/**
 * The recycler's choice of objects (be/object-recycler.ts): unreferenced segment and index objects of
 * ABORTED transactions only — never a referenced key, a running or visible transaction's objects,
 * compaction output (no transaction record) or keys of another shape — and its timer.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { abortedObjectKeys, ObjectRecycler, objectTxnId } from '../../src/be/object-recycler';

test('objectTxnId reads the transaction of segment and index keys, in the built-in store and in vaults', () => {
  assert.equal(objectTxnId('data/10002/1000_0.dat'), 1000);
  assert.equal(objectTxnId('data/10002/1000_12.idx_note.idx'), 1000);
  assert.equal(objectTxnId('data/10002/1001_3.__primary_key.idx'), 1001);
  assert.equal(objectTxnId('vault/10000/data/10002/77_0.dat'), 77);
  assert.equal(objectTxnId('data/10002/notes.txt'), null);
  assert.equal(objectTxnId('data/10002/1000_0.dat.tmp'), null);
  assert.equal(objectTxnId('galene_vault_probe/x'), null);
});

test('abortedObjectKeys picks unreferenced objects of aborted transactions only, asking once per transaction', () => {
  const statuses: Record<number, string> = { 1: 'ABORTED', 2: 'VISIBLE', 3: 'PREPARE' };
  const asked: number[] = [];
  const keys = [
    'data/5/1_0.dat', // aborted, unreferenced: recycled
    'data/5/1_0.idx_a.idx', // its index file: recycled
    'data/6/1_0.dat', // referenced (cannot happen for an aborted load, but a reference always wins)
    'data/5/2_0.dat', // visible load
    'data/5/2_0.idx_a.idx', // BUILD INDEX in progress on a visible segment
    'data/5/3_0.dat', // running load
    'data/5/4_0.dat', // compaction output: no transaction record
    'data/5/readme',
  ];
  const picked = abortedObjectKeys(keys, new Set(['data/6/1_0.dat']), (txnId) => {
    asked.push(txnId);
    const status = statuses[txnId];
    return status === undefined ? null : { status: status as 'ABORTED' };
  });
  assert.deepEqual(picked, ['data/5/1_0.dat', 'data/5/1_0.idx_a.idx']);
  assert.deepEqual(asked, [1, 2, 3, 4]);
});

test('ObjectRecycler runs its sweep every interval, follows a changed interval, and stops', async () => {
  let interval = 0;
  let rounds = 0;
  const recycler = new ObjectRecycler(() => interval, async () => {
    rounds++;
  });
  recycler.schedule();
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(rounds, 0, 'interval 0: no rounds');
  interval = 0.02;
  recycler.schedule();
  const deadline = Date.now() + 5000;
  while (rounds < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(rounds >= 2, `rounds: ${rounds}`);
  await recycler.stop();
  const stoppedAt = rounds;
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(rounds, stoppedAt, 'no round after stop');
});
