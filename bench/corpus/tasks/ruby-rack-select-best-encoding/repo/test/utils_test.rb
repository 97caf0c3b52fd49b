# frozen_string_literal: true

require "minitest/autorun"
require "rack/utils"

# Adapted from rack's test/spec_utils.rb ("parse q-values" and "figure out
# which encodings are acceptable"); the assertions of the latter are split
# into several examples.
describe Rack::Utils do
  it "parse q-values" do
    # XXX handle accept-extension
    _(Rack::Utils.q_values("foo;q=0.5,bar,baz;q=0.9")).must_equal [
      [ 'foo', 0.5 ],
      [ 'bar', 1.0 ],
      [ 'baz', 0.9 ]
    ]
  end

  describe "figure out which encodings are acceptable" do
    helper = Rack::Utils.method(:select_best_encoding)

    it "returns nil when nothing is acceptable" do
      _(helper.call(%w(), [["x", 1]])).must_be_nil
      _(helper.call(%w(identity), [["identity", 0.0]])).must_be_nil
      _(helper.call(%w(identity), [["*", 0.0]])).must_be_nil
    end

    it "falls back to identity" do
      _(helper.call(%w(identity), [["compress", 1.0], ["gzip", 1.0]])).must_equal "identity"
      _(helper.call(%w(foo bar identity), [])).must_equal "identity"
    end

    it "prefers higher quality, then the server's order" do
      _(helper.call(%w(compress gzip identity), [["compress", 1.0], ["gzip", 1.0]])).must_equal "compress"
      _(helper.call(%w(compress gzip identity), [["compress", 0.5], ["gzip", 1.0]])).must_equal "gzip"
      _(helper.call(%w(compress gzip identity), [["gzip", 1.0], ["compress", 1.0]])).must_equal "compress"
    end

    it "expands the * wildcard" do
      _(helper.call(%w(foo bar identity), [["*", 1.0]])).must_equal "foo"
      _(helper.call(%w(foo bar identity), [["*", 1.0], ["foo", 0.9]])).must_equal "bar"
    end

    it "honours q=0 and explicit identity preferences" do
      _(helper.call(%w(foo bar identity), [["foo", 0], ["bar", 0]])).must_equal "identity"
      _(helper.call(%w(foo bar baz identity), [["*", 0], ["identity", 0.1]])).must_equal "identity"
      _(helper.call(%w(foo bar baz identity), [["*", 0.1], ["identity", 0.2]])).must_equal "identity"
      _(helper.call(%w(foo bar baz identity), [["*", 0.1], ["identity", 0.2], ["*", 0.3]])).must_equal "identity"
      _(helper.call(%w(foo bar baz identity), [["*", 0.3], ["identity", 0.2], ["*", 0.1]])).must_equal "foo"
    end
  end
end
