# frozen_string_literal: true

require "minitest/autorun"
require "ini_config"

class IniConfigTest < Minitest::Test
  SAMPLE = <<~INI
    ; top comment
    name = demo

    [Server]
    host = example.org
    Port=8080
    dsn = postgres://app@db/main?sslmode=require
    # another comment
    banner = "  hello \\"world\\"  "

    [paths]
    search = /usr/lib \\
             /opt/lib \\
             /home/me/lib
    empty =
  INI

  def setup
    @data = IniConfig.parse(SAMPLE)
  end

  def test_global_keys
    assert_equal({ "name" => "demo" }, @data["global"])
  end

  def test_sections_and_keys_are_case_insensitive
    assert_equal "example.org", @data["server"]["host"]
    assert_equal "8080", @data["server"]["port"]
  end

  def test_values_may_contain_equals_signs
    assert_equal "postgres://app@db/main?sslmode=require", @data["server"]["dsn"]
  end

  def test_quoted_values_keep_spaces_and_unescape
    assert_equal '  hello "world"  ', @data["server"]["banner"]
  end

  def test_continuation_lines
    assert_equal "/usr/lib /opt/lib /home/me/lib", @data["paths"]["search"]
  end

  def test_empty_value
    assert_equal "", @data["paths"]["empty"]
  end

  def test_section_list
    assert_equal %w[global server paths], @data.keys
  end

  def test_missing_section_is_nil_not_autovivified
    assert_nil @data["nope"]
    refute @data.key?("nope")
  end

  def test_errors
    assert_raises(IniConfig::ParseError) { IniConfig.parse("just text\n") }
    assert_raises(IniConfig::ParseError) { IniConfig.parse("= value\n") }
    assert_raises(IniConfig::ParseError) { IniConfig.parse("a = b \\\n") }
  end

  def test_fetch_with_types
    assert_equal 8080, IniConfig.fetch(@data, "Server", "PORT", 80)
    assert_equal 80, IniConfig.fetch(@data, "server", "missing", 80)
    assert_equal true, IniConfig.fetch({ "x" => { "on" => "Yes" } }, "x", "on", false)
    assert_equal "demo", IniConfig.fetch(@data, "global", "name")
  end
end
