'use strict'

var assert = require('node:assert')
var { describe, it } = require('node:test')
var vary = require('..')

describe('vary(res, field)', function () {
  describe('arguments', function () {
    describe('res', function () {
      it('should be required', function () {
        assert.throws(vary.bind(), /res.*required/)
      })

      it('should not allow non-res-like objects', function () {
        assert.throws(vary.bind(null, {}), /res.*required/)
      })
    })
  })
})

describe('vary.append(header, field)', function () {
  describe('arguments', function () {
    describe('header', function () {
      it('should be required', function () {
        assert.throws(vary.append.bind(), /header.*required/)
      })

      it('should be a string', function () {
        assert.throws(vary.append.bind(null, 42), /header.*required/)
      })
    })

    describe('field', function () {
      it('should be required', function () {
        assert.throws(vary.append.bind(null, ''), /field.*required/)
      })

      it('should accept string', function () {
        assert.doesNotThrow(vary.append.bind(null, '', 'foo'))
      })

      it('should accept string that is Vary header', function () {
        assert.doesNotThrow(vary.append.bind(null, '', 'foo, bar'))
      })

      it('should accept array of string', function () {
        assert.doesNotThrow(vary.append.bind(null, '', ['foo', 'bar']))
      })

      it('should not allow separator ":"', function () {
        assert.throws(vary.append.bind(null, '', 'invalid:header'), /field.*contains.*invalid/)
      })

      it('should not allow separator " "', function () {
        assert.throws(vary.append.bind(null, '', 'invalid header'), /field.*contains.*invalid/)
      })

      it('should not allow non-token characters', function () {
        assert.throws(vary.append.bind(null, '', 'invalid\nheader'), /field.*contains.*invalid/)
        assert.throws(vary.append.bind(null, '', 'invalid\u0080header'), /field.*contains.*invalid/)
      })
    })
  })

  describe('when header empty', function () {
    it('should set value', function () {
      assert.strictEqual(vary.append('', 'Origin'), 'Origin')
    })

    it('should set value with array', function () {
      assert.strictEqual(vary.append('', ['Origin', 'User-Agent']), 'Origin, User-Agent')
    })

    it('should preserve case', function () {
      assert.strictEqual(vary.append('', ['ORIGIN', 'user-agent', 'AccepT']), 'ORIGIN, user-agent, AccepT')
    })
  })

  describe('when header has values', function () {
    it('should set value', function () {
      assert.strictEqual(vary.append('Accept', 'Origin'), 'Accept, Origin')
    })

    it('should set value with array', function () {
      assert.strictEqual(vary.append('Accept', ['Origin', 'User-Agent']), 'Accept, Origin, User-Agent')
    })

    it('should not duplicate existing value', function () {
      assert.strictEqual(vary.append('Accept', 'Accept'), 'Accept')
    })

    it('should compare case-insensitive', function () {
      assert.strictEqual(vary.append('Accept', 'accEPT'), 'Accept')
    })

    it('should preserve case', function () {
      assert.strictEqual(vary.append('Accept', 'AccepT'), 'Accept')
    })
  })

  describe('when *', function () {
    it('should set value', function () {
      assert.strictEqual(vary.append('', '*'), '*')
    })

    it('should act as if all values already set', function () {
      assert.strictEqual(vary.append('*', 'Origin'), '*')
    })

    it('should erradicate existing values', function () {
      assert.strictEqual(vary.append('Accept, Accept-Encoding', '*'), '*')
    })

    it('should update bad existing header', function () {
      assert.strictEqual(vary.append('Accept, Accept-Encoding, *', 'Origin'), '*')
    })
  })

  describe('when field is string', function () {
    it('should set value', function () {
      assert.strictEqual(vary.append('', 'Accept'), 'Accept')
    })

    it('should set value when vary header', function () {
      assert.strictEqual(vary.append('', 'Accept, Accept-Encoding'), 'Accept, Accept-Encoding')
    })

    it('should acept LWS', function () {
      assert.strictEqual(vary.append('', '  Accept     ,     Origin    '), 'Accept, Origin')
    })

    it('should handle contained *', function () {
      assert.strictEqual(vary.append('', 'Accept,*'), '*')
    })
  })

  describe('when field is array', function () {
    it('should set value', function () {
      assert.strictEqual(vary.append('', ['Accept', 'Accept-Language']), 'Accept, Accept-Language')
    })

    it('should ignore double-entries', function () {
      assert.strictEqual(vary.append('', ['Accept', 'Accept']), 'Accept')
    })

    it('should be case-insensitive', function () {
      assert.strictEqual(vary.append('', ['Accept', 'ACCEPT']), 'Accept')
    })

    it('should handle contained *', function () {
      assert.strictEqual(vary.append('', ['Origin', 'User-Agent', '*', 'Accept']), '*')
    })

    it('should handle existing values', function () {
      assert.strictEqual(vary.append('Accept, Accept-Encoding', ['origin', 'accept', 'accept-charset']), 'Accept, Accept-Encoding, origin, accept-charset')
    })
  })
})
