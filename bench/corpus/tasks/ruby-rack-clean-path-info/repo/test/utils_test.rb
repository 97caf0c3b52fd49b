# frozen_string_literal: true

require "minitest/autorun"
require "rack/utils"

# Adapted from rack test/spec_utils.rb
describe Rack::Utils do
  it "clean directory traversal" do
    _(Rack::Utils.clean_path_info("/cgi/../cgi/test")).must_equal "/cgi/test"
    _(Rack::Utils.clean_path_info(".")).must_be_empty
    _(Rack::Utils.clean_path_info("test/..")).must_be_empty
  end

  it "clean unsafe directory traversal to safe path" do
    _(Rack::Utils.clean_path_info("/../README.rdoc")).must_equal "/README.rdoc"
    _(Rack::Utils.clean_path_info("../test/spec_utils.rb")).must_equal "test/spec_utils.rb"
  end

  it "not clean directory traversal with encoded periods" do
    _(Rack::Utils.clean_path_info("/%2E%2E/README")).must_equal "/%2E%2E/README"
  end

  it "clean slash only paths" do
    _(Rack::Utils.clean_path_info("/")).must_equal "/"
  end

  it "accepts valid paths" do
    _(Rack::Utils.valid_path?("/cgi/test")).must_equal true
  end

  it "rejects paths with null bytes or invalid encoding" do
    _(Rack::Utils.valid_path?("/cgi\0/test")).must_equal false
    _(Rack::Utils.valid_path?("/caf\xC3".dup.force_encoding(Encoding::UTF_8))).must_equal false
  end
end
