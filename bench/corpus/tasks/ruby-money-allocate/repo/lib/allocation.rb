# frozen_string_literal: true

# Splitting an amount of money, in integer cents, into parts without losing
# or inventing a cent.
module Allocation
  module_function

  # Split +cents+ in proportion to +ratios+ (non-negative numbers, not all
  # zero). Leftover cents go one by one to the parts with the largest
  # fractional remainders; ties go to the earlier part.
  #
  #   Allocation.by_ratios(100, [1, 1, 1]) # => [34, 33, 33]
  def by_ratios(cents, ratios)
    raise ArgumentError, "cents must be an Integer" unless cents.is_a?(Integer)
    raise ArgumentError, "ratios must not be empty" if ratios.empty?
    raise ArgumentError, "ratios must be non-negative" if ratios.any?(&:negative?)

    total = ratios.sum
    raise ArgumentError, "ratios must not all be zero" if total.zero?

    sign = cents.negative? ? -1 : 1
    amount = cents.abs

    exact = ratios.map { |r| Rational(amount * r, total) }
    parts = exact.map(&:floor)
    leftover = amount - parts.sum

    order = exact.each_with_index.sort_by { |value, index| [-(value - value.floor), index] }
    order.first(leftover).each { |_value, index| parts[index] += 1 }

    parts.map { |p| p * sign }
  end

  # Split +cents+ into +count+ parts that differ by at most one cent.
  def evenly(cents, count)
    raise ArgumentError, "count must be positive" unless count.is_a?(Integer) && count.positive?

    by_ratios(cents, Array.new(count, 1))
  end

  # Format cents as a decimal string, e.g. 1234 => "12.34", -5 => "-0.05".
  def format(cents)
    sign = cents.negative? ? "-" : ""
    units, rest = cents.abs.divmod(100)
    "#{sign}#{units}.#{rest.to_s.rjust(2, "0")}"
  end
end
