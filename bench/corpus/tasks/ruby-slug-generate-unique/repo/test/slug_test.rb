# frozen_string_literal: true

require "minitest/autorun"
require "set"
require "slug"

class SlugTest < Minitest::Test
  def test_basic
    assert_equal "hello-world", Slug.generate("Hello, World!")
  end

  def test_accents_and_apostrophes
    assert_equal "creme-brulee-dont-panic", Slug.generate("Crème Brûlée: Don’t Panic!")
  end

  def test_leading_and_trailing_junk
    assert_equal "a-b", Slug.generate("  --a   b--  ")
    assert_equal "", Slug.generate("!!!")
  end

  def test_custom_separator
    assert_equal "rust_1_80_released", Slug.generate("Rust 1.80 released", separator: "_")
  end

  def test_truncates_at_word_boundary
    assert_equal "the-quick-brown", Slug.generate("The quick brown fox jumps", max_length: 18)
    assert_equal "abcdefghij", Slug.generate("abcdefghijklmnop qr", max_length: 10)
  end

  def test_short_slugs_are_not_truncated
    assert_equal "short-title", Slug.generate("Short title", max_length: 11)
  end

  def test_unique_returns_slug_when_free
    assert_equal "post", Slug.unique("post", %w[other])
  end

  def test_unique_appends_counter
    assert_equal "post-2", Slug.unique("post", %w[post])
    assert_equal "post-4", Slug.unique("post", Set["post", "post-2", "post-3"])
  end

  def test_unique_with_custom_separator
    assert_equal "post_2", Slug.unique("post", %w[post], separator: "_")
  end
end
