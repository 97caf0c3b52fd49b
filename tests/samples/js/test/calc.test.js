'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { add, sub, mul } = require('../src/calc');

test('add adds', () => {
  assert.strictEqual(add(2, 3), 5);
});

test('mul multiplies', () => {
  assert.strictEqual(mul(2, 3), 6);
});

test('sub subtracts', () => {
  assert.strictEqual(sub(5, 3), 2);
});
