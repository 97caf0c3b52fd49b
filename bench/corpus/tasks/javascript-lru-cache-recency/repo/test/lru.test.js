import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LRUCache } from '../src/lru.js';

test('stores and returns values', () => {
  const c = new LRUCache({ max: 3 });
  c.set('a', 1).set('b', 2);
  assert.equal(c.get('a'), 1);
  assert.equal(c.get('b'), 2);
  assert.equal(c.get('missing'), undefined);
  assert.equal(c.size, 2);
});

test('rejects a non-positive max', () => {
  assert.throws(() => new LRUCache({ max: 0 }), RangeError);
  assert.throws(() => new LRUCache({ max: 1.5 }), RangeError);
});

test('evicts the oldest entry when full', () => {
  const c = new LRUCache({ max: 2 });
  c.set('a', 1).set('b', 2).set('c', 3);
  assert.equal(c.has('a'), false);
  assert.deepEqual(c.keys(), ['b', 'c']);
});

test('get() marks an entry as recently used', () => {
  const c = new LRUCache({ max: 2 });
  c.set('a', 1).set('b', 2);
  c.get('a');
  c.set('c', 3);
  assert.deepEqual(c.keys(), ['a', 'c']);
});

test('peek() does not change recency', () => {
  const c = new LRUCache({ max: 2 });
  c.set('a', 1).set('b', 2);
  assert.equal(c.peek('a'), 1);
  c.set('c', 3);
  assert.deepEqual(c.keys(), ['b', 'c']);
});

test('overwriting a key refreshes it and keeps size', () => {
  const c = new LRUCache({ max: 2 });
  c.set('a', 1).set('b', 2).set('a', 10);
  assert.equal(c.size, 2);
  c.set('c', 3);
  assert.deepEqual(c.keys(), ['a', 'c']);
  assert.equal(c.get('a'), 10);
});

test('onEvict is called with the evicted entry', () => {
  const evicted = [];
  const c = new LRUCache({ max: 1, onEvict: (k, v) => evicted.push([k, v]) });
  c.set('a', 1).set('b', 2).set('c', 3);
  assert.deepEqual(evicted, [['a', 1], ['b', 2]]);
});

test('resize() shrinks the cache from the oldest side', () => {
  const c = new LRUCache({ max: 4 });
  for (const k of ['a', 'b', 'c', 'd']) c.set(k, k.toUpperCase());
  c.get('a');
  c.resize(2);
  assert.deepEqual(c.keys(), ['d', 'a']);
  assert.equal(c.max, 2);
});

test('delete() and clear()', () => {
  const c = new LRUCache({ max: 3 });
  c.set('a', 1).set('b', 2);
  assert.equal(c.delete('a'), true);
  assert.equal(c.delete('a'), false);
  c.clear();
  assert.equal(c.size, 0);
});
