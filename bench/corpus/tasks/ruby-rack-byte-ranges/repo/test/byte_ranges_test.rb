# frozen_string_literal: true

require "minitest/autorun"
require "rack/utils"

describe Rack::Utils, "get_byte_ranges" do
  it "returns an empty list if the sum of the ranges is too large" do
    assert_equal [], Rack::Utils.byte_ranges({ "HTTP_RANGE" => "bytes=0-20,0-500" }, 500)
  end

  it "returns an empty list if the number of ranges exceeds what is allowed" do
    range = "bytes=#{Array.new(101) { |i| "#{i}=#{i}"}.join(',')}"
    assert_nil Rack::Utils.byte_ranges({ "HTTP_RANGE" => range }, 500)
    assert_nil Rack::Utils.get_byte_ranges(range, 500)

    assert_nil Rack::Utils.byte_ranges({ "HTTP_RANGE" => "bytes=0-0,1-1" }, 500, max_ranges: 1)
    assert_nil Rack::Utils.get_byte_ranges("bytes=0-0,1-1", 500, max_ranges: 1)

    assert_equal [0..0], Rack::Utils.byte_ranges({ "HTTP_RANGE" => "bytes=0-0" }, 500, max_ranges: 1)
    assert_equal [0..0], Rack::Utils.get_byte_ranges("bytes=0-0", 500, max_ranges: 1)
  end

  it "parse simple byte ranges from env" do
    _(Rack::Utils.byte_ranges({ "HTTP_RANGE" => "bytes=123-456" }, 500)).must_equal [(123..456)]
  end

  it "ignore missing or syntactically invalid byte ranges" do
    _(Rack::Utils.get_byte_ranges(nil, 500)).must_be_nil
    _(Rack::Utils.get_byte_ranges("foobar", 500)).must_be_nil
    _(Rack::Utils.get_byte_ranges("furlongs=123-456", 500)).must_be_nil
    _(Rack::Utils.get_byte_ranges("bytes=", 500)).must_be_nil
    _(Rack::Utils.get_byte_ranges("bytes=-", 500)).must_be_nil
    _(Rack::Utils.get_byte_ranges("bytes=123,456", 500)).must_be_nil
    # A range of non-positive length is syntactically invalid and ignored:
    _(Rack::Utils.get_byte_ranges("bytes=456-123", 500)).must_be_nil
    _(Rack::Utils.get_byte_ranges("bytes=456-455", 500)).must_be_nil
  end

  it "parse simple byte ranges" do
    _(Rack::Utils.get_byte_ranges("bytes=123-456", 500)).must_equal [(123..456)]
    _(Rack::Utils.get_byte_ranges("bytes=123-", 500)).must_equal [(123..499)]
    _(Rack::Utils.get_byte_ranges("bytes=-100", 500)).must_equal [(400..499)]
    _(Rack::Utils.get_byte_ranges("bytes=0-0", 500)).must_equal [(0..0)]
    _(Rack::Utils.get_byte_ranges("bytes=499-499", 500)).must_equal [(499..499)]
  end

  it "parse several byte ranges" do
    _(Rack::Utils.get_byte_ranges("bytes=500-600,601-999", 1000)).must_equal [(500..600), (601..999)]
  end

  it "truncate byte ranges" do
    _(Rack::Utils.get_byte_ranges("bytes=123-999", 500)).must_equal [(123..499)]
    _(Rack::Utils.get_byte_ranges("bytes=600-999", 500)).must_equal []
    _(Rack::Utils.get_byte_ranges("bytes=-999", 500)).must_equal [(0..499)]
  end

  it "ignore unsatisfiable byte ranges" do
    _(Rack::Utils.get_byte_ranges("bytes=500-501", 500)).must_equal []
    _(Rack::Utils.get_byte_ranges("bytes=500-", 500)).must_equal []
    _(Rack::Utils.get_byte_ranges("bytes=999-", 500)).must_equal []
    _(Rack::Utils.get_byte_ranges("bytes=-0", 500)).must_equal []
  end

  it "handle byte ranges of empty files" do
    _(Rack::Utils.get_byte_ranges("bytes=123-456", 0)).must_be_nil
    _(Rack::Utils.get_byte_ranges("bytes=0-", 0)).must_be_nil
    _(Rack::Utils.get_byte_ranges("bytes=-100", 0)).must_be_nil
    _(Rack::Utils.get_byte_ranges("bytes=0-0", 0)).must_be_nil
    _(Rack::Utils.get_byte_ranges("bytes=-0", 0)).must_be_nil
  end
end

