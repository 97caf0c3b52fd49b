'use strict'

const { describe, it } = require('node:test')
const assert = require('node:assert')
const { paginate, pageWindow } = require('../lib/paginate')

describe('paginate', () => {
  it('computes the first page', () => {
    const p = paginate({ total: 100, perPage: 20 })
    assert.strictEqual(p.pageCount, 5)
    assert.strictEqual(p.page, 1)
    assert.strictEqual(p.offset, 0)
    assert.strictEqual(p.limit, 20)
    assert.strictEqual(p.hasPrev, false)
    assert.strictEqual(p.hasNext, true)
  })

  it('counts a partial last page', () => {
    const p = paginate({ total: 101, perPage: 20, page: 6 })
    assert.strictEqual(p.pageCount, 6)
    assert.strictEqual(p.page, 6)
    assert.strictEqual(p.offset, 100)
    assert.strictEqual(p.limit, 1)
    assert.strictEqual(p.hasNext, false)
  })

  it('has one page when there are no items', () => {
    const p = paginate({ total: 0 })
    assert.strictEqual(p.pageCount, 1)
    assert.strictEqual(p.page, 1)
    assert.strictEqual(p.limit, 0)
    assert.deepStrictEqual(p.pages, [1])
  })

  it('clamps out-of-range and junk pages', () => {
    assert.strictEqual(paginate({ total: 50, perPage: 10, page: 99 }).page, 5)
    assert.strictEqual(paginate({ total: 50, perPage: 10, page: -3 }).page, 1)
    assert.strictEqual(paginate({ total: 50, perPage: 10, page: 'abc' }).page, 1)
    assert.strictEqual(paginate({ total: 50, perPage: 10, page: '3' }).page, 3)
  })

  it('validates its arguments', () => {
    assert.throws(() => paginate({ total: -1 }), TypeError)
    assert.throws(() => paginate({ total: 10, perPage: 0 }), TypeError)
  })
})

describe('pageWindow', () => {
  it('centres on the current page', () => {
    assert.deepStrictEqual(pageWindow(10, 20, 5), [8, 9, 10, 11, 12])
  })

  it('sticks to the first pages near the start', () => {
    assert.deepStrictEqual(pageWindow(2, 20, 5), [1, 2, 3, 4, 5])
  })

  it('sticks to the last pages near the end', () => {
    assert.deepStrictEqual(pageWindow(20, 20, 5), [16, 17, 18, 19, 20])
    assert.deepStrictEqual(pageWindow(19, 20, 4), [17, 18, 19, 20])
  })

  it('shows every page when there are fewer than the window', () => {
    assert.deepStrictEqual(pageWindow(2, 3, 5), [1, 2, 3])
  })
})
