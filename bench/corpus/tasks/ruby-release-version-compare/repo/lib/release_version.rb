# frozen_string_literal: true

# Semantic-version-like release numbers: MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]
class ReleaseVersion
  include Comparable

  PATTERN = /\A(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?\z/

  attr_reader :major, :minor, :patch, :prerelease, :build

  def self.parse(text)
    m = PATTERN.match(text.to_s.strip.delete_prefix("v"))
    raise ArgumentError, "invalid version: #{text.inspect}" unless m

    new(m[1].to_i, m[2].to_i, m[3].to_i, m[4]&.split("."), m[5])
  end

  def initialize(major, minor, patch, prerelease = nil, build = nil)
    @major = major
    @minor = minor
    @patch = patch
    @prerelease = prerelease || []
    @build = build
  end

  def prerelease?
    !prerelease.empty?
  end

  # Build metadata is ignored for precedence. A pre-release sorts before the
  # release it leads up to; pre-release identifiers compare numerically when
  # both are numbers, numbers sort before words, and a longer list wins when
  # one is a prefix of the other.
  def <=>(other)
    return nil unless other.is_a?(ReleaseVersion)

    core = [major, minor, patch] <=> [other.major, other.minor, other.patch]
    return core unless core.zero?
    return 0 if prerelease == other.prerelease
    return 1 unless prerelease?
    return -1 unless other.prerelease?

    compare_prerelease(prerelease, other.prerelease)
  end

  def bump(part)
    case part
    when :major then ReleaseVersion.new(major + 1, 0, 0)
    when :minor then ReleaseVersion.new(major, minor + 1, 0)
    when :patch then prerelease? ? ReleaseVersion.new(major, minor, patch) : ReleaseVersion.new(major, minor, patch + 1)
    else raise ArgumentError, "unknown part: #{part.inspect}"
    end
  end

  def to_s
    s = +"#{major}.#{minor}.#{patch}"
    s << "-#{prerelease.join(".")}" if prerelease?
    s << "+#{build}" if build
    s
  end

  private

  def compare_prerelease(mine, theirs)
    mine.zip(theirs).each do |a, b|
      return 1 if b.nil?

      c = compare_identifier(a, b)
      return c unless c.zero?
    end
    mine.length <=> theirs.length
  end

  def compare_identifier(a, b)
    a_num = a.match?(/\A\d+\z/)
    b_num = b.match?(/\A\d+\z/)
    if a_num && b_num
      a.to_i <=> b.to_i
    elsif a_num
      -1
    elsif b_num
      1
    else
      a <=> b
    end
  end
end
