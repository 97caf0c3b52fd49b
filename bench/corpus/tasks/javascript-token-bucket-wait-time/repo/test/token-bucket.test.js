'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const { TokenBucket, KeyedLimiter } = require('../src/token-bucket');

function fakeClock(start = 1_000_000) {
  let t = start;
  const now = () => t;
  now.advance = (ms) => { t += ms; };
  return now;
}

test('starts full and allows up to capacity requests', () => {
  const now = fakeClock();
  const b = new TokenBucket({ capacity: 3, refillPerSecond: 1, now });
  assert.equal(b.tryRemove(), true);
  assert.equal(b.tryRemove(), true);
  assert.equal(b.tryRemove(), true);
  assert.equal(b.tryRemove(), false);
});

test('a request may take the last tokens exactly', () => {
  const now = fakeClock();
  const b = new TokenBucket({ capacity: 5, refillPerSecond: 1, now });
  assert.equal(b.tryRemove(3), true);
  assert.equal(b.tryRemove(2), true);
  assert.equal(b.tokens, 0);
});

test('refills over time but never above capacity', () => {
  const now = fakeClock();
  const b = new TokenBucket({ capacity: 2, refillPerSecond: 2, now });
  b.tryRemove(2);
  now.advance(500);
  assert.equal(b.tryRemove(), true);
  assert.equal(b.tryRemove(), false);
  now.advance(60_000);
  b.refill();
  assert.equal(b.tokens, 2);
});

test('rejects a cost larger than the capacity', () => {
  const now = fakeClock();
  const b = new TokenBucket({ capacity: 2, refillPerSecond: 1, now });
  assert.equal(b.tryRemove(3), false);
  assert.equal(b.tokens, 2);
  assert.equal(b.waitTime(3), Infinity);
});

test('waitTime reports how long until tokens are available', () => {
  const now = fakeClock();
  const b = new TokenBucket({ capacity: 4, refillPerSecond: 2, now });
  assert.equal(b.waitTime(4), 0);
  b.tryRemove(4);
  assert.equal(b.waitTime(1), 500);
  assert.equal(b.waitTime(3), 1500);
  now.advance(1500);
  assert.equal(b.waitTime(3), 0);
});

test('a clock going backwards does not add tokens', () => {
  const now = fakeClock();
  const b = new TokenBucket({ capacity: 2, refillPerSecond: 1, now });
  b.tryRemove(2);
  now.advance(-5000);
  assert.equal(b.tryRemove(), false);
  now.advance(1000);
  assert.equal(b.tryRemove(), true);
});

test('validates options', () => {
  assert.throws(() => new TokenBucket({ capacity: 0, refillPerSecond: 1 }), RangeError);
  assert.throws(() => new TokenBucket({ capacity: 1, refillPerSecond: -1 }), RangeError);
});

test('KeyedLimiter keeps one bucket per key', () => {
  const now = fakeClock();
  const l = new KeyedLimiter({ capacity: 1, refillPerSecond: 1, now });
  assert.equal(l.tryRemove('a'), true);
  assert.equal(l.tryRemove('a'), false);
  assert.equal(l.tryRemove('b'), true);
});
