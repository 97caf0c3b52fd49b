# frozen_string_literal: true

# Busy/free time computations on half-open minute intervals [start, end).
module Schedule
  Slot = Struct.new(:start, :finish) do
    def duration
      finish - start
    end

    def to_s
      format("%02d:%02d-%02d:%02d", *start.divmod(60), *finish.divmod(60))
    end
  end

  module_function

  # Parse "09:30-10:15" into a Slot of minutes since midnight.
  def parse(text)
    m = /\A(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\z/.match(text.strip)
    raise ArgumentError, "bad slot: #{text.inspect}" unless m

    start = m[1].to_i * 60 + m[2].to_i
    finish = m[3].to_i * 60 + m[4].to_i
    raise ArgumentError, "slot ends before it starts: #{text.inspect}" if finish < start

    Slot.new(start, finish)
  end

  # Merge overlapping or touching slots; the result is sorted and disjoint.
  # Empty slots are dropped.
  def merge(slots)
    slots.reject { |s| s.duration.zero? }.sort_by(&:start).each_with_object([]) do |slot, merged|
      last = merged.last
      if last && slot.start <= last.finish
        last.finish = [last.finish, slot.finish].max
      else
        merged << Slot.new(slot.start, slot.finish)
      end
    end
  end

  # Free slots inside +window+ that are not covered by any busy slot.
  def free(busy, window)
    free = []
    cursor = window.start
    merge(busy).each do |slot|
      break if slot.start >= window.finish
      next if slot.finish <= cursor

      free << Slot.new(cursor, slot.start) if slot.start > cursor
      cursor = slot.finish
    end
    free << Slot.new(cursor, window.finish) if cursor < window.finish
    free
  end

  # Total busy minutes, counting overlaps once.
  def busy_minutes(slots)
    merge(slots).sum(&:duration)
  end
end
