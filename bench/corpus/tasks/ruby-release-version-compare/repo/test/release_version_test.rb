# frozen_string_literal: true

require "minitest/autorun"
require "release_version"

class ReleaseVersionTest < Minitest::Test
  def v(text)
    ReleaseVersion.parse(text)
  end

  def test_parse_and_to_s
    assert_equal "1.2.3", v("1.2.3").to_s
    assert_equal "1.2.3-rc.1+build.5", v("v1.2.3-rc.1+build.5").to_s
    assert_equal ["rc", "1"], v("1.2.3-rc.1").prerelease
  end

  def test_parse_rejects_invalid
    ["1.2", "1.2.3.4", "a.b.c", "1.2.3-", ""].each do |bad|
      assert_raises(ArgumentError, bad) { v(bad) }
    end
  end

  def test_core_ordering_is_numeric
    assert_operator v("1.10.0"), :>, v("1.9.9")
    assert_operator v("2.0.0"), :>, v("1.99.99")
    assert_equal v("1.0.0"), v("1.0.0")
  end

  def test_prerelease_sorts_before_release
    assert_operator v("1.0.0-alpha"), :<, v("1.0.0")
    assert_operator v("1.0.0"), :>, v("1.0.0-rc.9")
  end

  def test_semver_spec_precedence_example
    list = %w[1.0.0-alpha 1.0.0-alpha.1 1.0.0-alpha.beta 1.0.0-beta 1.0.0-beta.2 1.0.0-beta.11 1.0.0-rc.1 1.0.0]
    assert_equal list, list.reverse.map { |s| v(s) }.sort.map(&:to_s)
  end

  def test_build_metadata_is_ignored
    assert_equal 0, v("1.0.0+a") <=> v("1.0.0+b")
  end

  def test_not_comparable_with_strings
    assert_nil v("1.0.0") <=> "1.0.0"
  end

  def test_bump
    assert_equal "2.0.0", v("1.4.2").bump(:major).to_s
    assert_equal "1.5.0", v("1.4.2-rc.1").bump(:minor).to_s
    assert_equal "1.4.3", v("1.4.2").bump(:patch).to_s
    assert_equal "1.4.2", v("1.4.2-rc.1").bump(:patch).to_s
    assert_raises(ArgumentError) { v("1.0.0").bump(:epoch) }
  end
end
