# frozen_string_literal: true

require "minitest/autorun"
require "allocation"

class AllocationTest < Minitest::Test
  def test_even_split_gives_leftover_to_first_parts
    assert_equal [34, 33, 33], Allocation.evenly(100, 3)
    assert_equal [3, 3, 2, 2], Allocation.evenly(10, 4)
  end

  def test_exact_split
    assert_equal [50, 25, 25], Allocation.by_ratios(100, [2, 1, 1])
  end

  def test_leftover_goes_to_largest_remainders
    # exact shares: 14.2857, 28.5714, 57.1428
    assert_equal [14, 29, 57], Allocation.by_ratios(100, [1, 2, 4])
  end

  def test_ratios_may_be_fractions_or_zero
    assert_equal [0, 70, 30], Allocation.by_ratios(100, [0, 0.7, 0.3])
  end

  def test_never_loses_a_cent
    [1, 7, 99, 1001, 123_457].each do |cents|
      [[1, 1, 1], [3, 5, 11], [1] * 7].each do |ratios|
        assert_equal cents, Allocation.by_ratios(cents, ratios).sum, "#{cents} by #{ratios}"
      end
    end
  end

  def test_negative_amounts_mirror_positive_ones
    assert_equal [-34, -33, -33], Allocation.evenly(-100, 3)
  end

  def test_invalid_arguments
    assert_raises(ArgumentError) { Allocation.by_ratios(1.5, [1]) }
    assert_raises(ArgumentError) { Allocation.by_ratios(100, []) }
    assert_raises(ArgumentError) { Allocation.by_ratios(100, [1, -1]) }
    assert_raises(ArgumentError) { Allocation.by_ratios(100, [0, 0]) }
    assert_raises(ArgumentError) { Allocation.evenly(100, 0) }
  end

  def test_format
    assert_equal "12.34", Allocation.format(1234)
    assert_equal "-0.05", Allocation.format(-5)
    assert_equal "0.00", Allocation.format(0)
  end
end
