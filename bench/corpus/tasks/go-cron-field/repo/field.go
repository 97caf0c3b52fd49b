// Package cronexpr parses the five fields of a classic crontab line.
package cronexpr

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Bounds of each field, in crontab order.
var bounds = [5]struct {
	name     string
	min, max int
}{
	{"minute", 0, 59},
	{"hour", 0, 23},
	{"day of month", 1, 31},
	{"month", 1, 12},
	{"day of week", 0, 6},
}

// ParseField expands one crontab field into the sorted list of values it
// matches. Supported syntax: "*", "N", "A-B", "*/S", "A-B/S", "A/S"
// (meaning A-max/S) and comma-separated lists of those.
func ParseField(expr string, min, max int) ([]int, error) {
	seen := map[int]bool{}
	for _, part := range strings.Split(expr, ",") {
		if part == "" {
			return nil, fmt.Errorf("empty list element in %q", expr)
		}
		rng, stepStr, hasStep := strings.Cut(part, "/")
		step := 1
		if hasStep {
			s, err := strconv.Atoi(stepStr)
			if err != nil || s <= 0 {
				return nil, fmt.Errorf("bad step %q", stepStr)
			}
			step = s
		}
		var lo, hi int
		switch {
		case rng == "*":
			lo, hi = min, max
		case strings.Contains(rng, "-"):
			a, b, _ := strings.Cut(rng, "-")
			var err error
			if lo, err = number(a, min, max); err != nil {
				return nil, err
			}
			if hi, err = number(b, min, max); err != nil {
				return nil, err
			}
			if lo > hi {
				return nil, fmt.Errorf("range %q is backwards", rng)
			}
		default:
			n, err := number(rng, min, max)
			if err != nil {
				return nil, err
			}
			lo, hi = n, n
			if hasStep {
				hi = max
			}
		}
		for v := lo; v <= hi; v += step {
			seen[v] = true
		}
	}
	out := make([]int, 0, len(seen))
	for v := range seen {
		out = append(out, v)
	}
	sort.Ints(out)
	return out, nil
}

func number(s string, min, max int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("bad number %q", s)
	}
	if n < min || n > max {
		return 0, fmt.Errorf("%d out of range %d-%d", n, min, max)
	}
	return n, nil
}

// Schedule is a parsed crontab time specification.
type Schedule struct {
	fields [5]map[int]bool
	// domStar and dowStar record whether day-of-month / day-of-week were "*".
	domStar, dowStar bool
}

// Parse parses the five space-separated fields of a crontab line.
func Parse(spec string) (*Schedule, error) {
	parts := strings.Fields(spec)
	if len(parts) != 5 {
		return nil, fmt.Errorf("expected 5 fields, got %d", len(parts))
	}
	s := &Schedule{domStar: parts[2] == "*", dowStar: parts[4] == "*"}
	for i, p := range parts {
		vals, err := ParseField(p, bounds[i].min, bounds[i].max)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", bounds[i].name, err)
		}
		s.fields[i] = map[int]bool{}
		for _, v := range vals {
			s.fields[i][v] = true
		}
	}
	return s, nil
}

// Matches reports whether the schedule fires at the given time. As in
// Vixie cron, when both day fields are restricted a day matches if either
// of them matches.
func (s *Schedule) Matches(minute, hour, dom, month, dow int) bool {
	if !s.fields[0][minute] || !s.fields[1][hour] || !s.fields[3][month] {
		return false
	}
	domOK, dowOK := s.fields[2][dom], s.fields[4][dow]
	if !s.domStar && !s.dowStar {
		return domOK || dowOK
	}
	return domOK && dowOK
}
