package cronexpr

import (
	"reflect"
	"testing"
)

func mustField(t *testing.T, expr string, min, max int) []int {
	t.Helper()
	v, err := ParseField(expr, min, max)
	if err != nil {
		t.Fatalf("ParseField(%q): %v", expr, err)
	}
	return v
}

func TestSingleAndList(t *testing.T) {
	if got := mustField(t, "5", 0, 59); !reflect.DeepEqual(got, []int{5}) {
		t.Errorf("5 -> %v", got)
	}
	if got := mustField(t, "7,1,3,1", 0, 59); !reflect.DeepEqual(got, []int{1, 3, 7}) {
		t.Errorf("7,1,3,1 -> %v", got)
	}
}

func TestStar(t *testing.T) {
	got := mustField(t, "*", 1, 12)
	if len(got) != 12 || got[0] != 1 || got[11] != 12 {
		t.Errorf("* -> %v", got)
	}
	if got := mustField(t, "*/15", 0, 59); !reflect.DeepEqual(got, []int{0, 15, 30, 45}) {
		t.Errorf("*/15 -> %v", got)
	}
}

func TestRanges(t *testing.T) {
	if got := mustField(t, "1-5", 0, 6); !reflect.DeepEqual(got, []int{1, 2, 3, 4, 5}) {
		t.Errorf("1-5 -> %v", got)
	}
	if got := mustField(t, "22-23,0-1", 0, 23); !reflect.DeepEqual(got, []int{0, 1, 22, 23}) {
		t.Errorf("22-23,0-1 -> %v", got)
	}
}

func TestSteppedRanges(t *testing.T) {
	if got := mustField(t, "10-30/10", 0, 59); !reflect.DeepEqual(got, []int{10, 20, 30}) {
		t.Errorf("10-30/10 -> %v", got)
	}
	if got := mustField(t, "2-12/5", 1, 31); !reflect.DeepEqual(got, []int{2, 7, 12}) {
		t.Errorf("2-12/5 -> %v", got)
	}
}

func TestStartWithStep(t *testing.T) {
	if got := mustField(t, "50/4", 0, 59); !reflect.DeepEqual(got, []int{50, 54, 58}) {
		t.Errorf("50/4 -> %v", got)
	}
}

func TestFieldErrors(t *testing.T) {
	for _, expr := range []string{"", "60", "5-1", "*/0", "a", "1,,2", "-1", "3/x"} {
		if _, err := ParseField(expr, 0, 59); err == nil {
			t.Errorf("ParseField(%q) succeeded", expr)
		}
	}
}

func TestMatches(t *testing.T) {
	s, err := Parse("*/30 9-17 * * 1-5")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Matches(30, 9, 14, 3, 2) {
		t.Errorf("should match Tuesday 09:30")
	}
	if s.Matches(30, 9, 14, 3, 6) {
		t.Errorf("should not match Saturday")
	}
	if s.Matches(15, 9, 14, 3, 2) {
		t.Errorf("should not match minute 15")
	}
}

func TestMatchesDayUnion(t *testing.T) {
	s, err := Parse("0 0 1 * 0")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Matches(0, 0, 1, 6, 3) || !s.Matches(0, 0, 9, 6, 0) {
		t.Errorf("day-of-month and day-of-week should be OR-ed")
	}
	if s.Matches(0, 0, 9, 6, 3) {
		t.Errorf("neither day field matches")
	}
}

func TestParseErrors(t *testing.T) {
	for _, spec := range []string{"* * * *", "* * * * * *", "* 24 * * *", "* * 0 * *"} {
		if _, err := Parse(spec); err == nil {
			t.Errorf("Parse(%q) succeeded", spec)
		}
	}
}
