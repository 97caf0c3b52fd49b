'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { slugify, uniqueSlug } = require('../src/slugify');

test('lower-cases and joins words', () => {
  assert.strictEqual(slugify('Hello World'), 'hello-world');
});

test('strips accents', () => {
  assert.strictEqual(slugify('Crème brûlée'), 'creme-brulee');
});

test('collapses punctuation and spaces into one dash', () => {
  assert.strictEqual(slugify('  Hello,   World!  '), 'hello-world');
});

test('unique slug appends a counter', () => {
  assert.strictEqual(uniqueSlug('post', new Set(['post', 'post-2'])), 'post-3');
  assert.strictEqual(uniqueSlug('fresh', new Set(['post'])), 'fresh');
});
