# frozen_string_literal: true

# A small INI reader.
#
#   [section]        starts a section; keys before any section go to "global"
#   key = value      whitespace around key and value is ignored
#   ; comment        and "# comment" lines are skipped
#   key = a \        a trailing backslash continues the value on the next line
#     b
#   key = "  x  "    double quotes keep surrounding spaces; \n and \" are unescaped
module IniConfig
  class ParseError < StandardError; end

  GLOBAL = "global"

  module_function

  def parse(text)
    data = Hash.new { |h, k| h[k] = {} }
    section = GLOBAL
    pending = nil

    text.each_line.with_index(1) do |raw, lineno|
      line = raw.chomp

      if pending
        key, value = pending
        line = line.strip
        if line.end_with?("\\")
          pending = [key, value + line.chomp("\\").rstrip + " "]
        else
          data[section][key] = unquote(value + line)
          pending = nil
        end
        next
      end

      stripped = line.strip
      next if stripped.empty? || stripped.start_with?(";", "#")

      if (m = /\A\[\s*([^\]]+?)\s*\]\z/.match(stripped))
        section = m[1].downcase
        data[section]
        next
      end

      key, sep, value = stripped.partition("=")
      raise ParseError, "line #{lineno}: expected key = value" if sep.empty? || key.strip.empty?

      key = key.strip.downcase
      value = value.strip
      if value.end_with?("\\")
        pending = [key, value.chomp("\\").rstrip + " "]
      else
        data[section][key] = unquote(value)
      end
    end

    raise ParseError, "unterminated continuation line" if pending

    data.default_proc = nil
    data
  end

  def unquote(value)
    return value unless value.length >= 2 && value.start_with?('"') && value.end_with?('"')

    value[1...-1].gsub(/\\(.)/) { Regexp.last_match(1) == "n" ? "\n" : Regexp.last_match(1) }
  end

  # Typed lookup with a default.
  def fetch(data, section, key, default = nil)
    value = data.fetch(section.downcase, {}).fetch(key.downcase, nil)
    return default if value.nil?

    case default
    when Integer then Integer(value, 10)
    when true, false then %w[1 yes true on].include?(value.downcase)
    else value
    end
  end
end
