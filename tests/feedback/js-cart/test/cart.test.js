'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { linePrice, itemCount } = require('../src/cart');

test('linePrice multiplies the price by the quantity', () => {
  assert.strictEqual(linePrice({ price: 4, quantity: 3 }), 12);
});

test('itemCount sums the quantities', () => {
  assert.strictEqual(itemCount([{ price: 1, quantity: 2 }, { price: 5, quantity: 3 }]), 5);
});
