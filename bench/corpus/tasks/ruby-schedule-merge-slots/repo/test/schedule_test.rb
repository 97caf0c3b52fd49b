# frozen_string_literal: true

require "minitest/autorun"
require "schedule"

class ScheduleTest < Minitest::Test
  def slots(*texts)
    texts.map { |t| Schedule.parse(t) }
  end

  def strings(slots)
    slots.map(&:to_s)
  end

  def test_parse_and_format
    slot = Schedule.parse(" 9:05 - 10:30 ")
    assert_equal 545, slot.start
    assert_equal 630, slot.finish
    assert_equal "09:05-10:30", slot.to_s
  end

  def test_parse_rejects_garbage
    assert_raises(ArgumentError) { Schedule.parse("9-10") }
    assert_raises(ArgumentError) { Schedule.parse("10:00-09:00") }
  end

  def test_merge_overlapping
    assert_equal ["09:00-11:00", "12:00-13:00"],
                 strings(Schedule.merge(slots("10:00-11:00", "12:00-13:00", "09:00-10:30")))
  end

  def test_merge_touching_slots
    assert_equal ["09:00-10:30"], strings(Schedule.merge(slots("09:00-10:00", "10:00-10:30")))
  end

  def test_merge_contained_slot
    assert_equal ["09:00-12:00"], strings(Schedule.merge(slots("09:00-12:00", "10:00-10:30")))
  end

  def test_merge_drops_empty_slots_and_does_not_mutate_input
    input = slots("09:00-09:00", "09:00-10:00", "09:30-11:00")
    assert_equal ["09:00-11:00"], strings(Schedule.merge(input))
    assert_equal ["09:00-09:00", "09:00-10:00", "09:30-11:00"], strings(input)
  end

  def test_free_time_in_window
    busy = slots("09:30-10:00", "11:00-12:00", "11:30-12:30")
    window = Schedule.parse("09:00-13:00")
    assert_equal ["09:00-09:30", "10:00-11:00", "12:30-13:00"], strings(Schedule.free(busy, window))
  end

  def test_free_ignores_slots_outside_window
    busy = slots("07:00-08:00", "08:30-09:15", "17:00-18:00")
    window = Schedule.parse("09:00-17:00")
    assert_equal ["09:15-17:00"], strings(Schedule.free(busy, window))
  end

  def test_busy_minutes_counts_overlap_once
    assert_equal 150, Schedule.busy_minutes(slots("09:00-10:00", "09:30-11:00", "13:00-13:30"))
  end
end
