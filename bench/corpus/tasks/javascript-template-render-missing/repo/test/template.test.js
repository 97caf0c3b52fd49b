'use strict'

const { describe, it } = require('node:test')
const assert = require('node:assert/strict')
const { render, placeholders, lookup } = require('../lib/template')

describe('render', () => {
  it('substitutes simple and nested values', () => {
    assert.equal(render('Hi {name}!', { name: 'Ann' }), 'Hi Ann!')
    assert.equal(render('{user.name} <{user.email}>', { user: { name: 'Bo', email: 'b@x.io' } }), 'Bo <b@x.io>')
  })

  it('allows spaces inside the braces', () => {
    assert.equal(render('{ a }+{ b }', { a: 1, b: 2 }), '1+2')
  })

  it('renders falsy values that are present', () => {
    assert.equal(render('{n}/{s}/{f}', { n: 0, s: '', f: false }), '0//false')
  })

  it('treats {{ and }} as literal braces', () => {
    assert.equal(render('{{name}} is {name}', { name: 'x' }), '{name} is x')
  })

  it('leaves missing placeholders untouched by default', () => {
    assert.equal(render('Hello {name}, you owe {amount}', { name: 'Cy' }), 'Hello Cy, you owe {amount}')
  })

  it('can blank out or reject missing values', () => {
    assert.equal(render('[{x}]', {}, { missing: 'empty' }), '[]')
    assert.throws(() => render('[{x}]', {}, { missing: 'throw' }), /missing value for \{x\}/)
  })

  it('applies built-in and custom filters', () => {
    assert.equal(render('{name|upper}', { name: 'ann' }), 'ANN')
    assert.equal(render('{v | json}', { v: { a: 1 } }), '{"a":1}')
    assert.equal(render('{n|double}', { n: 21 }, { filters: { double: (v) => v * 2 } }), '42')
    assert.throws(() => render('{n|nope}', { n: 1 }), /unknown filter/)
  })

  it('does not read inherited properties', () => {
    assert.equal(render('{constructor}', {}, { missing: 'empty' }), '')
  })
})

describe('placeholders', () => {
  it('lists the paths once, in order', () => {
    assert.deepEqual(placeholders('{a} {b.c|upper} {{d}} {a}'), ['a', 'b.c'])
  })
})

describe('lookup', () => {
  it('walks dotted paths', () => {
    assert.equal(lookup({ a: { b: { c: 3 } } }, 'a.b.c'), 3)
    assert.equal(lookup({ a: null }, 'a.b'), undefined)
    assert.equal(lookup({ s: 'abc' }, 's.length'), 3)
  })
})
