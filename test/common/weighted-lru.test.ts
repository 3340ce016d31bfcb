/** WeightedLru: bounded by total weight, least recently used evicted first, never the entry just set. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WeightedLru } from '../../src/common/weighted-lru';

test('entries beyond the weight capacity are evicted least recently used first', () => {
  const lru = new WeightedLru<string>(10);
  lru.set('a', 'A', 4);
  lru.set('b', 'B', 4);
  assert.equal(lru.get('a'), 'A'); // a is now the most recently used
  lru.set('c', 'C', 4); // 12 > 10: b goes
  assert.equal(lru.peek('b'), undefined);
  assert.deepEqual([lru.peek('a'), lru.peek('c')], ['A', 'C']);
  lru.set('c', 'C2', 1); // replacing re-weighs: 4 + 1
  lru.set('d', 'D', 5);
  assert.deepEqual([lru.peek('a'), lru.peek('c'), lru.peek('d')], ['A', 'C2', 'D']);
  lru.delete('a');
  assert.equal(lru.get('a'), undefined);
});

test('an entry heavier than the capacity stays until the next set', () => {
  const lru = new WeightedLru<number>(3);
  lru.set('small', 1, 1);
  lru.set('huge', 2, 100);
  assert.equal(lru.peek('small'), undefined);
  assert.equal(lru.get('huge'), 2);
  lru.set('next', 3, 1);
  assert.equal(lru.peek('huge'), undefined);
  assert.equal(lru.get('next'), 3);
});

test('clear() empties the map and its weight', () => {
  const lru = new WeightedLru<number>(2);
  lru.set('a', 1, 1);
  lru.set('b', 2, 1);
  lru.clear();
  assert.equal(lru.peek('a'), undefined);
  lru.set('c', 3, 1);
  lru.set('d', 4, 1);
  assert.deepEqual([lru.peek('c'), lru.peek('d')], [3, 4], 'the cleared entries weigh nothing');
});
