# frozen_string_literal: true

# URL slugs for titles.
module Slug
  module_function

  # "Crème Brûlée: Don't Panic!" => "creme-brulee-dont-panic"
  #
  # Slugs longer than +max_length+ are cut at the last separator that fits,
  # so words are not split (unless the first word alone is too long).
  def generate(text, separator: "-", max_length: 60)
    s = text.to_s.unicode_normalize(:nfkd).gsub(/\p{Mn}/, "").downcase
    s = s.gsub(/['\u2019]/, "")
    s = s.gsub(/[^a-z0-9]+/, separator)
    s = strip_separators(s, separator)
    truncate(s, max_length, separator)
  end

  # Make +slug+ unique among +taken+ by appending -2, -3, ...
  def unique(slug, taken, separator: "-")
    taken = taken.to_set if taken.respond_to?(:to_set)
    return slug unless taken.include?(slug)

    n = 2
    n += 1 while taken.include?(with_counter(slug, separator, n))
    with_counter(slug, separator, n)
  end

  def with_counter(slug, separator, n)
    "#{slug}#{separator}#{n}"
  end

  def truncate(slug, max_length, separator)
    return slug if slug.length <= max_length

    cut = slug[0, max_length]
    last = cut.rindex(separator)
    cut = cut[0, last] if last&.positive?
    strip_separators(cut, separator)
  end

  def strip_separators(s, separator)
    s = s.delete_prefix(separator) while s.start_with?(separator)
    s = s.delete_suffix(separator) while s.end_with?(separator)
    s
  end
end
