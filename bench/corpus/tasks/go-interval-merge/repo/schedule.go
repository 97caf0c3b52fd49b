// Package schedule computes busy and free time from half-open intervals
// expressed in minutes since midnight.
package schedule

import (
	"fmt"
	"sort"
)

// Interval is the half-open range [Start, End).
type Interval struct {
	Start, End int
}

func (iv Interval) String() string {
	return fmt.Sprintf("%02d:%02d-%02d:%02d", iv.Start/60, iv.Start%60, iv.End/60, iv.End%60)
}

// Len returns the length of the interval in minutes.
func (iv Interval) Len() int { return iv.End - iv.Start }

// Merge returns the union of the given intervals as a sorted list of
// disjoint, non-adjacent intervals. Empty intervals are dropped. The input
// slice is not modified.
func Merge(in []Interval) []Interval {
	ivs := make([]Interval, 0, len(in))
	for _, iv := range in {
		if iv.End > iv.Start {
			ivs = append(ivs, iv)
		}
	}
	sort.Slice(ivs, func(i, j int) bool {
		if ivs[i].Start != ivs[j].Start {
			return ivs[i].Start < ivs[j].Start
		}
		return ivs[i].End < ivs[j].End
	})
	var out []Interval
	for _, iv := range ivs {
		n := len(out)
		if n > 0 && iv.Start <= out[n-1].End {
			if iv.End > out[n-1].End {
				out[n-1].End = iv.End
			}
			continue
		}
		out = append(out, iv)
	}
	return out
}

// Free returns the gaps inside window that are not covered by busy and are
// at least minLen minutes long.
func Free(window Interval, busy []Interval, minLen int) []Interval {
	var out []Interval
	cur := window.Start
	for _, b := range Merge(busy) {
		if b.End <= window.Start {
			continue
		}
		if b.Start >= window.End {
			break
		}
		if b.Start-cur >= minLen && b.Start > cur {
			out = append(out, Interval{cur, b.Start})
		}
		if b.End > cur {
			cur = b.End
		}
	}
	if window.End-cur >= minLen && window.End > cur {
		out = append(out, Interval{cur, window.End})
	}
	return out
}

// Busy returns the total number of minutes covered by the intervals.
func Busy(in []Interval) int {
	total := 0
	for _, iv := range Merge(in) {
		total += iv.Len()
	}
	return total
}
