'use strict'

const fs = require('fs')
const path = require('path')
const assert = require('node:assert')
const { test } = require('node:test')

const dotenv = require('../lib/main')

const parsed = dotenv.parse(fs.readFileSync(path.join(__dirname, 'fixtures', '.env'), { encoding: 'utf8' }))

test('should return an object', () => {
  assert.strictEqual(typeof parsed, 'object')
})

test('BASIC: sets basic environment variable', () => {
  assert.strictEqual(parsed.BASIC, 'basic')
})

test('AFTER_LINE: reads after a skipped line', () => {
  assert.strictEqual(parsed.AFTER_LINE, 'after_line')
})

test('EMPTY: defaults empty values to empty string', () => {
  assert.strictEqual(parsed.EMPTY, '')
})

test('EMPTY_SINGLE_QUOTES: defaults empty values to empty string', () => {
  assert.strictEqual(parsed.EMPTY_SINGLE_QUOTES, '')
})

test('EMPTY_DOUBLE_QUOTES: defaults empty values to empty string', () => {
  assert.strictEqual(parsed.EMPTY_DOUBLE_QUOTES, '')
})

test('EMPTY_BACKTICKS: defaults empty values to empty string', () => {
  assert.strictEqual(parsed.EMPTY_BACKTICKS, '')
})

test('SINGLE_QUOTES: escapes single quoted values', () => {
  assert.strictEqual(parsed.SINGLE_QUOTES, 'single_quotes')
})

test('SINGLE_QUOTES_SPACED: respects surrounding spaces in single quotes', () => {
  assert.strictEqual(parsed.SINGLE_QUOTES_SPACED, '    single quotes    ')
})

test('DOUBLE_QUOTES: escapes double quoted values', () => {
  assert.strictEqual(parsed.DOUBLE_QUOTES, 'double_quotes')
})

test('DOUBLE_QUOTES_SPACED: respects surrounding spaces in double quotes', () => {
  assert.strictEqual(parsed.DOUBLE_QUOTES_SPACED, '    double quotes    ')
})

test('DOUBLE_QUOTES_INSIDE_SINGLE: respects double quotes inside single quotes', () => {
  assert.strictEqual(parsed.DOUBLE_QUOTES_INSIDE_SINGLE, 'double "quotes" work inside single quotes')
})

test('DOUBLE_QUOTES_WITH_NO_SPACE_BRACKET: respects spacing for badly formed brackets', () => {
  assert.strictEqual(parsed.DOUBLE_QUOTES_WITH_NO_SPACE_BRACKET, '{ port: $MONGOLAB_PORT}')
})

test('SINGLE_QUOTES_INSIDE_DOUBLE: respects single quotes inside double quotes', () => {
  assert.strictEqual(parsed.SINGLE_QUOTES_INSIDE_DOUBLE, "single 'quotes' work inside double quotes")
})

test('BACKTICKS_INSIDE_SINGLE: respects backticks inside single quotes', () => {
  assert.strictEqual(parsed.BACKTICKS_INSIDE_SINGLE, '`backticks` work inside single quotes')
})

test('BACKTICKS_INSIDE_DOUBLE: respects backticks inside double quotes', () => {
  assert.strictEqual(parsed.BACKTICKS_INSIDE_DOUBLE, '`backticks` work inside double quotes')
})

test('BACKTICKS', () => {
  assert.strictEqual(parsed.BACKTICKS, 'backticks')
})

test('BACKTICKS_SPACED', () => {
  assert.strictEqual(parsed.BACKTICKS_SPACED, '    backticks    ')
})

test('DOUBLE_QUOTES_INSIDE_BACKTICKS: respects double quotes inside backticks', () => {
  assert.strictEqual(parsed.DOUBLE_QUOTES_INSIDE_BACKTICKS, 'double "quotes" work inside backticks')
})

test('SINGLE_QUOTES_INSIDE_BACKTICKS: respects single quotes inside backticks', () => {
  assert.strictEqual(parsed.SINGLE_QUOTES_INSIDE_BACKTICKS, "single 'quotes' work inside backticks")
})

test('DOUBLE_AND_SINGLE_QUOTES_INSIDE_BACKTICKS: respects single quotes inside backticks', () => {
  assert.strictEqual(parsed.DOUBLE_AND_SINGLE_QUOTES_INSIDE_BACKTICKS, "double \"quotes\" and single 'quotes' work inside backticks")
})

test('EXPAND_NEWLINES: expands newlines but only if double quoted', () => {
  assert.strictEqual(parsed.EXPAND_NEWLINES, 'expand\nnew\nlines')
})

test('DONT_EXPAND_UNQUOTED: expands newlines but only if double quoted', () => {
  assert.strictEqual(parsed.DONT_EXPAND_UNQUOTED, 'dontexpand\\nnewlines')
})

test('DONT_EXPAND_SQUOTED: expands newlines but only if double quoted', () => {
  assert.strictEqual(parsed.DONT_EXPAND_SQUOTED, 'dontexpand\\nnewlines')
})

test('COMMENTS: ignores commented lines', () => {
  assert.ok(!parsed.COMMENTS)
})

test('INLINE_COMMENTS: ignores inline comments', () => {
  assert.strictEqual(parsed.INLINE_COMMENTS, 'inline comments')
})

test('INLINE_COMMENTS_SINGLE_QUOTES: ignores inline comments and respects # character inside of single quotes', () => {
  assert.strictEqual(parsed.INLINE_COMMENTS_SINGLE_QUOTES, 'inline comments outside of #singlequotes')
})

test('INLINE_COMMENTS_DOUBLE_QUOTES: ignores inline comments and respects # character inside of double quotes', () => {
  assert.strictEqual(parsed.INLINE_COMMENTS_DOUBLE_QUOTES, 'inline comments outside of #doublequotes')
})

test('INLINE_COMMENTS_BACKTICKS: ignores inline comments and respects # character inside of backticks', () => {
  assert.strictEqual(parsed.INLINE_COMMENTS_BACKTICKS, 'inline comments outside of #backticks')
})

test('INLINE_COMMENTS_SPACE: treats # character as start of comment', () => {
  assert.strictEqual(parsed.INLINE_COMMENTS_SPACE, 'inline comments start with a')
})

test('EQUAL_SIGNS: respects equals signs in values', () => {
  assert.strictEqual(parsed.EQUAL_SIGNS, 'equals==')
})

test('RETAIN_INNER_QUOTES: retains inner quotes', () => {
  assert.strictEqual(parsed.RETAIN_INNER_QUOTES, '{"foo": "bar"}')
})

test('RETAIN_INNER_QUOTES_AS_STRING: retains inner quotes', () => {
  assert.strictEqual(parsed.RETAIN_INNER_QUOTES_AS_STRING, '{"foo": "bar"}')
})

test('RETAIN_INNER_QUOTES_AS_BACKTICKS: retains inner quotes', () => {
  assert.strictEqual(parsed.RETAIN_INNER_QUOTES_AS_BACKTICKS, '{"foo": "bar\'s"}')
})

test('TRIM_SPACE_FROM_UNQUOTED: retains spaces in string', () => {
  assert.strictEqual(parsed.TRIM_SPACE_FROM_UNQUOTED, 'some spaced out string')
})

test('USERNAME: parses email addresses completely', () => {
  assert.strictEqual(parsed.USERNAME, 'therealnerdybeast@example.tld')
})

test('SPACED_KEY: parses keys and values surrounded by spaces', () => {
  assert.strictEqual(parsed.SPACED_KEY, 'parsed')
})

test('should parse a buffer into an object', () => {
  const payload = dotenv.parse(Buffer.from('BUFFER=true'))
  assert.strictEqual(payload.BUFFER, 'true')
})

const expectedPayload = { SERVER: 'localhost', PASSWORD: 'password', DB: 'tests' }

test('can parse (\\r) line endings', () => {
  assert.deepStrictEqual(dotenv.parse(Buffer.from('SERVER=localhost\rPASSWORD=password\rDB=tests\r')), expectedPayload)
})

test('can parse (\\n) line endings', () => {
  assert.deepStrictEqual(dotenv.parse(Buffer.from('SERVER=localhost\nPASSWORD=password\nDB=tests\n')), expectedPayload)
})

test('can parse (\\r\\n) line endings', () => {
  assert.deepStrictEqual(dotenv.parse(Buffer.from('SERVER=localhost\r\nPASSWORD=password\r\nDB=tests\r\n')), expectedPayload)
})
