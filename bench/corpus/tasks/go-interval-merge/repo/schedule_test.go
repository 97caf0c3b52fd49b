package schedule

import (
	"reflect"
	"testing"
)

func iv(s, e int) Interval { return Interval{s, e} }

func TestMergeOverlapping(t *testing.T) {
	got := Merge([]Interval{iv(60, 120), iv(90, 150), iv(200, 210)})
	want := []Interval{iv(60, 150), iv(200, 210)}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Merge = %v, want %v", got, want)
	}
}

func TestMergeAdjacent(t *testing.T) {
	got := Merge([]Interval{iv(540, 600), iv(600, 660), iv(700, 720)})
	want := []Interval{iv(540, 660), iv(700, 720)}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Merge = %v, want %v", got, want)
	}
}

func TestMergeUnsortedAndContained(t *testing.T) {
	in := []Interval{iv(300, 400), iv(100, 200), iv(320, 330), iv(150, 160)}
	got := Merge(in)
	want := []Interval{iv(100, 200), iv(300, 400)}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Merge = %v, want %v", got, want)
	}
	if in[0] != iv(300, 400) {
		t.Fatalf("Merge modified its input: %v", in)
	}
}

func TestMergeDropsEmpty(t *testing.T) {
	got := Merge([]Interval{iv(10, 10), iv(30, 20)})
	if len(got) != 0 {
		t.Fatalf("Merge = %v, want none", got)
	}
}

func TestFree(t *testing.T) {
	day := iv(9*60, 17*60)
	busy := []Interval{iv(10*60, 11*60), iv(10*60+30, 12*60), iv(13*60, 13*60+15), iv(16*60+50, 18*60)}
	got := Free(day, busy, 30)
	want := []Interval{iv(9*60, 10*60), iv(12*60, 13*60), iv(13*60+15, 16*60+50)}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Free = %v, want %v", got, want)
	}
}

func TestFreeSkipsShortGaps(t *testing.T) {
	got := Free(iv(0, 100), []Interval{iv(10, 50), iv(60, 95)}, 10)
	want := []Interval{iv(0, 10), iv(50, 60)}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Free = %v, want %v", got, want)
	}
}

func TestBusy(t *testing.T) {
	if got := Busy([]Interval{iv(0, 30), iv(15, 45), iv(100, 110)}); got != 55 {
		t.Fatalf("Busy = %d, want 55", got)
	}
}

func TestString(t *testing.T) {
	if got := iv(9*60+5, 17*60).String(); got != "09:05-17:00" {
		t.Fatalf("String = %q", got)
	}
}
