import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readAhead } from '../../src/be/olap-table-source';

test('readAhead: results in item order, at most `window` reads in flight, all items read', async () => {
  let inFlight = 0;
  let peak = 0;
  const items = Array.from({ length: 50 }, (_, idx) => idx);
  const read = async (item: number): Promise<number> => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    // Later items finish first: order must come from the item list, not completion.
    await new Promise((resolve) => setImmediate(resolve));
    if (item % 2 === 0) await new Promise((resolve) => setImmediate(resolve));
    inFlight--;
    return item * 10;
  };
  const out: number[] = [];
  for await (const result of readAhead(items, read, 4)) out.push(result);
  assert.deepEqual(out, items.map((item) => item * 10));
  assert.equal(peak, 4);
});

test('readAhead: a consumer that stops after the first result has started only a few reads', async () => {
  const started: number[] = [];
  const items = Array.from({ length: 100 }, (_, idx) => idx);
  for await (const result of readAhead(items, async (item) => (started.push(item), item), 16)) {
    assert.equal(result, 0);
    break;
  }
  assert.ok(started.length <= 3, `started ${started.length} reads`);
});

test('readAhead: a failed read rejects at its turn, after the earlier results', async () => {
  const out: number[] = [];
  await assert.rejects(
    (async () => {
      for await (const result of readAhead([0, 1, 2, 3], async (item) => {
        if (item === 2) throw new Error('segment 2 unreadable');
        return item;
      }, 2)) out.push(result);
    })(),
    /segment 2 unreadable/,
  );
  assert.deepEqual(out, [0, 1]);
});
