# frozen_string_literal: true

require "minitest/autorun"
require "dry/inflector"
require_relative "support/ordinalize_fixtures"

module InflectorSpecHelpers
  # Frozen copy of the input, to check the inflector does not mutate it
  # (the `i` helper of dry-inflector's spec suite).
  def i(string)
    string.dup.freeze
  end

  def subject
    @subject ||= Dry::Inflector.new
  end
end

Minitest::Spec.include InflectorSpecHelpers
